// Reports SQL (ads pipeline): recorded ad spend, and leads by source and campaign over a window with
// how far they got and what was spent on them. Money stays integer cents here. Every function takes
// the tenant transaction from withTenant().
import type postgres from 'postgres'

export interface SpendRow { id: string; source: string; campaign: string | null; period_start: string; period_end: string; amount_cents: string; note: string | null; created_at: Date }

const spendColumns = (tx: postgres.TransactionSql) =>
  tx`id::text, source, campaign, to_char(period_start, 'YYYY-MM-DD') as period_start, to_char(period_end, 'YYYY-MM-DD') as period_end, amount_cents, note, created_at`

export interface NewAdSpend {
  companyId: string
  source: string
  campaign: string | null
  periodStart: string
  periodEnd: string
  amountCents: number
  note: string | null
  now: Date
}

export async function insertAdSpend(tx: postgres.TransactionSql, s: NewAdSpend): Promise<SpendRow> {
  const [row] = await tx<SpendRow[]>`
      insert into ad_spend (company_id, source, campaign, period_start, period_end, amount_cents, note, created_at)
      values (${s.companyId}, ${s.source}, ${s.campaign}, ${s.periodStart}, ${s.periodEnd}, ${s.amountCents}, ${s.note}, ${s.now})
      returning ${spendColumns(tx)}`
  return row!
}

/** Spend of a source (lower-cased by the caller) overlapping [from, to], newest first, a page of it and the count. */
export async function listAdSpendRows(
  tx: postgres.TransactionSql, filter: { source?: string; from?: string; to?: string }, limit: number, offset: number,
): Promise<{ rows: SpendRow[]; total: number }> {
  const where = tx`true
      ${filter.source !== undefined ? tx`and source = ${filter.source}` : tx``}
      ${filter.from ? tx`and period_end >= ${filter.from}::date` : tx``}
      ${filter.to ? tx`and period_start <= ${filter.to}::date` : tx``}`
  const rows = await tx<SpendRow[]>`select ${spendColumns(tx)} from ad_spend where ${where} order by period_start desc, created_at desc, id limit ${limit} offset ${offset}`
  const [count] = await tx<{ n: number }[]>`select count(*)::int as n from ad_spend where ${where}`
  return { rows, total: count!.n }
}

export async function findTimeZone(tx: postgres.TransactionSql): Promise<{ time_zone: string } | undefined> {
  const [company] = await tx<{ time_zone: string }[]>`select time_zone from companies`
  return company
}

export interface GroupRow { source: string; campaign: string | null; leads: number; quoted: number; won_jobs: number; revenue_cents: string; spend_cents: string | null }

/**
 * Per source and campaign: the leads created in [fromInstant, toInstant), how many were quoted, their
 * won jobs and revenue, and the ad spend recorded for the local dates [from, to] (a record counts
 * for the days it shares with them, in proportion); most leads first.
 */
export async function listPipelineGroups(tx: postgres.TransactionSql, fromInstant: Date, toInstant: Date, from: string, to: string): Promise<GroupRow[]> {
  return tx<GroupRow[]>`
      with l as (
        select id,
               coalesce(nullif(lower(trim(split_part(source, ':', 1))), ''), 'unknown') as source,
               case when strpos(source, ':') > 0 then nullif(lower(trim(substr(source, strpos(source, ':') + 1))), '') end as campaign
        from leads where created_at >= ${fromInstant} and created_at < ${toInstant}
      ), per_lead as (
        select l.source, l.campaign,
               exists (select 1 from quotes q where q.lead_id = l.id and q.sent_count > 0) as quoted,
               (select count(*) from jobs j where j.lead_id = l.id and j.status in ('Scheduled', 'In Progress', 'Completed')) as won_jobs,
               (select coalesce(sum(i.total_cents - i.amount_credited_cents), 0) from invoices i
                 where i.lead_id = l.id and i.kind <> 'credit_note' and i.status not in ('Draft', 'Void')) as revenue_cents
        from l
      ), lead_groups as (
        select source, campaign, count(*)::int as leads, count(*) filter (where quoted)::int as quoted,
               sum(won_jobs)::int as won_jobs, sum(revenue_cents)::bigint as revenue_cents
        from per_lead group by source, campaign
      ), spend as (
        -- Each record counts for the days it shares with the window, in proportion (half-up cents).
        select source, campaign,
               sum((amount_cents * (least(period_end, ${to}::date) - greatest(period_start, ${from}::date) + 1) * 2 + (period_end - period_start + 1))
                   / (2 * (period_end - period_start + 1)))::bigint as spend_cents
        from ad_spend where period_start <= ${to}::date and period_end >= ${from}::date
        group by source, campaign
      )
      select coalesce(g.source, s.source) as source, coalesce(g.campaign, s.campaign) as campaign,
             coalesce(g.leads, 0) as leads, coalesce(g.quoted, 0) as quoted, coalesce(g.won_jobs, 0) as won_jobs,
             coalesce(g.revenue_cents, 0) as revenue_cents, s.spend_cents
      from lead_groups g full join spend s on s.source = g.source and s.campaign is not distinct from g.campaign
      order by 3 desc, 1, 2 nulls first`
}
