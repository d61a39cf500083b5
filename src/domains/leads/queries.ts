// Lead SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { LeadPriority, LeadStatus } from './schema.js'
import { COUNT_CAP, listPageStatements, type ListQuery, type Page } from '../../core/paging.js'

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
 * A page, newest first, by offset or after a keyset position, and the matching rows counted up to
 * COUNT_CAP + 1 (see cappedCount). The WHERE clause has only the filters given, so each query is
 * served by the index for its filter (migration 009) instead of one plan for every combination.
 * Both statements unsent, for readWithTenant (the page and the capped count in one round trip).
 */
export function leadListStatements(tx: postgres.TransactionSql, filter: LeadFilter, page: Page) {
  return listPageStatements<LeadRow>(tx, page, leadList(tx, filter))
}

function leadList(tx: postgres.TransactionSql, filter: LeadFilter): ListQuery {
  const matching = [
    filter.status && tx`status = ${filter.status}`,
    filter.priority && tx`priority = ${filter.priority}`,
  ]
  // Unfiltered, the total is the company's row of lead_totals (migration 048), one primary-key
  // read (the policy's company is its key), instead of counting every lead on every page; capped
  // as a count would be. No row yet: no leads.
  const kept = !filter.status && !filter.priority
    ? tx<{ n: number }[]>`select coalesce((select least(n, ${COUNT_CAP + 1})::int from lead_totals), 0) as n`
    : undefined
  return { select: tx`select ${leadColumns(tx)} from leads`, from: tx`from leads`, matching, kept }
}
