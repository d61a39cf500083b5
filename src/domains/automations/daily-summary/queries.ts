// Daily summary SQL: one local day's activity between two instants (the caller turns the local date
// into them), what is open now, and who the summary goes to. Every function takes the tenant
// transaction. Overdue is invoicing's rule (overdueCondition), as analytics.dashboard reads it.
import type postgres from 'postgres'
import { overdueCondition } from '../../invoicing/queries.js'

export interface DayCountsRow {
  leads: number
  scheduled: number
  completed: number
  sent: number
  accepted: number
  paid: string
}

/** Leads, jobs booked and completed, quotes sent and accepted, and payments received in [start, end). */
export async function countDayActivity(tx: postgres.TransactionSql, start: Date, end: Date): Promise<DayCountsRow | undefined> {
  const [r] = await tx<DayCountsRow[]>`
    select
      (select count(*)::int from leads where created_at >= ${start} and created_at < ${end}) as leads,
      (select count(*)::int from jobs where scheduled_date >= ${start} and scheduled_date < ${end} and status <> 'Cancelled') as scheduled,
      (select count(*)::int from jobs where completed_at >= ${start} and completed_at < ${end} and status = 'Completed') as completed,
      (select count(*)::int from quotes where sent_at >= ${start} and sent_at < ${end}) as sent,
      (select count(*)::int from quotes where accepted_at >= ${start} and accepted_at < ${end}) as accepted,
      (select coalesce(sum(amount_cents), 0)::text from payments where received_at >= ${start} and received_at < ${end}) as paid`
  return r
}

export interface DayJobRow {
  id: string
  title: string
  status: string
  scheduled_date: Date
  client_name: string
  technician: string | null
}

/** Jobs booked in [start, end) and not Cancelled, earliest first, at most 20. */
export async function listDayJobs(tx: postgres.TransactionSql, start: Date, end: Date): Promise<DayJobRow[]> {
  return tx<DayJobRow[]>`
    select j.id, j.title, j.status, j.scheduled_date, l.name as client_name, j.technician
    from jobs j join leads l on l.id = j.lead_id
    where j.scheduled_date >= ${start} and j.scheduled_date < ${end} and j.status <> 'Cancelled'
    order by j.scheduled_date, j.id limit 20`
}

export interface OpenCountsRow {
  q: number
  q_total: string
  o: number
  o_balance: string
  rem: number
  pend: number
}

/** Quotes awaiting a reply, overdue invoices (both as of the local `today`), reminders due before `endOfDay`, pending actions. */
export async function countOpenItems(tx: postgres.TransactionSql, today: string, endOfDay: Date): Promise<OpenCountsRow | undefined> {
  const [r] = await tx<OpenCountsRow[]>`
    select
      (select count(*)::int from quotes where status in ('Sent', 'Viewed') and valid_until >= ${today}::date) as q,
      (select coalesce(sum(total_cents), 0)::text from quotes where status in ('Sent', 'Viewed') and valid_until >= ${today}::date) as q_total,
      (select count(*)::int from invoices where ${overdueCondition(tx, today)}) as o,
      (select coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0)::text from invoices
        where ${overdueCondition(tx, today)}) as o_balance,
      (select count(*)::int from reminders where done_at is null and due_at < ${endOfDay}) as rem,
      (select count(*)::int from pending_actions where status = 'pending') as pend`
  return r
}

/** The business name the summary is titled with and the owner's email it goes to. */
export async function findSummaryRecipient(tx: postgres.TransactionSql): Promise<{ business_name: string; contact_email: string } | undefined> {
  const [company] = await tx<{ business_name: string; contact_email: string }[]>`select business_name, contact_email from companies`
  return company
}
