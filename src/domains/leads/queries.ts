// Lead SQL. Every function takes the tenant transaction from withTenant() but readLeadPage, which
// makes its own reads (lead_list_page, or readWithTenant); RLS scopes the rows either way.
import type postgres from 'postgres'
import type { LeadPriority, LeadStatus } from './schema.js'
import { COUNT_CAP, isFirstPage, listPageStatements, type ListQuery, type Page } from '../../core/paging.js'
import { readWithTenant, type Db } from '../../db/sql.js'

export interface LeadRow {
  id: string
  name: string
  phone: string | null
  email: string | null
  service_type: string | null
  status: LeadStatus
  priority: LeadPriority
  message: string | null
  address: string | null
  suburb: string | null
  source: string | null
  created_at: Date
  updated_at: Date
}

/** The columns of a LeadRow (exported for the benchmarks' plain handler, which reads the same rows). */
export const leadColumns = (tx: postgres.TransactionSql) => tx`
  id, name, phone, email, service_type, status, priority, message, address, suburb, source, created_at, updated_at`

export function presentLead(row: LeadRow) {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    serviceType: row.service_type,
    status: row.status,
    priority: row.priority,
    message: row.message,
    address: row.address,
    suburb: row.suburb,
    source: row.source,
    createdAt: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}
export type Lead = ReturnType<typeof presentLead>

export interface NewLead {
  name: string
  phone: string | null
  email: string | null
  service_type: string | null
  priority: LeadPriority
  message: string | null
  address: string | null
  suburb: string | null
  source: string | null
}

export async function insertLead(tx: postgres.TransactionSql, companyId: string, lead: NewLead, at: Date): Promise<LeadRow> {
  const [row] = await tx<LeadRow[]>`
    insert into leads (company_id, name, phone, email, service_type, priority, message, address, suburb, source, created_at, updated_at)
    values (${companyId}, ${lead.name}, ${lead.phone}, ${lead.email}, ${lead.service_type}, ${lead.priority},
            ${lead.message}, ${lead.address}, ${lead.suburb}, ${lead.source}, ${at}, ${at})
    returning ${leadColumns(tx)}`
  return row!
}

export async function findLead(tx: postgres.TransactionSql, id: string, options: { forUpdate?: boolean } = {}): Promise<LeadRow | null> {
  const [row] = options.forUpdate
    ? await tx<LeadRow[]>`select ${leadColumns(tx)} from leads where id = ${id} for no key update`
    : await tx<LeadRow[]>`select ${leadColumns(tx)} from leads where id = ${id}`
  return row ?? null
}

export type LeadChanges = Partial<Omit<NewLead, never> & { status: LeadStatus }>

export async function updateLeadRow(tx: postgres.TransactionSql, id: string, changes: LeadChanges, at: Date): Promise<LeadRow> {
  const [row] = await tx<LeadRow[]>`
    update leads set ${tx(changes as Record<string, unknown>, ...Object.keys(changes))}, updated_at = ${at}
    where id = ${id}
    returning ${leadColumns(tx)}`
  return row!
}

export interface LeadFilter {
  status?: LeadStatus
  priority?: LeadPriority
}

/**
 * One page of the lead list, newest first, by offset or after a keyset position, and its total.
 * Unfiltered (what agents poll): one statement, lead_list_page (migration 049), which sets the
 * tenant and reads the page under the same row level security, with the company's kept total
 * (lead_totals, migration 048) as a column of every row; four statements on a reserved connection
 * (readWithTenant) cost about half as much again, client and database together. A page past the end
 * has no row to carry the total: it is read on its own. Filtered (status, priority): the page and
 * a count of its matches in one tenant read, each served by the index for its filter (migration 009).
 * No lead_totals row yet: no leads.
 */
export async function readLeadPage(db: Db, companyId: string, filter: LeadFilter, page: Page): Promise<{ rows: LeadRow[]; total: number }> {
  if (filter.status || filter.priority) {
    const [rows, counted] = await readWithTenant(db, companyId, (tx) => listPageStatements<LeadRow>(tx, page, leadList(tx, filter)))
    return { rows, total: counted[0]!.n }
  }
  const rows = await db.app<(LeadRow & { list_total: number })[]>`
    select * from lead_list_page(${companyId}, ${page.limit}, ${page.after ? 0 : page.offset}, ${page.after?.createdAt ?? null}, ${page.after?.id ?? null})`
  if (rows.length > 0 || isFirstPage(page)) return { rows, total: rows[0]?.list_total ?? 0 }
  const [[kept]] = await readWithTenant(db, companyId, (tx) => [tx<{ n: number }[]>`select ${leadTotal(tx)} as n`])
  return { rows, total: kept!.n }
}

/** The kept total as lead_list_page reads it, capped as a counted total is (cappedCount). */
const leadTotal = (tx: postgres.TransactionSql) =>
  tx`coalesce((select least(n, ${tx.unsafe(String(COUNT_CAP + 1))})::int from lead_totals), 0)`

function leadList(tx: postgres.TransactionSql, filter: LeadFilter): ListQuery {
  const matching = [
    filter.status && tx`status = ${filter.status}`,
    filter.priority && tx`priority = ${filter.priority}`,
  ]
  return { select: tx`select ${leadColumns(tx)} from leads`, from: tx`from leads`, matching }
}
