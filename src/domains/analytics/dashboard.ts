// analytics.dashboard: what an owner reads first thing. Today and tomorrow are local dates in the
// company's zone; "new" leads are those of the last 24 hours (the same figure whenever it is read,
// unlike "since midnight" at 7 am); overdue reads as the invoice list reads it (local due dates).
import type postgres from 'postgres'
import { overdueCondition } from '../invoicing/queries.js'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate, localDateTime, startOfLocalDay } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import type { DashboardInput, DashboardResponse } from './schema.js'
import { companyTimeZone } from './window.js'

const LIST = 20
const DAY = 86_400_000
const $ = (cents: string | number) => centsToDollars(Number(cents))

interface JobSql { id: string; title: string; status: string; scheduled_date: Date; technician: string | null; address: string | null; client_name: string; client_phone: string | null; amount_cents: string | null }

async function jobsBetween(tx: postgres.TransactionSql, start: Date, end: Date, tz: string) {
  const rows = await tx<JobSql[]>`
    select j.id, j.title, j.status, j.scheduled_date, j.technician, j.address, l.name as client_name, l.phone as client_phone, j.amount_cents
    from jobs j join leads l on l.id = j.lead_id
    where j.scheduled_date >= ${start} and j.scheduled_date < ${end} and j.status <> 'Cancelled'
    order by j.scheduled_date, j.id limit 200`
  return rows.map((r) => ({
    id: r.id, title: r.title, status: r.status, scheduledDate: r.scheduled_date.toISOString(), local_time: localDateTime(r.scheduled_date, tz).slice(11, 16),
    technician: r.technician, address: r.address, clientName: r.client_name, clientPhone: r.client_phone, amount: r.amount_cents === null ? null : $(r.amount_cents),
    localDate: localDate(r.scheduled_date, tz),
  }))
}

async function overdueInvoices(tx: postgres.TransactionSql, invoiceToday: string) {
  const [sum] = await tx<{ n: number; cents: string }[]>`
    select count(*)::int as n, coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0)::text as cents
    from invoices where ${overdueCondition(tx, invoiceToday)}`
  const items = await tx<{ id: string; invoice_number: string; client_name: string; balance: string; due_date: string; days: number; job_id: string | null }[]>`
    select i.id, i.invoice_number, l.name as client_name, (i.total_cents - i.amount_paid_cents - i.amount_credited_cents)::text as balance,
           to_char(i.due_date, 'YYYY-MM-DD') as due_date, (${invoiceToday}::date - i.due_date) as days, i.job_id
    from invoices i join leads l on l.id = i.lead_id
    where ${overdueCondition(tx, invoiceToday, 'i')}
    order by i.due_date, i.invoice_number limit ${LIST}`
  return {
    count: sum!.n, total: $(sum!.cents),
    items: items.map((r) => ({ id: r.id, invoiceNumber: r.invoice_number, clientName: r.client_name, balance: $(r.balance), dueDate: r.due_date, days_overdue: r.days, jobId: r.job_id })),
  }
}

async function newLeads(tx: postgres.TransactionSql, since: Date) {
  const [n] = await tx<{ n: number }[]>`select count(*)::int as n from leads where created_at > ${since}`
  const rows = await tx<{ id: string; name: string; status: string; priority: string; service_type: string | null; source: string | null; phone: string | null; created_at: Date }[]>`
    select id, name, status, priority, service_type, source, phone, created_at from leads where created_at > ${since}
    order by created_at desc, id desc limit ${LIST}`
  return {
    since: since.toISOString(), count: n!.n,
    items: rows.map((r) => ({ id: r.id, name: r.name, status: r.status, priority: r.priority, serviceType: r.service_type, source: r.source, phone: r.phone, createdAt: r.created_at.toISOString() })),
  }
}

