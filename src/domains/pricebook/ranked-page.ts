// Paging for a list in relevance order. Other lists page newest first with a keyset cursor over
// (created_at, id) (core/paging.ts); relevance has no such key, so this cursor carries the
// position: the same limit/offset/cursor inputs and page fields as every list, and a cursor is
// accepted only exactly as this service wrote it.
import { validationError } from '../../core/errors.js'
import { COUNT_CAP, MAX_LIMIT, MAX_OFFSET, type Page } from '../../core/paging.js'

const PREFIX = 'pricebook'
const CURSOR_CHARACTERS = /^[A-Za-z0-9_-]+$/

const encode = (offset: number) => Buffer.from(JSON.stringify([PREFIX, offset])).toString('base64url')

function decode(cursor: string): number | null {
  if (!CURSOR_CHARACTERS.test(cursor)) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || parsed[0] !== PREFIX) return null
  const offset = parsed[1]
  if (!Number.isSafeInteger(offset) || (offset as number) < 1 || (offset as number) > MAX_OFFSET + MAX_LIMIT) return null
  return encode(offset as number) === cursor ? (offset as number) : null
}

export function rankedPageFrom(input: { limit?: number; offset?: number; cursor?: string }): Page {
  const limit = input.limit ?? 50
  if (!input.cursor) return { limit, offset: input.offset ?? 0 }
  const offset = decode(input.cursor)
  if (offset === null) {
    throw validationError(['cursor: is not a cursor this service issued; pass a nextCursor back unchanged, or leave cursor out to start at the first page'])
  }
  return { limit, offset }
}

export function rankedPageEnvelope(shown: number, counted: number, page: Page) {
  const next = page.offset + page.limit
  const more = shown === page.limit && next < counted && next <= MAX_OFFSET + MAX_LIMIT
  return {
    total: Math.min(counted, COUNT_CAP),
    totalCapped: counted > COUNT_CAP,
    limit: page.limit,
    offset: page.offset,
    nextCursor: more ? encode(next) : null,
  }
}
