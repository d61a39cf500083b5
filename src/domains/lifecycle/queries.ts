// The company's own figures the lifecycle and scaling tools read (issue 26: a stage or a score uses
// the company's data where it has some). One statement through the tenant transaction from
// withTenant(); RLS scopes the rows. Amounts are integer cents as text (sums of bigint).
import type postgres from 'postgres'

export interface CompanyFigures {
  business_name: string
  trade_type: string | null
  state: string | null
  /** The earliest record of any kind (account, lead, invoice, payment): how long the records go back. */
  first_record: Date
  /** Payments received, ex GST (each payment's GST share taken out, as analytics.financials does). */
  revenue_12m: string
  revenue_prev_12m: string
  /** Payments received in the last 12 months as paid, incl. GST. */
  received_12m: string
  payments_12m: number
  completed_jobs_12m: number
  completed_jobs_invoiced_12m: number
  leads_12m: number
  won_12m: number
  open_leads: number
  scheduled_jobs_ahead: number
  job_costs_12m: string
  recurring_costs_12m: string
  outstanding: string
  overdue: string
}

export interface FiguresWindow {
  /** Timestamps: the last 12 months are [yearAgo, now), the 12 before [twoYearsAgo, yearAgo). */
  now: Date
  yearAgo: Date
  twoYearsAgo: Date
  /** Local dates (the company's) for date columns. */
  today: string
  yearAgoDate: string
}

export async function readCompanyFigures(tx: postgres.TransactionSql, w: FiguresWindow): Promise<CompanyFigures> {
  const [row] = await tx<CompanyFigures[]>`
    with pay as (
      select p.received_at, p.amount_cents as amount,
             p.amount_cents - round(p.amount_cents::numeric * i.gst_cents / nullif(i.total_cents, 0))::bigint as ex_gst
      from payments p join invoices i on i.id = p.invoice_id
      where p.received_at >= ${w.twoYearsAgo} and p.received_at < ${w.now}
    ), won as (
      select distinct lead_id from quotes where status = 'Accepted'
    ), done as (
      select j.id, exists (select 1 from invoices f where f.job_id = j.id and f.status <> 'Void') as invoiced
      from jobs j where j.status = 'Completed' and coalesce(j.completed_at, j.updated_at) >= ${w.yearAgo}
    )
    select c.business_name, c.trade_type, c.state,
      least(c.created_at, (select min(created_at) from leads), (select min(received_at) from payments),
            (select min(issue_date)::timestamptz from invoices)) as first_record,
      (select coalesce(sum(ex_gst) filter (where received_at >= ${w.yearAgo}), 0) from pay)::text as revenue_12m,
      (select coalesce(sum(ex_gst) filter (where received_at < ${w.yearAgo}), 0) from pay)::text as revenue_prev_12m,
      (select coalesce(sum(amount) filter (where received_at >= ${w.yearAgo}), 0) from pay)::text as received_12m,
      (select count(*) filter (where received_at >= ${w.yearAgo}) from pay)::int as payments_12m,
      (select count(*) from done)::int as completed_jobs_12m,
      (select count(*) filter (where invoiced) from done)::int as completed_jobs_invoiced_12m,
      (select count(*) from leads where created_at >= ${w.yearAgo})::int as leads_12m,
      (select count(*) from leads l where l.created_at >= ${w.yearAgo}
         and (l.status = 'Won' or l.id in (select lead_id from won)))::int as won_12m,
      (select count(*) from leads where status in ('New', 'Contacted', 'Qualified'))::int as open_leads,
      (select count(*) from jobs where status = 'Scheduled' and scheduled_date >= ${w.now})::int as scheduled_jobs_ahead,
      (select coalesce(sum(amount_cents), 0) from job_costs where created_at >= ${w.yearAgo})::text as job_costs_12m,
      (select coalesce(sum(amount_cents), 0) from recurring_cost_occurrences(${w.yearAgoDate}::date, ${w.today}::date))::text as recurring_costs_12m,
      (select coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0) from invoices
         where status in ('Sent', 'Partially Paid') and kind <> 'credit_note')::text as outstanding,
      (select coalesce(sum(total_cents - amount_paid_cents - amount_credited_cents), 0) from invoices
         where status in ('Sent', 'Partially Paid') and kind <> 'credit_note' and due_date < ${w.today}::date)::text as overdue
    from companies c`
  return row!
}
