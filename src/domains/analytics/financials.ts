// The financial summary (analytics.financials, GET /financials, service://financials): one SQL
// statement (queries/financials.ts) in integer cents over payments, invoices, job costs and recurring costs, converted to
// dollars only here at the edge. Overdue is read, never stored: a Sent or Partially Paid invoice
// (not a credit note) whose due date is before the company's local today, exactly as the invoice list reads it.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { findFinancialTotals, type FinancialTotals } from './queries/financials.js'
import type { FinancialsResponse } from './schema.js'
import { companyTimeZone, lookback, presentWindow, type LocalWindow } from './window.js'

export function presentFinancials(t: FinancialTotals, w: LocalWindow, days: number, now: Date): Static<typeof FinancialsResponse> {
  const $ = (cents: string | number) => centsToDollars(Number(cents))
  const cashIn = Number(t.revenue) + Number(t.surcharges) + Number(t.excess)
  const cashOut = Number(t.job_costs) + Number(t.recurring)
  return {
    period: { ...presentWindow(w), days },
    as_of: now.toISOString(),
    currency: 'AUD',
    revenue: $(t.revenue),
    payments_received: t.payments,
    invoiced: $(t.invoiced),
    invoices_issued: t.invoices,
    credited: $(t.credited),
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

export async function readFinancials(tx: postgres.TransactionSql, now: Date, days: number) {
  const w = lookback(now, days, await companyTimeZone(tx))
  return presentFinancials(await findFinancialTotals(tx, w, w.to), w, days, now) // w.to: the company's today
}

export async function getFinancials(deps: Deps, principal: Principal, input: { days?: number }) {
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, (tx) => readFinancials(tx, now, input.days ?? 30))
}
