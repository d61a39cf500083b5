// List paging shared by every list operation, newest first by (created_at, id). Two ways to page,
// on both transports: limit/offset (capped at MAX_OFFSET: an offset costs as many rows as it
// skips), and an opaque keyset cursor over (created_at, id), which costs one page however deep it
// goes and never shifts when new rows arrive. The cursor's time has milliseconds, as a Date does, so
// the column it is compared with is stored to the millisecond (timestamptz(3), migration 050).
// `total` is counted up to COUNT_CAP, so a page costs the same at 100,000 rows as at 10,000: exact
// below the cap, and flagged (totalCapped) above it.
import Type from 'typebox'
import type postgres from 'postgres'
import { validationError } from './errors.js'
import { isUuid } from './uuid.js'

/** The deepest offset a list accepts; beyond it, page with the cursor. */
export const MAX_OFFSET = 10_000
/** The largest page a list serves. */
export const MAX_LIMIT = 100
/** `total` counts matching rows up to this many; more reads as this with totalCapped true. */
export const COUNT_CAP = 10_000

export const PagingInput = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 50, description: 'Page size' })),
  offset: Type.Optional(Type.Integer({
    minimum: 0, maximum: MAX_OFFSET, default: 0,
    description: 'Rows to skip; to read further, page with cursor',
  })),
  cursor: Type.Optional(Type.String({
    maxLength: 200,
    description: "The previous page's nextCursor, passed back unchanged; overrides offset",
  })),
}

export const PageFields = {
  total: Type.Integer({ description: `Rows matching the filter, counted up to ${COUNT_CAP}; when there are more, ${COUNT_CAP} with totalCapped true` }),
  totalCapped: Type.Boolean({ description: `true when more than ${COUNT_CAP} rows match and total stopped counting at ${COUNT_CAP}` }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for the next page; null on the last page' }),
}

export interface Page {
  limit: number
  offset: number
  after?: { createdAt: Date; id: string }
}

export function pageFrom(input: { limit?: number; offset?: number; cursor?: string }): Page {
  const limit = input.limit ?? 50
  // An empty cursor is the first page, as no cursor is: a caller echoing a null nextCursor as "".
  if (!input.cursor) return { limit, offset: input.offset ?? 0 }
  const after = decodeCursor(input.cursor)
  if (!after) {
    throw validationError(['cursor: is not a cursor this service issued; pass a nextCursor back unchanged, or leave cursor out to start at the newest'])
  }
  return { limit, offset: 0, after }
}

const CURSOR_CHARACTERS = /^[A-Za-z0-9_-]+$/
// What Date.toISOString() writes for years 0001-9999: the years both JS and Postgres timestamptz
// hold, in the one spelling this service issues (no expanded +YYYYYY years, no year 0000).
const ISSUED_TIME = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
// Ids as Postgres writes them, lower case: a cursor is exactly what this service issued.
const isIssuedId = (id: string) => isUuid(id) && id === id.toLowerCase()

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(JSON.stringify([createdAt, id])).toString('base64url')
}

/** What an opaque cursor holds (base64url JSON), or null when it is not one; the caller checks the shape. */
function readCursorJson(cursor: string): unknown {
  if (!CURSOR_CHARACTERS.test(cursor)) return null
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    return null
  }
}

/**
 * A cursor holding an offset, for the few lists in an order with no keyset (a ranked search, the
 * fixed automation catalogue). It costs what the offset skips, so each caller bounds it.
 */
export const encodeOffsetCursor = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString('base64url')

/** The offset in a cursor encodeOffsetCursor wrote, within [min, max]; null for anything else. */
export function decodeOffsetCursor(cursor: string, bounds: { min: number; max: number }): number | null {
  const parsed = readCursorJson(cursor) as { o?: unknown } | null
  const offset = parsed && typeof parsed === 'object' ? parsed.o : undefined
  if (!Number.isSafeInteger(offset) || (offset as number) < bounds.min || (offset as number) > bounds.max) return null
  return encodeOffsetCursor(offset as number) === cursor ? (offset as number) : null
}

/** The keyset position in a cursor, or null for anything that is not exactly what encodeCursor wrote. */
function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  const parsed = readCursorJson(cursor)
  if (!Array.isArray(parsed) || parsed.length !== 2) return null
  const [time, id] = parsed as unknown[]
  if (typeof time !== 'string' || typeof id !== 'string' || !ISSUED_TIME.test(time) || !isIssuedId(id)) return null
  const createdAt = new Date(time)
  // Rejects calendar impossibilities the pattern lets through (2025-02-30, 24:61).
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== time) return null
  if (encodeCursor(time, id) !== cursor) return null
  return { createdAt, id }
}

type Sql = postgres.TransactionSql
type Condition = postgres.PendingQuery<postgres.Row[]>

/** A filter not given: callers write `input.x && sql\`...\``, which can yield any of these. */
type Absent = null | undefined | false | ''

/** `where a and b ...` of the conditions given (skipping the absent ones), or nothing. */
export function whereAll(sql: Sql, conditions: (Condition | Absent)[]): Condition {
  const present = conditions.filter((c): c is Condition => Boolean(c))
  if (!present.length) return sql``
  return sql`where ${present.reduce((all, c) => sql`${all} and ${c}`)}`
}

/**
 * The keyset condition for `order by <alias.>created_at desc, <alias.>id desc`, or null on an
 * offset page. A row comparison, which a (..., created_at DESC, id DESC) index serves as a range.
 */
