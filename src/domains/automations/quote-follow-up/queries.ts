// Quote follow-up SQL: the quotes awaiting a reply (with the time of their current send), the
// quote's state before each follow-up, who it goes to, and the follow-up's run record. Every
// function takes the tenant transaction from withTenant().
import type postgres from 'postgres'
import { workflowIdSql } from '../../../temporal/contract.js'
import { quoteFollowUpWorkflowId } from './workflows/quote-follow-up.js'

export interface PendingQuote { id: string; quote_number: string; status: string; sent_count: number; sent_at: Date; valid_until: string; last_sent_at: Date | null; time_zone: string }

/**
 * Sent or Viewed quotes still valid on `today` (a local date), or the one quote asked about, at most
 * `limit`: those whose current send has no live run first.
 */
export async function listPendingQuotes(tx: postgres.TransactionSql, today: string, limit: number, quoteId?: string): Promise<PendingQuote[]> {
  // The send time of a re-send is its quote.sent event; the first send's is sent_at.
  return tx<PendingQuote[]>`
    select q.id, q.quote_number, q.status, q.sent_count, q.sent_at, to_char(q.valid_until, 'YYYY-MM-DD') as valid_until,
           (select max(e.created_at) from event_outbox e where e.entity_type = 'quote' and e.entity_id = q.id and e.event_type = 'quote.sent') as last_sent_at,
           c.time_zone
    from quotes q join companies c on c.id = q.company_id
    where q.status in ('Sent', 'Viewed') and q.valid_until >= ${today}::date and q.sent_count > 0
      ${quoteId ? tx`and q.id = ${quoteId}` : tx``}
    -- Quotes whose current send has no live run first, so more than SCAN_LIMIT are all reached over repeated calls.
    order by exists (select 1 from automation_runs r
                     where r.company_id = q.company_id and r.workflow_id = ${workflowIdSql(tx, quoteFollowUpWorkflowId, { companyId: tx`q.company_id`, quoteId: tx`q.id`, sendNumber: tx`q.sent_count` })} and r.status <> 'failed'),
             q.sent_at, q.id
    limit ${limit}`
}

/** The quote asked about, with its stored status (the caller reads Expired from valid_until). */
export async function findQuoteStatus(tx: postgres.TransactionSql, quoteId: string): Promise<{ quote_number: string; status: string; valid_until: string } | undefined> {
  const [q] = await tx<{ quote_number: string; status: string; valid_until: string }[]>`
        select quote_number, status, to_char(valid_until, 'YYYY-MM-DD') as valid_until from quotes where id = ${quoteId}`
  return q
}

export async function findFollowUpRun(tx: postgres.TransactionSql, workflowId: string): Promise<{ status: string; outcome: string | null } | undefined> {
  const [run] = await tx<{ status: string; outcome: string | null }[]>`select status, outcome from automation_runs where workflow_id = ${workflowId}`
  return run
}

/** Removes the run record of a failed follow-up run, so it can be started again. */
export async function deleteFailedRun(tx: postgres.TransactionSql, workflowId: string): Promise<void> {
  await tx`delete from automation_runs where workflow_id = ${workflowId} and status = 'failed'`
}

export interface FollowedQuoteRow {
  status: string
  sent_count: number
  valid_until: string
  quote_number: string
  total_cents: string
  public_token: string
  lead_id: string
}

/** The quote as a follow-up sees it, read FOR SHARE (an acceptance being committed is waited for). */
export async function findFollowedQuote(tx: postgres.TransactionSql, quoteId: string): Promise<FollowedQuoteRow | undefined> {
  const [row] = await tx<FollowedQuoteRow[]>`
    select status, sent_count, to_char(valid_until, 'YYYY-MM-DD') as valid_until, quote_number, total_cents, public_token, lead_id
    from quotes where id = ${quoteId} for share`
  return row
}

export async function findClientContact(tx: postgres.TransactionSql, leadId: string): Promise<{ name: string; phone: string | null; email: string | null } | undefined> {
  const [lead] = await tx<{ name: string; phone: string | null; email: string | null }[]>`select name, phone, email from leads where id = ${leadId}`
  return lead
}

export async function findBusinessName(tx: postgres.TransactionSql): Promise<string> {
  const [company] = await tx<{ business_name: string }[]>`select business_name from companies`
  return company!.business_name
}
