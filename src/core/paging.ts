// List paging shared by every list operation: REST pages with limit/offset, MCP with an opaque
// keyset cursor over (created_at, id), newest first, so new rows never shift a page.
import Type from 'typebox'
import type postgres from 'postgres'
import { validationError } from './errors.js'

export const PagingInput = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size (default 50, max 100)' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Rows to skip (REST paging)' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: "Opaque cursor from a previous page's nextCursor (MCP paging); overrides offset" })),
}

export const PageFields = {
  total: Type.Integer(),
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
  if (!input.cursor) return { limit, offset: input.offset ?? 0 }
  try {
    const [t, id] = JSON.parse(Buffer.from(input.cursor, 'base64url').toString('utf8')) as [string, string]
    const createdAt = new Date(t)
    if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) throw new Error('bad cursor')
    return { limit, offset: 0, after: { createdAt, id } }
  } catch {
    throw validationError(['cursor: is not a cursor this service issued'])
  }
}

/** SQL: the keyset condition (or nothing) and the limit/offset, for `order by created_at desc, id desc`. */
export function keysetAfter(tx: postgres.TransactionSql, page: Page, column = 'created_at') {
  const idColumn = column.includes(".") ? `${column.split(".")[0]}.id` : "id"
  return page.after ? tx`and (${tx(column)}, ${tx(idColumn)}) < (${page.after.createdAt}, ${page.after.id}::uuid)` : tx``
}

export function limitOffset(tx: postgres.TransactionSql, page: Page) {
  return tx`limit ${page.limit} offset ${page.after ? 0 : page.offset}`
}

/** The page envelope: a full page may have more after it. */
export function pageEnvelope<T extends { createdAt: string; id: string }>(items: T[], total: number, page: Page) {
  const last = items[items.length - 1]
  const nextCursor = items.length === page.limit && last
    ? Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url')
    : null
  return { total, limit: page.limit, offset: page.after ? 0 : page.offset, nextCursor }
}

/** A case-insensitive "contains" pattern for ILIKE, with the caller's % and _ taken literally. */
export function containsPattern(text: string | undefined): string | null {
  return text ? `%${text.replace(/[%_\\]/g, (c) => `\\${c}`)}%` : null
}
