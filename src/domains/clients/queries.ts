// Client SQL: leads with jobs, with their job, quote and revenue figures. Takes the tenant
// transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import { containsPattern, listPage, type Page } from '../../core/paging.js'

export interface ClientRow {
  id: string
  name: string
  email: string | null
  phone: string | null
  address: string | null
  suburb: string | null
  created_at: Date
  job_count: number
  completed_job_count: number
  quote_count: number
  revenue_cents: string
}

export interface ClientFilter {
  /** any_job: the MCP view (a lead with a job); completed_job: the REST view. */
  require: 'any_job' | 'completed_job'
  search?: string
}

/**
 * Leads whose name, email, phone, address or suburb contains the text. With a trigram's worth of
 * letters or digits in a row, through the trigram index, which ILIKE cannot use under RLS (see
 * lead_ids_matching, migration 009). Shorter text gives the index nothing to look up (it would
 * read all of it), and matches so many leads that walking the company's newest first finds a page
 * soonest.
 */
function contains(tx: postgres.TransactionSql, text: string) {
  const pattern = containsPattern(text)
  if (/[\p{L}\p{N}]{3}/u.test(text)) return tx`l.id in (select lead_ids_matching(${pattern}))`
  return tx`(l.name ilike ${pattern} or l.email ilike ${pattern} or l.phone ilike ${pattern}
             or l.address ilike ${pattern} or l.suburb ilike ${pattern})`
}

/** A page, newest first, and the matching clients counted up to COUNT_CAP + 1 (see cappedCount). */
export async function listClientRows(tx: postgres.TransactionSql, filter: ClientFilter, page: Page) {
  const completedOnly = filter.require === 'completed_job' ? tx`and j.status = 'Completed'` : tx``
  const matching = [
    tx`exists (select 1 from jobs j where j.lead_id = l.id ${completedOnly})`,
    filter.search && contains(tx, filter.search),
  ]
  return listPage<ClientRow>(tx, page, {
    select: tx`
      select l.id, l.name, l.email, l.phone, l.address, l.suburb, l.created_at,
        (select count(*)::int from jobs j where j.lead_id = l.id) as job_count,
        (select count(*)::int from jobs j where j.lead_id = l.id and j.status = 'Completed') as completed_job_count,
        (select count(*)::int from quotes q where q.lead_id = l.id) as quote_count,
        (select coalesce(sum(j.amount_cents), 0) from jobs j where j.lead_id = l.id and j.status = 'Completed') as revenue_cents
      from leads l`,
    from: tx`from leads l`,
    alias: 'l',
    matching,
  })
}
