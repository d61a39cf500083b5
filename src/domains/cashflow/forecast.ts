// cashflow.forecast: the next 30 local days in weekly buckets. Every item is computed in SQL in
// integer cents with the weight it was given, and listed in its bucket as the source of the figure:
// - invoices owed (Draft, Sent, Partially Paid; balance after payments and credit notes) on their
//   due date, or this week when already overdue, weighted by the client's history: the share of the
//   client's other invoices that are Paid, among those Paid or past due (no history: DEFAULT_WEIGHT);
// - jobs booked (Scheduled, In Progress) or Completed without a final invoice: the job amount not yet
//   invoiced (deposits and claims, net of credits, taken off), expected the job's date (or today)
//   plus the company's payment terms, with the same client weight;
// - recurring costs on each date they fall due, in full.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars, parseDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { companyTimeZone } from '../analytics/window.js'
import { findPaymentTermsDays, listInvoiceItems, listJobItems, listRecurringCostItems, type ForecastItemRow } from './queries.js'
import type { ForecastInput, ForecastResponse, SourceSchema } from './schema.js'

export const DEFAULT_WEIGHT = 0.8
const DAYS = 30

function basis(r: ForecastItemRow, terms: number): { weight: number; basis: string } {
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
    const terms = await findPaymentTermsDays(tx) ?? 14
    const items = [
      ...await listInvoiceItems(tx, today, last, DEFAULT_WEIGHT),
      ...await listJobItems(tx, today, last, tz, terms, DEFAULT_WEIGHT),
      ...await listRecurringCostItems(tx, today, last),
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
