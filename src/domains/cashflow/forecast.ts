// cashflow.forecast: the next 30 local days in weekly buckets. Every item is computed in SQL in
// integer cents with the weight it was given, and listed in its bucket as the source of the figure:
// - invoices owed (Draft, Sent, Partially Paid; balance after payments and credit notes) on their
//   due date, or this week when already overdue, weighted by the client's history: the share of the
//   client's other invoices that are Paid, among those Paid or past due (no history: DEFAULT_WEIGHT);
// - jobs booked (Scheduled, In Progress) or Completed without a final invoice: the job amount not yet
//   invoiced (deposits and claims, net of credits, taken off), expected the job's date (or today)
//   plus the company's payment terms, with the same client weight;
// - recurring costs on each date they fall due, in full.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars, parseDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { companyTimeZone } from '../analytics/window.js'
import type { ForecastInput, ForecastResponse, SourceSchema } from './schema.js'

export const DEFAULT_WEIGHT = 0.8
const DAYS = 30

interface ItemRow {
  type: 'invoice' | 'job' | 'recurring_cost'; id: string; label: string; date: string; amount: string; expected: string
  paid: number; history: number; week: number; detail: string | null
}

/** The client's record: how many of its other invoices are Paid, of those Paid or past due. */
const history = (tx: postgres.TransactionSql, self: postgres.Fragment, today: string) => tx`
  cross join lateral (
    select (count(*) filter (where h.status = 'Paid'))::int as paid, count(*)::int as history
    from invoices h
    where h.lead_id = l.id and ${self} and h.kind <> 'credit_note' and h.status <> 'Void' and (h.status = 'Paid' or h.due_date < ${today}::date)
  ) hist`

const weighted = (tx: postgres.TransactionSql, amount: postgres.Fragment) =>
  tx`round(case when hist.history = 0 then ${amount} * ${DEFAULT_WEIGHT}::numeric else ${amount}::numeric * hist.paid / hist.history end)::bigint::text`

async function invoiceItems(tx: postgres.TransactionSql, today: string, last: string) {
  const balance = tx`(i.total_cents - i.amount_paid_cents - i.amount_credited_cents)`
  return tx<ItemRow[]>`
    select 'invoice' as type, i.id, i.invoice_number || ' · ' || l.name as label, to_char(greatest(i.due_date, ${today}::date), 'YYYY-MM-DD') as date,
           ${balance}::text as amount, ${weighted(tx, balance)} as expected, hist.paid, hist.history,
           (greatest(i.due_date, ${today}::date) - ${today}::date) / 7 + 1 as week,
           i.status || case when i.due_date < ${today}::date then ', overdue since ' || to_char(i.due_date, 'YYYY-MM-DD') else ', due ' || to_char(i.due_date, 'YYYY-MM-DD') end as detail
    from invoices i join leads l on l.id = i.lead_id
    ${history(tx, tx`h.id <> i.id`, today)}
    where i.status in ('Draft', 'Sent', 'Partially Paid') and i.kind <> 'credit_note' and i.due_date <= ${last}::date and ${balance} > 0
    order by i.due_date, i.invoice_number`
}

async function jobItems(tx: postgres.TransactionSql, today: string, last: string, tz: string, terms: number) {
  const localDay = tx`greatest(coalesce(case when j.status = 'Completed' then null else (j.scheduled_date at time zone ${tz})::date end, ${today}::date), ${today}::date)`
  const invoiced = tx`(select coalesce(sum(i.total_cents - i.amount_credited_cents), 0) from invoices i
                       where (i.job_id = j.id or (j.quote_id is not null and i.quote_id = j.quote_id and i.job_id is null))
                         and i.kind <> 'credit_note' and i.status <> 'Void')`
  const remaining = tx`(j.amount_cents - ${invoiced})`
  return tx<ItemRow[]>`
    select * from (
      select 'job' as type, j.id, j.title || ' · ' || l.name as label, to_char(${localDay} + ${terms}::int, 'YYYY-MM-DD') as date,
             ${remaining}::text as amount, ${weighted(tx, remaining)} as expected, hist.paid, hist.history,
             (${localDay} + ${terms}::int - ${today}::date) / 7 + 1 as week,
             j.status || case when j.status = 'Completed' then ', not yet invoiced' else ' for ' || to_char((j.scheduled_date at time zone ${tz})::date, 'YYYY-MM-DD') end as detail,
             ${localDay} + ${terms}::int as on_date, ${remaining} as left_cents
      from jobs j join leads l on l.id = j.lead_id
      ${history(tx, tx`true`, today)}
      where j.status in ('Scheduled', 'In Progress', 'Completed') and j.amount_cents > 0
        and (j.status = 'Completed' or j.scheduled_date is not null)
        and not exists (select 1 from invoices f where f.job_id = j.id and f.kind = 'final' and f.status <> 'Void')
    ) x where x.on_date <= ${last}::date and x.left_cents > 0
    order by x.on_date, x.id`
}

