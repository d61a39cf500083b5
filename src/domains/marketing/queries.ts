// Marketing SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import { ACCOUNTING_PROVIDERS } from '../../providers/accounting/provider.js'

export interface MarketingCompany {
  business_name: string
  abn: string | null
  trade_type: string | null
  state: string | null
  phone: string | null
}

export async function findMarketingCompany(tx: postgres.TransactionSql): Promise<MarketingCompany> {
  const [row] = await tx<MarketingCompany[]>`select business_name, abn, trade_type, state, phone from companies`
  return row!
}

export interface SourceStats {
  source: string
  leads: number
  won: number
  won_value_cents: string
}

/**
 * Leads created in [from, to) by source (lower case; referral:<code> as referral; blank as unknown):
 * how many, how many won (status Won or a quote accepted), and the accepted quotes' total. Contacts
 * pulled in from an accounting package (source xero, ...) are existing clients, not leads any
 * channel brought, and are left out: they would skew the win rates, and nothing from Xero's API
 * reaches a model (docs/decisions.md, Accounting integrations).
 */
export async function leadSourceStats(tx: postgres.TransactionSql, window: { from: Date; to: Date }): Promise<SourceStats[]> {
  return tx<SourceStats[]>`
    with l as (
      select id, status,
        case when coalesce(btrim(source), '') = '' then 'unknown'
             when lower(source) like 'referral:%' then 'referral'
             else lower(btrim(source)) end as source
      from leads where created_at >= ${window.from} and created_at < ${window.to}
        and lower(coalesce(btrim(source), '')) <> all(${[...ACCOUNTING_PROVIDERS]}::text[])
    ), accepted as (
      select lead_id, sum(total_cents) as cents from quotes where status = 'Accepted' group by lead_id
    )
    select l.source, count(*)::int as leads,
      count(*) filter (where l.status = 'Won' or a.cents is not null)::int as won,
      coalesce(sum(a.cents), 0)::bigint::text as won_value_cents
    from l left join accepted a on a.lead_id = l.id
    group by l.source order by count(*) desc, l.source limit 50`
}
