// Operator SQL. The company list and the switch go through SECURITY DEFINER functions (migration
// 033) that return ids and names only; every tenant figure is read inside withTenant(), one company
// per transaction, so RLS still admits a single company's rows at a time.
import type postgres from 'postgres'
import type { Tx } from '../../db/sql.js'

export interface OperatorCompany {
  company_id: string
  business_name: string
  time_zone: string
  role: 'owner' | 'member'
  own: boolean
  active: boolean
}

export function operatorCompanies(sql: Tx, keyId: string): Promise<OperatorCompany[]> {
  return sql<OperatorCompany[]>`select * from operator_companies(${keyId})`
}

export async function switchKeyCompany(sql: Tx, keyId: string, companyId: string, at: Date): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`select switch_key_company(${keyId}, ${companyId}, ${at}) as ok`
  return row!.ok
}

export async function grantMembership(sql: Tx, companyId: string, email: string): Promise<string | null> {
  const [row] = await sql<{ user_id: string | null }[]>`select grant_membership(${companyId}, ${email}) as user_id`
  return row!.user_id
}

export interface CompanyFigures {
  plan_slug: string
  subscription_status: string
  leads_this_month: number
  open_quotes: number
  jobs_this_week: number
  outstanding_invoices: number
  outstanding_cents: number
  overdue_invoices: number
  overdue_cents: number
}

/**
 * One company's headline figures, in its own time zone: this month and this week (Monday first)
 * start at local midnight. Outstanding is Sent or Partially Paid with a balance; overdue is that
 * past its due date, local today.
 */
export async function companyFigures(tx: postgres.TransactionSql, timeZone: string, at: Date): Promise<CompanyFigures> {
  const [row] = await tx<CompanyFigures[]>`
    with local as (select (${at}::timestamptz at time zone ${timeZone}) as now),
    bounds as (
      select date_trunc('month', now) at time zone ${timeZone} as month_start,
             date_trunc('week', now) at time zone ${timeZone} as week_start,
             (date_trunc('week', now) + interval '7 days') at time zone ${timeZone} as week_end,
             now::date as today
        from local)
    select
      (select plan_slug from subscriptions) as plan_slug,
      (select status from subscriptions) as subscription_status,
      (select count(*)::int from leads, bounds where created_at >= month_start and created_at <= ${at}) as leads_this_month,
      (select count(*)::int from quotes where status in ('Draft', 'Sent', 'Viewed')) as open_quotes,
      (select count(*)::int from jobs, bounds where status <> 'Cancelled' and scheduled_date >= week_start and scheduled_date < week_end) as jobs_this_week,
      (select count(*)::int from invoices where status in ('Sent', 'Partially Paid') and total_cents > amount_paid_cents) as outstanding_invoices,
      (select coalesce(sum(total_cents - amount_paid_cents), 0)::bigint from invoices where status in ('Sent', 'Partially Paid')
         and total_cents > amount_paid_cents) as outstanding_cents,
      (select count(*)::int from invoices, bounds where status in ('Sent', 'Partially Paid') and total_cents > amount_paid_cents
         and due_date < today) as overdue_invoices,
      (select coalesce(sum(total_cents - amount_paid_cents), 0)::bigint from invoices, bounds where status in ('Sent', 'Partially Paid')
         and total_cents > amount_paid_cents and due_date < today) as overdue_cents
    from bounds`
  return { ...row!, outstanding_cents: Number(row!.outstanding_cents), overdue_cents: Number(row!.overdue_cents) }
}

export interface SupplierRow { abn: string; name: string; subcontractor_id: string; status: string; trades: string[] }

/** A company's subcontractors that have an ABN (the key shared suppliers are matched on). */
export function subcontractorsWithAbn(tx: postgres.TransactionSql, trade: string | undefined): Promise<SupplierRow[]> {
  return trade
    ? tx<SupplierRow[]>`select abn, name, id as subcontractor_id, status, trades from subcontractors
        where abn is not null and exists (select 1 from unnest(trades) t where lower(t) = lower(${trade})) order by abn, id`
    : tx<SupplierRow[]>`select abn, name, id as subcontractor_id, status, trades from subcontractors where abn is not null order by abn, id`
}
