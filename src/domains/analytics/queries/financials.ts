// Analytics SQL for the financial summary and service://financials. Every function takes the tenant
// transaction from withTenant(); RLS scopes the rows. Amounts are integer cents (as text for sums).
import type postgres from 'postgres'
import { overdueCondition } from '../../invoicing/queries.js'
import type { LocalWindow } from '../window.js'

export interface FinancialTotals {
  revenue: string; revenue_gst: string; payments: number; surcharges: string; excess: string
  invoiced: string; invoices: number; credited: string; credited_gst: string; credit_notes: number
  outstanding: string; outstanding_n: number; overdue: string; overdue_n: number; drafts: string; drafts_n: number
  job_costs: string; recurring: string
  paid_n: number; avg_days: string | null
}

/** One statement: payments, invoices issued, open and draft invoices, job and recurring costs, days to pay. */
export async function findFinancialTotals(tx: postgres.TransactionSql, w: LocalWindow, invoiceToday: string): Promise<FinancialTotals> {
  const [row] = await tx<FinancialTotals[]>`
    with pay as (
      -- The GST in a payment is its invoice's share: amount x GST / total, rounded half up to the
      -- cent (numeric round() rounds half away from zero; amounts are positive).
      select coalesce(sum(p.amount_cents), 0) as revenue, count(*)::int as payments,
             coalesce(sum(round(p.amount_cents::numeric * i.gst_cents / nullif(i.total_cents, 0))), 0)::bigint as revenue_gst,
             coalesce(sum(p.surcharge_cents), 0) as surcharges, coalesce(sum(p.excess_cents), 0) as excess
      from payments p join invoices i on i.id = p.invoice_id
      where p.received_at >= ${w.start} and p.received_at < ${w.end}
    ), issued as (
      select coalesce(sum(total_cents) filter (where kind <> 'credit_note'), 0) as invoiced,
             (count(*) filter (where kind <> 'credit_note'))::int as invoices,
             coalesce(sum(total_cents) filter (where kind = 'credit_note'), 0) as credited,
             coalesce(sum(gst_cents) filter (where kind = 'credit_note'), 0) as credited_gst,
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

export interface InvoiceStatusRow { status: string; n: number; total: string; balance: string }

/** Every invoice (not credit notes) by the status the invoice list shows, Overdue read from today. */
export async function listInvoiceStatus(tx: postgres.TransactionSql, today: string): Promise<InvoiceStatusRow[]> {
  const rows = await tx<InvoiceStatusRow[]>`
    select case when ${overdueCondition(tx, today)} then 'Overdue' else status end as status,
           count(*)::int as n, sum(total_cents)::text as total,
           sum(case when status = 'Void' then 0 else total_cents - amount_paid_cents - amount_credited_cents end)::text as balance
    from invoices where kind <> 'credit_note' group by 1 order by 1`
  return rows
}