export function keysetCondition(sql: Sql, page: Page, alias?: string): Condition | null {
  if (!page.after) return null
  const createdAt = alias ? sql`${sql(alias)}.created_at` : sql`created_at`
  const id = alias ? sql`${sql(alias)}.id` : sql`id`
  return sql`(${createdAt}, ${id}) < (${page.after.createdAt}, ${page.after.id}::uuid)`
}

/**
 * The page's LIMIT, written into the statement as a literal, and its OFFSET: a literal 0 on a first
 * or keyset page, a parameter deeper. Why literals: Postgres plans a prepared statement's parameters
 * as unknown, so a parameter LIMIT reads as "10% of the rows" and the generic plan looks dearer than
 * planning afresh; for a company with many rows it then re-plans the list on every call (about
 * 60 us of a 100 us list under RLS). With the page size known, its cached generic plan is costed
 * like a fresh one, and a first page with no filters has no parameters at all, so it is planned
 * once per connection. The literal takes at most MAX_LIMIT values (a bounded number of prepared
 * statements); the offset, up to MAX_OFFSET, stays a parameter so deep pages add none.
 */
export function limitOffset(sql: Sql, page: Page) {
  const offset = page.after ? 0 : page.offset
  if (!Number.isSafeInteger(page.limit) || page.limit < 1 || page.limit > MAX_LIMIT) {
    throw new Error(`limitOffset: page size ${page.limit} is not an integer from 1 to ${MAX_LIMIT}`)
  }
  const limit = sql.unsafe(String(page.limit))
  return offset === 0 ? sql`limit ${limit}` : sql`limit ${limit} offset ${offset}`
}

/**
 * One list page, newest first by (created_at, id), and the rows matching the filters counted as
 * cappedCount does, issued together. `select` is the page's `select ... from ...` (joins
 * included); `from` is the `from <table> <alias>` the filters read, without the joins the page
 * needs only for its columns. The order and the keyset condition are written here once, for every
 * list, so they always agree with each other and with the (..., created_at DESC, id DESC) indexes.
 */
export async function listPage<R extends postgres.Row>(sql: Sql, page: Page, query: ListQuery): Promise<{ rows: R[]; total: number }> {
  const [rows, counted] = await Promise.all(listPageStatements<R>(sql, page, query))
  return { rows, total: counted[0]!.n }
}

export interface ListQuery {
  select: Condition
  from: Condition
  alias?: string
  matching: (Condition | Absent)[]
}

/**
 * listPage's two statements, not yet sent: the page and the capped count (whose one row's n is the
 * count), for readWithTenant (db/sql.ts), which sends them with the transaction around them.
 */
export function listPageStatements<R extends postgres.Row>(sql: Sql, page: Page, query: ListQuery): [postgres.PendingQuery<R[]>, postgres.PendingQuery<{ n: number }[]>] {
  const column = (name: string) => (query.alias ? sql`${sql(query.alias)}.${sql(name)}` : sql`${sql(name)}`)
  return [
    sql<R[]>`
      ${query.select} ${whereAll(sql, [...query.matching, keysetCondition(sql, page, query.alias)])}
      order by ${column('created_at')} desc, ${column('id')} desc ${limitOffset(sql, page)}`,
    cappedCountStatement(sql, sql`${query.from} ${whereAll(sql, query.matching)}`),
  ]
}

/** The first page: no keyset position and no offset (an empty first page means nothing matches). */
export const isFirstPage = (page: Page) => !page.after && page.offset === 0

/**
 * Counts the rows of `from` (a `from ... where ...` fragment) up to COUNT_CAP + 1, so the cost is
 * bounded however many rows match; pageEnvelope reports anything above COUNT_CAP as capped.
 */
export async function cappedCount(sql: Sql, from: Condition): Promise<number> {
  const [row] = await cappedCountStatement(sql, from)
  return row!.n
}

const cappedCountStatement = (sql: Sql, from: Condition) =>
  sql<{ n: number }[]>`select count(*)::int as n from (select 1 ${from} limit ${COUNT_CAP + 1}) matching`

/**
 * The page envelope. `counted` is cappedCount's answer; a full page may have more after it, so it
 * carries a cursor.
 */
export function pageEnvelope<T extends { createdAt: string; id: string }>(items: T[], counted: number, page: Page) {
  const last = items[items.length - 1]
  const nextCursor = items.length === page.limit && last ? encodeCursor(last.createdAt, last.id) : null
  return {
    total: Math.min(counted, COUNT_CAP),
    totalCapped: counted > COUNT_CAP,
    limit: page.limit,
    offset: page.after ? 0 : page.offset,
    nextCursor,
  }
}

/**
 * A date-time filter as a Date both JS and Postgres can hold (UTC years 0001-9999), or a
 * validation_error naming the field: the date-time format alone lets year 0000 through.
 */
export function timestampFilter(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined
  const at = new Date(value)
  const year = at.getUTCFullYear()
  if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
    throw validationError([`${field}: must be a real date-time in the years 0001 to 9999, e.g. 2025-07-01T09:00:00+10:00`])
  }
  return at
}

/** A case-insensitive "contains" pattern for ILIKE, with the caller's % and _ taken literally. */
export function containsPattern(text: string | undefined): string | null {
  return text ? `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null
}
