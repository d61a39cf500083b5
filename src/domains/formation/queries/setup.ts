// SQL for the setup tools. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'

export interface SetupProfile {
  business_name: string
  abn: string | null
  trade_type: string | null
  state: string | null
}

export async function findSetupProfile(tx: postgres.TransactionSql): Promise<SetupProfile> {
  const [row] = await tx<SetupProfile[]>`select business_name, abn, trade_type, state from companies`
  return row!
}

/**
 * Invoiced turnover ex GST over the 12 months to `today` (issue dates in (today - 1 year, today]),
 * credit notes taken off, drafts and voided invoices left out: the company's own measure against the GST threshold.
 */
export async function invoicedTurnoverCents(tx: postgres.TransactionSql, today: string): Promise<number> {
  const [row] = await tx<{ cents: string }[]>`
    select coalesce(sum(case when kind = 'credit_note' then -subtotal_cents else subtotal_cents end), 0)::bigint::text as cents from invoices
    where status not in ('Draft', 'Void') and issue_date > ${today}::date - interval '1 year' and issue_date <= ${today}::date`
  return Number(row!.cents)
}