async function quotesWaiting(tx: postgres.TransactionSql, quoteToday: string, now: Date) {
  const waiting = tx`q.status in ('Sent', 'Viewed') and q.valid_until >= ${quoteToday}::date`
  const [sum] = await tx<{ n: number; cents: string }[]>`select count(*)::int as n, coalesce(sum(total_cents), 0)::text as cents from quotes q where ${waiting}`
  const rows = await tx<{ id: string; quote_number: string; status: string; client_name: string; total_cents: string; sent_at: Date | null; valid_until: string }[]>`
    select q.id, q.quote_number, q.status, l.name as client_name, q.total_cents, q.sent_at, to_char(q.valid_until, 'YYYY-MM-DD') as valid_until
    from quotes q join leads l on l.id = q.lead_id where ${waiting}
    order by q.sent_at nulls last, q.created_at limit ${LIST}`
  return {
    count: sum!.n, total: $(sum!.cents),
    items: rows.map((r) => ({
      id: r.id, quoteNumber: r.quote_number, status: r.status, clientName: r.client_name, total: $(r.total_cents), sentAt: r.sent_at?.toISOString() ?? null,
      validUntil: r.valid_until, days_waiting: r.sent_at ? Math.max(0, Math.floor((now.getTime() - r.sent_at.getTime()) / DAY)) : null,
    })),
  }
}

async function remindersDue(tx: postgres.TransactionSql, before: Date, now: Date) {
  const [n] = await tx<{ n: number }[]>`select count(*)::int as n from reminders where done_at is null and due_at < ${before}`
  const rows = await tx<{ id: string; title: string; due_at: Date; lead_id: string | null; job_id: string | null }[]>`
    select id, title, due_at, lead_id, job_id from reminders where done_at is null and due_at < ${before} order by due_at, id limit ${LIST}`
  return { count: n!.n, items: rows.map((r) => ({ id: r.id, title: r.title, dueAt: r.due_at.toISOString(), overdue: r.due_at < now, leadId: r.lead_id, jobId: r.job_id })) }
}

async function headline(tx: postgres.TransactionSql, now: Date, days: number) {
  const mid = new Date(now.getTime() - days * DAY)
  const start = new Date(now.getTime() - 2 * days * DAY)
  const [r] = await tx<{ rev_now: string; rev_before: string; leads_now: number; leads_before: number; jobs_now: number; jobs_before: number }[]>`
    select
      (select coalesce(sum(amount_cents), 0)::text from payments where received_at >= ${mid} and received_at < ${now}) as rev_now,
      (select coalesce(sum(amount_cents), 0)::text from payments where received_at >= ${start} and received_at < ${mid}) as rev_before,
      (select count(*)::int from leads where created_at >= ${mid} and created_at < ${now}) as leads_now,
      (select count(*)::int from leads where created_at >= ${start} and created_at < ${mid}) as leads_before,
      (select count(*)::int from jobs where completed_at >= ${mid} and completed_at < ${now} and status = 'Completed') as jobs_now,
      (select count(*)::int from jobs where completed_at >= ${start} and completed_at < ${mid} and status = 'Completed') as jobs_before`
  return {
    days,
    revenue: { current: $(r!.rev_now), previous: $(r!.rev_before) },
    new_leads: { current: r!.leads_now, previous: r!.leads_before },
    jobs_completed: { current: r!.jobs_now, previous: r!.jobs_before },
  }
}

export async function dashboard(deps: Deps, principal: Principal, input: Static<typeof DashboardInput>): Promise<Static<typeof DashboardResponse>> {
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const tz = await companyTimeZone(tx)
    const today = localDate(now, tz)
    const tomorrow = addDays(today, 1)
    const startToday = startOfLocalDay(today, tz)
    const startTomorrow = startOfLocalDay(tomorrow, tz)
    const jobs = await jobsBetween(tx, startToday, startOfLocalDay(addDays(today, 2), tz), tz)
    const strip = ({ localDate: _, ...job }: (typeof jobs)[number]) => job
    return {
      as_of: now.toISOString(),
      time_zone: tz,
      today,
      tomorrow,
      jobs_today: jobs.filter((j) => j.localDate === today).map(strip),
      jobs_tomorrow: jobs.filter((j) => j.localDate === tomorrow).map(strip),
      overdue_invoices: await overdueInvoices(tx, today),
      new_leads: await newLeads(tx, new Date(now.getTime() - DAY)),
      quotes_waiting: await quotesWaiting(tx, today, now),
      reminders_due: await remindersDue(tx, startTomorrow, now),
      headline: await headline(tx, now, input.days ?? 7),
    }
  })
}
