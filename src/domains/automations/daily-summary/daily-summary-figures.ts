// The figures of one local day for workflows.daily_summary and the owner's morning email: what
// happened that day (leads, jobs, quotes, payments, in the company's time zone) and what is open
// now (quotes awaiting a reply, overdue invoices, reminders due by the end of that day, actions
// waiting for approval). Overdue follows analytics.dashboard: local due dates, as invoices read.
import type postgres from 'postgres'
import { overdueCondition } from '../../invoicing/queries.js'
import Type, { type Static } from 'typebox'
import { centsToDollars, formatDollars } from '../../../core/money.js'
import { addDays } from '../../../core/period.js'
import { Dollars, Nullable } from '../../../core/schema-helpers.js'
import { localDateTime, startOfLocalDay, localDate } from '../../../core/zoned-time.js'

const Count = (description: string) => Type.Integer({ minimum: 0, description })
const Money = (description: string) => Dollars({ description: `${description} (AUD dollars incl. GST)` })
const $ = (cents: string | number) => centsToDollars(Number(cents))

export const DayFiguresSchema = Type.Object({
  date: Type.String({ format: 'date', description: "Local date (the company's time zone)" }),
  new_leads: Count('Leads created that day'),
  jobs_scheduled: Count('Jobs booked that day (not Cancelled)'),
  jobs_completed: Count('Jobs completed that day'),
  quotes_sent: Count('Quotes first sent that day'),
  quotes_accepted: Count('Quotes accepted that day'),
  payments_received: Money('Payments received that day'),
  jobs: Type.Array(Type.Object({
    id: Type.String(), title: Type.String(), status: Type.String(), local_time: Type.String({ description: 'HH:mm on the local clock' }),
    client_name: Type.String(), technician: Nullable(Type.String()),
  }), { description: 'Jobs booked that day, earliest first, at most 20' }),
})

export const OpenFiguresSchema = Type.Object({
  quotes_awaiting_reply: Type.Object({ count: Count('Quotes Sent or Viewed and still valid'), total: Money('Their total') }),
  overdue_invoices: Type.Object({ count: Count('Invoices past their due date and not paid'), balance: Money('Still owed on them') }),
  reminders_due: Count('Reminders not done and due by the end of the day summarised'),
  pending_approvals: Count('Actions waiting in workflows.pending_actions'),
})

export type DayFigures = Static<typeof DayFiguresSchema>
export type OpenFigures = Static<typeof OpenFiguresSchema>

export async function dayFigures(tx: postgres.TransactionSql, date: string, timeZone: string): Promise<DayFigures> {
  const start = startOfLocalDay(date, timeZone)
  const end = startOfLocalDay(addDays(date, 1), timeZone)
  const [r] = await tx<{ leads: number; scheduled: number; completed: number; sent: number; accepted: number; paid: string }[]>`
    select
      (select count(*)::int from leads where created_at >= ${start} and created_at < ${end}) as leads,
      (select count(*)::int from jobs where scheduled_date >= ${start} and scheduled_date < ${end} and status <> 'Cancelled') as scheduled,
      (select count(*)::int from jobs where completed_at >= ${start} and completed_at < ${end} and status = 'Completed') as completed,
      (select count(*)::int from quotes where sent_at >= ${start} and sent_at < ${end}) as sent,
      (select count(*)::int from quotes where accepted_at >= ${start} and accepted_at < ${end}) as accepted,
      (select coalesce(sum(amount_cents), 0)::text from payments where received_at >= ${start} and received_at < ${end}) as paid`
  const jobs = await tx<{ id: string; title: string; status: string; scheduled_date: Date; client_name: string; technician: string | null }[]>`
    select j.id, j.title, j.status, j.scheduled_date, l.name as client_name, j.technician
    from jobs j join leads l on l.id = j.lead_id
    where j.scheduled_date >= ${start} and j.scheduled_date < ${end} and j.status <> 'Cancelled'
    order by j.scheduled_date, j.id limit 20`
  return {
    date, new_leads: r!.leads, jobs_scheduled: r!.scheduled, jobs_completed: r!.completed, quotes_sent: r!.sent, quotes_accepted: r!.accepted,
    payments_received: $(r!.paid),
    jobs: jobs.map((j) => ({ id: j.id, title: j.title, status: j.status, local_time: localDateTime(j.scheduled_date, timeZone).slice(11, 16), client_name: j.client_name, technician: j.technician })),
  }
}

export async function openFigures(tx: postgres.TransactionSql, date: string, timeZone: string, now: Date): Promise<OpenFigures> {
  const today = localDate(now, timeZone)
  const endOfDay = startOfLocalDay(addDays(date, 1), timeZone)
  const [r] = await tx<{ q: number; q_total: string; o: number; o_balance: string; rem: number; pend: number }[]>`
    select
      (select count(*)::int from quotes where status in ('Sent', 'Viewed') and valid_until >= ${today}::date) as q,
      (select coalesce(sum(total_cents), 0)::text from quotes where status in ('Sent', 'Viewed') and valid_until >= ${today}::date) as q_total,
      (select count(*)::int from invoices where ${overdueCondition(tx, today)}) as o,
      (select coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0)::text from invoices
        where ${overdueCondition(tx, today)}) as o_balance,
      (select count(*)::int from reminders where done_at is null and due_at < ${endOfDay}) as rem,
      (select count(*)::int from pending_actions where status = 'pending') as pend`
  return {
    quotes_awaiting_reply: { count: r!.q, total: $(r!.q_total) },
    overdue_invoices: { count: r!.o, balance: $(r!.o_balance) },
    reminders_due: r!.rem,
    pending_approvals: r!.pend,
  }
}

const money = formatDollars

function dayLines(label: string, d: DayFigures): string[] {
  return [
    `${label} (${d.date}): ${d.new_leads} new lead(s), ${d.jobs_scheduled} job(s) booked, ${d.jobs_completed} completed, ${d.quotes_sent} quote(s) sent, ${d.quotes_accepted} accepted, ${money(d.payments_received)} received.`,
    ...d.jobs.map((j) => `  ${j.local_time} ${j.title} for ${j.client_name}${j.technician ? ` (${j.technician})` : ''}`),
  ]
}

/** The email's plain text: yesterday, today, and what is open. */
export function summaryText(business: string, yesterday: DayFigures, today: DayFigures, open: OpenFigures): string {
  return [
    `Daily summary for ${business}`,
    '',
    ...dayLines('Yesterday', yesterday),
    ...dayLines('Today', today),
    '',
    `Open now: ${open.quotes_awaiting_reply.count} quote(s) awaiting a reply (${money(open.quotes_awaiting_reply.total)}), ` +
      `${open.overdue_invoices.count} overdue invoice(s) (${money(open.overdue_invoices.balance)} owed), ${open.reminders_due} reminder(s) due today, ` +
      `${open.pending_approvals} action(s) waiting for approval.`,
  ].join('\n')
}
