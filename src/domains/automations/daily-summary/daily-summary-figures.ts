// The figures of one local day for workflows.daily_summary and the owner's morning email: what
// happened that day (leads, jobs, quotes, payments, in the company's time zone) and what is open
// now (quotes awaiting a reply, overdue invoices, reminders due by the end of that day, actions
// waiting for approval). Overdue follows analytics.dashboard: local due dates, as invoices read.
import type postgres from 'postgres'
import Type, { type Static } from 'typebox'
import { centsToDollars, formatDollars } from '../../../core/money.js'
import { addDays } from '../../../core/period.js'
import { Dollars, Nullable } from '../../../core/schema-helpers.js'
import { localDateTime, startOfLocalDay, localDate } from '../../../core/zoned-time.js'
import { countDayActivity, countOpenItems, listDayJobs } from './queries.js'

const Count = (description: string) => Type.Integer({ minimum: 0, description })
const Money = (description: string) => Dollars('incl', { description })
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
  const r = await countDayActivity(tx, start, end)
  const jobs = await listDayJobs(tx, start, end)
  return {
    date, new_leads: r!.leads, jobs_scheduled: r!.scheduled, jobs_completed: r!.completed, quotes_sent: r!.sent, quotes_accepted: r!.accepted,
    payments_received: $(r!.paid),
    jobs: jobs.map((j) => ({ id: j.id, title: j.title, status: j.status, local_time: localDateTime(j.scheduled_date, timeZone).slice(11, 16), client_name: j.client_name, technician: j.technician })),
  }
}

export async function openFigures(tx: postgres.TransactionSql, date: string, timeZone: string, now: Date): Promise<OpenFigures> {
  const today = localDate(now, timeZone)
  const endOfDay = startOfLocalDay(addDays(date, 1), timeZone)
  const r = await countOpenItems(tx, today, endOfDay)
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
