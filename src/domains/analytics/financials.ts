// The financial summary (analytics.financials, GET /financials, service://financials): one SQL
// statement (queries/financials.ts) in integer cents over payments, invoices, job costs and recurring costs, converted to
// dollars only here at the edge. Overdue is read, never stored: a Sent or Partially Paid invoice
// (not a credit note) whose due date is before the company's local today, exactly as the invoice list reads it.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { validationError } from '../../core/errors.js'
import { centsToDollars } from '../../core/money.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { findFinancialTotals, type FinancialTotals } from './queries/financials.js'
import type { FinancialsResponse } from './schema.js'
import { calendarWindow, companyTimeZone, daysBetween, lookback, presentWindow, type CalendarPeriod, type LocalWindow } from './window.js'

export function presentFinancials(t: FinancialTotals, w: LocalWindow, calendar: CalendarPeriod | null, now: Date): Static<typeof FinancialsResponse> {
  const $ = (cents: string | number) => centsToDollars(Number(cents))
  const cashIn = Number(t.revenue) + Number(t.surcharges) + Number(t.excess)
  const cashOut = Number(t.job_costs) + Number(t.recurring)
  return {
    period: { ...presentWindow(w), days: daysBetween(w.from, w.to) + 1, calendar },
    as_of: now.toISOString(),
    currency: 'AUD',
    revenue: $(t.revenue),
    revenue_ex_gst: $(Number(t.revenue) - Number(t.revenue_gst)),
    gst_collected: $(t.revenue_gst),
    payments_received: t.payments,
    invoiced: $(t.invoiced),
    invoices_issued: t.invoices,
    credited: $(t.credited),
    credited_gst: $(t.credited_gst),
    credit_notes_issued: t.credit_notes,
    net_invoiced: $(Number(t.invoiced) - Number(t.credited)),
    outstanding: $(t.outstanding),
    outstanding_count: t.outstanding_n,
    overdue: $(t.overdue),
    overdue_count: t.overdue_n,
    unsent_drafts: $(t.drafts),
    unsent_draft_count: t.drafts_n,
    average_days_to_pay: t.avg_days === null ? null : Number(t.avg_days),
    invoices_paid: t.paid_n,
    cash_flow: {
      in: $(cashIn), out: $(cashOut), net: $(cashIn - cashOut),
      surcharges: $(t.surcharges), excess_to_refund: $(t.excess), job_costs: $(t.job_costs), recurring_costs: $(t.recurring),
    },
  }
}

/** The window: the last `days` local days, or a calendar period, in the company's zone. */
export type FinancialsWindow = { days: number } | { period: CalendarPeriod }

export async function readFinancials(tx: postgres.TransactionSql, now: Date, asked: FinancialsWindow) {
  const zone = await companyTimeZone(tx)
  const w = 'period' in asked ? calendarWindow(now, asked.period, zone) : lookback(now, asked.days, zone)
  // Outstanding and overdue are as of now, so overdue reads the company's today, not the window's end.
  return presentFinancials(await findFinancialTotals(tx, w, localDate(now, zone)), w, 'period' in asked ? asked.period : null, now)
}

export async function getFinancials(deps: Deps, principal: Principal, input: { days?: number; period?: CalendarPeriod }) {
  const now = deps.clock.now()
  const asked: FinancialsWindow = input.period ? { period: input.period } : { days: input.days ?? 30 }
  return withTenant(deps.db, principal.companyId, (tx) => readFinancials(tx, now, asked))
}

/** days and period are two ways to give the window: both at once is refused before the default fills days. */
export function refuseDaysWithPeriod(raw: Record<string, unknown>) {
  if (raw.days !== undefined && raw.period !== undefined) {
    throw validationError(['period: give days (a lookback) or period (a calendar period), not both'])
  }
}
