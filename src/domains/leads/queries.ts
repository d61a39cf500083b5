// Lead SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { LeadPriority, LeadStatus } from './schema.js'
import { COUNT_CAP, isFirstPage, listPageStatements, pageStatement, type ListQuery, type Page } from '../../core/paging.js'
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
 * One page of the lead list, newest first, by offset or after a keyset position, and its total, in
 * one tenant read (readWithTenant: one round trip). The WHERE clause has only the filters given, so
 * each query is served by the index for its filter (migration 009).
 * Unfiltered, the total is the company's row of lead_totals (migration 048; the policy's company is
 * its key), read as a column of the page's own statement, instead of counting every lead on every page; a
 * filtered list counts its matching rows. No lead_totals row yet: no leads.
 */
export async function readLeadPage(db: Db, companyId: string, filter: LeadFilter, page: Page): Promise<{ rows: LeadRow[]; total: number }> {
  if (filter.status || filter.priority) {
    const [rows, counted] = await readWithTenant(db, companyId, (tx) => listPageStatements<LeadRow>(tx, page, leadList(tx, filter)))
    return { rows, total: counted[0]!.n }
  }
  // The kept total as a column of the page (an InitPlan, read once), not a statement of its own.
  const [rows] = await readWithTenant(db, companyId, (tx) =>
    [pageStatement<LeadRow & { list_total: number }>(tx, page, leadList(tx, {}, tx`${leadColumns(tx)}, ${leadTotal(tx)} as list_total`))])
  if (rows.length > 0 || isFirstPage(page)) return { rows, total: rows[0]?.list_total ?? 0 }
  // A page past the end has no row to carry the total: read it on its own.
  const [[kept]] = await readWithTenant(db, companyId, (tx) => [tx<{ n: number }[]>`select ${leadTotal(tx)} as n`])
  return { rows, total: kept!.n }
}

const leadTotal = (tx: postgres.TransactionSql) =>
  tx`coalesce((select least(n, ${tx.unsafe(String(COUNT_CAP + 1))})::int from lead_totals), 0)`

function leadList(tx: postgres.TransactionSql, filter: LeadFilter, columns = leadColumns(tx)): ListQuery {
  const matching = [
    filter.status && tx`status = ${filter.status}`,
    filter.priority && tx`priority = ${filter.priority}`,
  ]
  return { select: tx`select ${columns} from leads`, from: tx`from leads`, matching }

}
