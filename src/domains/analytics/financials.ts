// The financial summary (analytics.financials, GET /financials, service://financials): one SQL
// statement in integer cents over payments, invoices, job costs and recurring costs, converted to
// dollars only here at the edge. Overdue is read, never stored: a Sent or Partially Paid invoice
// (not a credit note) whose due date is before the company's local today, exactly as the invoice list reads it.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import type { FinancialsResponse } from './schema.js'
import { companyTimeZone, lookback, presentWindow, type LocalWindow } from './window.js'

interface Totals {
  revenue: string; payments: number; surcharges: string; excess: string
  invoiced: string; invoices: number; credited: string; credit_notes: number
  outstanding: string; outstanding_n: number; overdue: string; overdue_n: number; drafts: string; drafts_n: number
  job_costs: string; recurring: string
  paid_n: number; avg_days: string | null
}

export async function financialTotals(tx: postgres.TransactionSql, w: LocalWindow, invoiceToday: string): Promise<Totals> {
  const [row] = await tx<Totals[]>`
    with pay as (
      select coalesce(sum(amount_cents), 0) as revenue, count(*)::int as payments,
             coalesce(sum(surcharge_cents), 0) as surcharges, coalesce(sum(excess_cents), 0) as excess
      from payments where received_at >= ${w.start} and received_at < ${w.end}
    ), issued as (
      select coalesce(sum(total_cents) filter (where kind <> 'credit_note'), 0) as invoiced,
             (count(*) filter (where kind <> 'credit_note'))::int as invoices,
             coalesce(sum(total_cents) filter (where kind = 'credit_note'), 0) as credited,
             (count(*) filter (where kind = 'credit_note'))::int as credit_notes
      from invoices where issue_date between ${w.from}::date and ${w.to}::date and status <> 'Void'
    ), open as (
      select coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0) as outstanding, count(*)::int as outstanding_n,
             coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents) filter (where due_date < ${invoiceToday}::date), 0) as overdue,
             (count(*) filter (where due_date < ${invoiceToday}::date))::int as overdue_n
      from invoices where status in ('Sent', 'Partially Paid') and kind <> 'credit_note'
    ), drafts as (
      select coalesce(sum(total_cents), 0) as drafts, count(*)::int as drafts_n
      from invoices where status = 'Draft' and kind <> 'credit_note'
    ), costs as (
      select coalesce(sum(amount_cents), 0) as job_costs from job_costs where created_at >= ${w.start} and created_at < ${w.end}
    ), recurring as (
      select coalesce(sum(amount_cents), 0) as recurring from recurring_cost_occurrences(${w.from}::date, ${w.to}::date)
    ), settled as (
      -- Invoices paid in full whose last payment arrived in the window.
      select i.issue_date, max(p.received_at) as last_paid
      from invoices i join payments p on p.invoice_id = i.id
      where i.id in (select invoice_id from payments where received_at >= ${w.start} and received_at < ${w.end})
        and i.status = 'Paid' and i.kind <> 'credit_note'
      group by i.id, i.issue_date
      having max(p.received_at) >= ${w.start} and max(p.received_at) < ${w.end}
    ), days_to_pay as (
      select count(*)::int as paid_n,
             round(avg(((last_paid at time zone ${w.timeZone})::date - issue_date)::numeric), 1)::text as avg_days
      from settled
    )
    select pay.*, issued.*, open.*, drafts.*, costs.*, recurring.*, days_to_pay.*
    from pay, issued, open, drafts, costs, recurring, days_to_pay`
  return row!
}

export function presentFinancials(t: Totals, w: LocalWindow, days: number, now: Date): Static<typeof FinancialsResponse> {
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
  return presentFinancials(await financialTotals(tx, w, w.to), w, days, now) // w.to: the company's today
}

export async function getFinancials(deps: Deps, principal: Principal, input: { days?: number }) {
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, (tx) => readFinancials(tx, now, input.days ?? 30))
}
