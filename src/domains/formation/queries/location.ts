// The company's leads and won work by suburb, for formation.demand_hotspots and location_score.
// RLS scopes every row to the caller's company (withTenant).
import type postgres from 'postgres'
import { ACCOUNTING_PROVIDERS } from '../../../providers/accounting/provider.js'

export interface SuburbStatsRow {
  suburb: string
  leads: number
  won: number
  won_value_cents: string
  valued_won: number
}

/**
 * Leads created in [from, to) with a suburb, grouped by suburb (case and spaces ignored): how many,
 * how many won (status Won, a quote accepted or a job opened and not cancelled), the won work's
 * value (the jobs' amounts where set, else the accepted quotes' totals, incl. GST) and how many won
 * leads have a value. Contacts pulled in from an accounting package are existing clients, not
 * leads, and are left out (as marketing.strategy does).
 */
export async function suburbStats(tx: postgres.TransactionSql, window: { from: Date; to: Date }): Promise<SuburbStatsRow[]> {
  return tx<SuburbStatsRow[]>`
    with l as (
      select id, status, lower(btrim(suburb)) as key, btrim(suburb) as name
      from leads
      where created_at >= ${window.from} and created_at < ${window.to}
        and coalesce(btrim(suburb), '') <> ''
        and lower(coalesce(btrim(source), '')) <> all(${[...ACCOUNTING_PROVIDERS]}::text[])
    ), j as (
      select lead_id, count(*) as open_jobs, sum(amount_cents) as cents
      from jobs where status <> 'Cancelled' group by lead_id
    ), a as (
      select lead_id, sum(total_cents) as cents from quotes where status = 'Accepted' group by lead_id
    ), v as (
      select l.key, l.name, l.status, j.open_jobs, a.cents as quote_cents, coalesce(j.cents, a.cents) as value_cents
      from l left join j on j.lead_id = l.id left join a on a.lead_id = l.id
    )
    select min(name) as suburb, count(*)::int as leads,
      count(*) filter (where status = 'Won' or open_jobs > 0 or quote_cents is not null)::int as won,
      coalesce(sum(value_cents) filter (where status = 'Won' or open_jobs > 0 or quote_cents is not null), 0)::bigint::text as won_value_cents,
      count(*) filter (where value_cents is not null and (status = 'Won' or open_jobs > 0 or quote_cents is not null))::int as valued_won
    from v group by key order by count(*) desc, key limit 500`
}
