// Funding SQL: the company's profile and the last 12 months of payments (ex GST) the eligibility
// scan reads when they are not given. Takes the tenant transaction from withTenant(); RLS scopes rows.
import type postgres from 'postgres'

export interface FundingCompany { business_name: string; state: string | null; trade_type: string | null; revenue_12m: string; payments_12m: number }

export async function findFundingCompany(tx: postgres.TransactionSql, since: Date): Promise<FundingCompany> {
  const [row] = await tx<FundingCompany[]>`
    select c.business_name, c.state, c.trade_type,
      (select coalesce(sum(p.amount_cents - round(p.amount_cents::numeric * i.gst_cents / nullif(i.total_cents, 0))::bigint), 0)
         from payments p join invoices i on i.id = p.invoice_id where p.received_at >= ${since})::text as revenue_12m,
      (select count(*) from payments where received_at >= ${since})::int as payments_12m
    from companies c`
  return row!
}
