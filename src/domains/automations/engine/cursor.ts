// Opaque cursors of the workflows tools: an offset into the (short) catalogue for workflows.list,
// and an ascending keyset (created_at, id) for workflows.pending_actions, which lists oldest first.
// Anything this service did not issue is a validation_error naming cursor.
import { validationError } from '../../../core/errors.js'
import { decodeOffsetCursor as decodeOffsetOf } from '../../../core/paging.js'
import { isUuid } from '../../../core/uuid.js'

const badCursor = () => validationError(['cursor: is not a cursor this service issued; pass a nextCursor back unchanged, or leave cursor out to start at the beginning'])
// Ids as Postgres writes them, lower case: a cursor is exactly what this service issued.
const isIssuedId = (id: string) => isUuid(id) && id === id.toLowerCase()
const ISSUED_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function decode(cursor: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw badCursor()
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw badCursor()
  }
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** workflows.list's offset: 0 for no cursor, else the one in a cursor this service issued. */
export function decodeOffsetCursor(cursor: string | undefined): number {
  if (!cursor) return 0
  const offset = decodeOffsetOf(cursor, { min: 0, max: 10_000 })
  if (offset === null) throw badCursor()
  return offset
}

export const encodeAfterCursor = (createdAt: string, id: string) => encode([createdAt, id])

export function decodeAfterCursor(cursor: string | undefined): { createdAt: Date; id: string } | null {
  if (!cursor) return null
  const value = decode(cursor)
  if (!Array.isArray(value) || value.length !== 2) throw badCursor()
  const [time, id] = value as unknown[]
  if (typeof time !== 'string' || typeof id !== 'string' || !ISSUED_TIME.test(time) || !isIssuedId(id)) throw badCursor()
  const createdAt = new Date(time)
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== time || encodeAfterCursor(time, id) !== cursor) throw badCursor()
  return { createdAt, id }
}