async function costItems(tx: postgres.TransactionSql, today: string, last: string) {
  return tx<ItemRow[]>`
    select 'recurring_cost' as type, cost_id as id, name as label, to_char(on_date, 'YYYY-MM-DD') as date, amount_cents::text as amount,
           amount_cents::text as expected, 0 as paid, 0 as history, (on_date - ${today}::date) / 7 + 1 as week, frequency as detail
    from recurring_cost_occurrences(${today}::date, ${last}::date) order by on_date, name`
}

function basis(r: ItemRow, terms: number): { weight: number; basis: string } {
  if (r.type === 'recurring_cost') return { weight: 1, basis: `${r.detail} recurring cost, in full` }
  const client = r.history === 0
    ? `no invoice history for this client: default weight ${DEFAULT_WEIGHT}`
    : `client paid ${r.paid} of ${r.history} past invoices`
  const when = r.type === 'invoice' ? r.detail! : `${r.detail}; expected ${terms} days (payment terms) after ${r.detail!.includes('not yet invoiced') ? 'today' : 'the job'}`
  const weight = r.history === 0 ? DEFAULT_WEIGHT : Math.round((r.paid / r.history) * 10_000) / 10_000
  return { weight, basis: `${when}; ${client}` }
}

export async function forecast(deps: Deps, principal: Principal, input: Static<typeof ForecastInput>): Promise<Static<typeof ForecastResponse>> {
  const opening = input.opening_balance === undefined ? null : parseDollars(input.opening_balance, 'opening_balance')
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const tz = await companyTimeZone(tx)
    const today = localDate(now, tz)
    const last = addDays(today, DAYS - 1)
    const [settings] = await tx<{ days: number }[]>`select payment_terms_days as days from invoicing_settings`
    const terms = settings?.days ?? 14
    const items = [
      ...await invoiceItems(tx, today, last),
      ...await jobItems(tx, today, last, tz, terms),
      ...await costItems(tx, today, last),
    ]
    const weeks = Array.from({ length: Math.ceil(DAYS / 7) }, (_, k) => ({
      week: k + 1, from: addDays(today, 7 * k), to: addDays(today, Math.min(7 * k + 6, DAYS - 1)),
      inv: 0, jobs: 0, out: 0, sources: [] as Static<typeof SourceSchema>[],
    }))
    for (const r of items) {
      const bucket = weeks[r.week - 1]!
      const expected = Number(r.expected)
      if (r.type === 'invoice') bucket.inv += expected
      else if (r.type === 'job') bucket.jobs += expected
      else bucket.out += expected
      bucket.sources.push({ type: r.type, id: r.id, label: r.label, date: r.date, amount: centsToDollars(Number(r.amount)), expected: centsToDollars(expected), ...basis(r, terms) })
    }
    let balance = opening
    const out = weeks.map((b) => {
      const net = b.inv + b.jobs - b.out
      if (balance !== null) balance += net
      return {
        week: b.week, from: b.from, to: b.to, expected_in: centsToDollars(b.inv + b.jobs), from_invoices: centsToDollars(b.inv), from_jobs: centsToDollars(b.jobs),
        expected_out: centsToDollars(b.out), net: centsToDollars(net), closing_balance: balance === null ? null : centsToDollars(balance), sources: b.sources,
      }
    })
    const sum = (f: (b: (typeof weeks)[number]) => number) => weeks.reduce((a, b) => a + f(b), 0)
    const totalIn = sum((b) => b.inv + b.jobs)
    const totalOut = sum((b) => b.out)
    return {
      as_of: now.toISOString(), time_zone: tz, from: today, to: last, currency: 'AUD' as const,
      opening_balance: opening === null ? null : centsToDollars(opening), default_weight: DEFAULT_WEIGHT, payment_terms_days: terms,
      weeks: out,
      totals: {
        expected_in: centsToDollars(totalIn), from_invoices: centsToDollars(sum((b) => b.inv)), from_jobs: centsToDollars(sum((b) => b.jobs)),
        expected_out: centsToDollars(totalOut), net: centsToDollars(totalIn - totalOut),
        closing_balance: opening === null ? null : centsToDollars(opening + totalIn - totalOut),
      },
    }
  })
}
