// Analytics SQL for analytics.dashboard: today's and tomorrow's jobs, overdue invoices, new leads,
// quotes waiting, reminders due and the headline comparison. Every function takes the tenant
// transaction from withTenant(); each list has a count (or sum) query and a capped list query.
import type postgres from 'postgres'
import { overdueCondition } from '../../invoicing/queries.js'

export interface DashboardJobRow { id: string; title: string; status: string; scheduled_date: Date; completed_at: Date | null; technician: string | null; address: string | null; client_name: string; client_phone: string | null; amount_cents: string | null }

/** Jobs (not cancelled) scheduled in [start, end), with their client. */
export async function listJobsBetween(tx: postgres.TransactionSql, start: Date, end: Date): Promise<DashboardJobRow[]> {
  const rows = await tx<DashboardJobRow[]>`
    select j.id, j.title, j.status, j.scheduled_date, j.completed_at, j.technician, j.address, l.name as client_name, l.phone as client_phone, j.amount_cents
    from jobs j join leads l on l.id = j.lead_id
    where j.scheduled_date >= ${start} and j.scheduled_date < ${end} and j.status <> 'Cancelled'
    order by j.scheduled_date, j.id limit 200`
  return rows
}

export interface CountAndCents { n: number; cents: string }

export async function findOverdueInvoiceTotal(tx: postgres.TransactionSql, invoiceToday: string): Promise<CountAndCents> {
  const [sum] = await tx<CountAndCents[]>`
    select count(*)::int as n, coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0)::text as cents
    from invoices where ${overdueCondition(tx, invoiceToday)}`
  return sum!
}

export interface OverdueInvoiceRow { id: string; invoice_number: string; client_name: string; balance: string; due_date: string; days: number; job_id: string | null }

export async function listOverdueInvoices(tx: postgres.TransactionSql, invoiceToday: string, limit: number): Promise<OverdueInvoiceRow[]> {
  const items = await tx<OverdueInvoiceRow[]>`
    select i.id, i.invoice_number, l.name as client_name, (i.total_cents - i.amount_paid_cents - i.amount_credited_cents)::text as balance,
           to_char(i.due_date, 'YYYY-MM-DD') as due_date, (${invoiceToday}::date - i.due_date) as days, i.job_id
    from invoices i join leads l on l.id = i.lead_id
    where ${overdueCondition(tx, invoiceToday, 'i')}
    order by i.due_date, i.invoice_number limit ${limit}`
  return items
}

export async function countLeadsSince(tx: postgres.TransactionSql, since: Date): Promise<number> {
  const [n] = await tx<{ n: number }[]>`select count(*)::int as n from leads where created_at > ${since}`
  return n!.n
}

export interface NewLeadRow { id: string; name: string; status: string; priority: string; service_type: string | null; source: string | null; phone: string | null; created_at: Date }

export async function listLeadsSince(tx: postgres.TransactionSql, since: Date, limit: number): Promise<NewLeadRow[]> {
  const rows = await tx<NewLeadRow[]>`
    select id, name, status, priority, service_type, source, phone, created_at from leads where created_at > ${since}
    order by created_at desc, id desc limit ${limit}`
  return rows
}

/** Quotes the client has (Sent or Viewed) and can still accept on the company's today. */
const waiting = (tx: postgres.TransactionSql, quoteToday: string) => tx`q.status in ('Sent', 'Viewed') and q.valid_until >= ${quoteToday}::date`

export async function findWaitingQuoteTotal(tx: postgres.TransactionSql, quoteToday: string): Promise<CountAndCents> {
  const [sum] = await tx<CountAndCents[]>`select count(*)::int as n, coalesce(sum(total_cents), 0)::text as cents from quotes q where ${waiting(tx, quoteToday)}`
  return sum!
}

export interface WaitingQuoteRow { id: string; quote_number: string; status: string; client_name: string; total_cents: string; sent_at: Date | null; valid_until: string }

export async function listWaitingQuotes(tx: postgres.TransactionSql, quoteToday: string, limit: number): Promise<WaitingQuoteRow[]> {
  const rows = await tx<WaitingQuoteRow[]>`
    select q.id, q.quote_number, q.status, l.name as client_name, q.total_cents, q.sent_at, to_char(q.valid_until, 'YYYY-MM-DD') as valid_until
    from quotes q join leads l on l.id = q.lead_id where ${waiting(tx, quoteToday)}
    order by q.sent_at nulls last, q.created_at limit ${limit}`
  return rows
}

export async function countRemindersDueBefore(tx: postgres.TransactionSql, before: Date): Promise<number> {
  const [n] = await tx<{ n: number }[]>`select count(*)::int as n from reminders where done_at is null and due_at < ${before}`
  return n!.n
}

export interface DueReminderRow { id: string; title: string; due_at: Date; lead_id: string | null; job_id: string | null }

export async function listRemindersDueBefore(tx: postgres.TransactionSql, before: Date, limit: number): Promise<DueReminderRow[]> {
  const rows = await tx<DueReminderRow[]>`
    select id, title, due_at, lead_id, job_id from reminders where done_at is null and due_at < ${before} order by due_at, id limit ${limit}`
  return rows
}

export interface HeadlineRow { rev_now: string; rev_before: string; leads_now: number; leads_before: number; jobs_now: number; jobs_before: number }

/** Revenue, new leads and completed jobs in [mid, now) and in [start, mid). */
export async function findHeadline(tx: postgres.TransactionSql, start: Date, mid: Date, now: Date): Promise<HeadlineRow> {
  const [r] = await tx<HeadlineRow[]>`
    select
      (select coalesce(sum(amount_cents), 0)::text from payments where received_at >= ${mid} and received_at < ${now}) as rev_now,
      (select coalesce(sum(amount_cents), 0)::text from payments where received_at >= ${start} and received_at < ${mid}) as rev_before,
      (select count(*)::int from leads where created_at >= ${mid} and created_at < ${now}) as leads_now,
      (select count(*)::int from leads where created_at >= ${start} and created_at < ${mid}) as leads_before,
      (select count(*)::int from jobs where completed_at >= ${mid} and completed_at < ${now} and status = 'Completed') as jobs_now,
      (select count(*)::int from jobs where completed_at >= ${start} and completed_at < ${mid} and status = 'Completed') as jobs_before`
  return r!
}
