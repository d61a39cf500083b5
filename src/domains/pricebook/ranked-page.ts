// Paging for a list in relevance order. Other lists page newest first with a keyset cursor over
// (created_at, id) (core/paging.ts); relevance has no such key, so this cursor carries the
// position: the same limit/offset/cursor inputs and page fields as every list, and a cursor is
// accepted only exactly as this service wrote it.
import { validationError } from '../../core/errors.js'
import { COUNT_CAP, decodeOffsetCursor, encodeOffsetCursor, MAX_LIMIT, MAX_OFFSET, type Page } from '../../core/paging.js'

export function rankedPageFrom(input: { limit?: number; offset?: number; cursor?: string }): Page {
  const limit = input.limit ?? 50
  if (!input.cursor) return { limit, offset: input.offset ?? 0 }
  // A next page is never the first: offset 1 up to the deepest page the envelope issues.
  const offset = decodeOffsetCursor(input.cursor, { min: 1, max: MAX_OFFSET + MAX_LIMIT })
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
    nextCursor: more ? encodeOffsetCursor(next) : null,
  }
}
