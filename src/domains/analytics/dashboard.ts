// analytics.dashboard: what an owner reads first thing. Today and tomorrow are local dates in the
// company's zone; "new" leads are those of the last 24 hours (the same figure whenever it is read,
// unlike "since midnight" at 7 am); overdue reads as the invoice list reads it (local due dates).
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate, localDateTime, startOfLocalDay } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import {
  countLeadsSince, countRemindersDueBefore, findHeadline, findOverdueInvoiceTotal, findWaitingQuoteTotal,
  listJobsBetween, listLeadsSince, listOverdueInvoices, listRemindersDueBefore, listWaitingQuotes,
} from './queries/dashboard.js'
import type { DashboardInput, DashboardResponse } from './schema.js'
import { companyTimeZone } from './window.js'

const LIST = 20
const DAY = 86_400_000
const $ = (cents: string | number) => centsToDollars(Number(cents))

async function jobsBetween(tx: postgres.TransactionSql, start: Date, end: Date, tz: string) {
  const rows = await listJobsBetween(tx, start, end)
  return rows.flatMap((r) => {
    const booked = localDate(r.scheduled_date, tz)
    // A job done before its booked day belongs to the day it was done (the headline counts it there),
    // not to the day it was booked for.
    if (r.completed_at !== null && localDate(r.completed_at, tz) < booked) return []
    return [{
      id: r.id, title: r.title, status: r.status, scheduledDate: r.scheduled_date.toISOString(), local_time: localDateTime(r.scheduled_date, tz).slice(11, 16),
      technician: r.technician, address: r.address, clientName: r.client_name, clientPhone: r.client_phone, amount: r.amount_cents === null ? null : $(r.amount_cents),
      localDate: booked,
    }]
  })
}

async function overdueInvoices(tx: postgres.TransactionSql, invoiceToday: string) {
  const sum = await findOverdueInvoiceTotal(tx, invoiceToday)
  const items = await listOverdueInvoices(tx, invoiceToday, LIST)
  return {
    count: sum.n, total: $(sum.cents),
    items: items.map((r) => ({ id: r.id, invoiceNumber: r.invoice_number, clientName: r.client_name, balance: $(r.balance), dueDate: r.due_date, days_overdue: r.days, jobId: r.job_id })),
  }
}

async function newLeads(tx: postgres.TransactionSql, since: Date) {
  const count = await countLeadsSince(tx, since)
  const rows = await listLeadsSince(tx, since, LIST)
  return {
    since: since.toISOString(), count,
    items: rows.map((r) => ({ id: r.id, name: r.name, status: r.status, priority: r.priority, serviceType: r.service_type, source: r.source, phone: r.phone, createdAt: r.created_at.toISOString() })),
  }
}

async function quotesWaiting(tx: postgres.TransactionSql, quoteToday: string, now: Date) {
  const sum = await findWaitingQuoteTotal(tx, quoteToday)
  const rows = await listWaitingQuotes(tx, quoteToday, LIST)
  return {
    count: sum.n, total: $(sum.cents),
    items: rows.map((r) => ({
      id: r.id, quoteNumber: r.quote_number, status: r.status, clientName: r.client_name, total: $(r.total_cents), sentAt: r.sent_at?.toISOString() ?? null,
      validUntil: r.valid_until, days_waiting: r.sent_at ? Math.max(0, Math.floor((now.getTime() - r.sent_at.getTime()) / DAY)) : null,
    })),
  }
}

async function remindersDue(tx: postgres.TransactionSql, before: Date, now: Date) {
  const count = await countRemindersDueBefore(tx, before)
  const rows = await listRemindersDueBefore(tx, before, LIST)
  return { count, items: rows.map((r) => ({ id: r.id, title: r.title, dueAt: r.due_at.toISOString(), overdue: r.due_at < now, leadId: r.lead_id, jobId: r.job_id })) }
}

async function headline(tx: postgres.TransactionSql, now: Date, days: number) {
  const mid = new Date(now.getTime() - days * DAY)
  const start = new Date(now.getTime() - 2 * days * DAY)
  const r = await findHeadline(tx, start, mid, now)
  return {
    days,
    revenue: { current: $(r.rev_now), previous: $(r.rev_before) },
    new_leads: { current: r.leads_now, previous: r.leads_before },
    jobs_completed: { current: r.jobs_now, previous: r.jobs_before },
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
