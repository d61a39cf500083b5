// Analytics SQL for analytics.detailed and the conversion funnel: aggregates over a local window in
// integer cents (sums as text). Every function takes the tenant transaction from withTenant().
import type postgres from 'postgres'
import type { LocalWindow } from '../window.js'

/** Stages each lead created in the window reached (each tested on its own). */
const leadStages = (tx: postgres.TransactionSql, w: LocalWindow) => tx`
  select l.id, l.service_type, l.source,
         exists (select 1 from quotes q where q.lead_id = l.id) as quoted,
         exists (select 1 from quotes q where q.lead_id = l.id and q.status = 'Accepted') as accepted,
         exists (select 1 from jobs j where j.lead_id = l.id and j.status <> 'Cancelled') as job,
         exists (select 1 from invoices i where i.lead_id = l.id and i.kind = 'final' and i.status = 'Paid') as paid
  from leads l where l.created_at >= ${w.start} and l.created_at < ${w.end}`

export interface FunnelRow { leads: number; quoted: number; accepted: number; job: number; paid: number }

/** How many of the window's leads reached each stage. */
export async function findFunnelCounts(tx: postgres.TransactionSql, w: LocalWindow): Promise<FunnelRow> {
  const [f] = await tx<FunnelRow[]>`
    select count(*)::int as leads, (count(*) filter (where quoted))::int as quoted, (count(*) filter (where accepted))::int as accepted,
           (count(*) filter (where job))::int as job, (count(*) filter (where paid))::int as paid
    from (${leadStages(tx, w)}) s`
  return f!
}

export type Dimension = 'service_type' | 'source' | 'technician'

export interface GroupSql { key: string | null; leads: number; quoted: number; accepted: number; paid: number; sent: number; won: number; jobs: number; avg_cents: string | null; revenue: string }

/** One dimension's rows: lead stages, quotes won, jobs completed and payments, each grouped by the key. */
export async function listGroupRows(tx: postgres.TransactionSql, w: LocalWindow, dim: Dimension): Promise<GroupSql[]> {
  const byLead = dim !== 'technician'
  const leadKey = dim === 'source' ? tx`l.source` : tx`l.service_type`
  // The job an invoice belongs to: its own, or (a deposit issued on acceptance) the job of its quote.
  const invoiceJob = tx`coalesce(i.job_id, (select j2.id from jobs j2 where j2.quote_id = i.quote_id))`
  const rows = await tx<GroupSql[]>`
    with stages as (
      ${byLead ? tx`select ${dim === 'source' ? tx`source` : tx`service_type`} as key, count(*)::int as leads,
              (count(*) filter (where quoted))::int as quoted, (count(*) filter (where accepted))::int as accepted,
              (count(*) filter (where paid))::int as paid
       from (${leadStages(tx, w)}) s group by 1` : tx`select null::text as key, 0 as leads, 0 as quoted, 0 as accepted, 0 as paid where false`}
    ), won as (
      ${byLead ? tx`select ${leadKey} as key, (count(*) filter (where q.status <> 'Draft'))::int as sent, (count(*) filter (where q.status = 'Accepted'))::int as won
       from quotes q join leads l on l.id = q.lead_id
       where q.created_at >= ${w.start} and q.created_at < ${w.end} group by 1` : tx`select null::text as key, 0 as sent, 0 as won where false`}
    ), done as (
      select ${byLead ? leadKey : tx`j.technician`} as key, count(*)::int as jobs, round(avg(j.amount_cents))::bigint::text as avg_cents
      from jobs j ${byLead ? tx`join leads l on l.id = j.lead_id` : tx``}
      where j.completed_at >= ${w.start} and j.completed_at < ${w.end} and j.status = 'Completed' group by 1
    ), money as (
      select ${byLead ? leadKey : tx`j.technician`} as key, sum(p.amount_cents)::bigint as revenue
      from payments p join invoices i on i.id = p.invoice_id
      ${byLead ? tx`join leads l on l.id = i.lead_id` : tx`left join jobs j on j.id = ${invoiceJob}`}
      where p.received_at >= ${w.start} and p.received_at < ${w.end} group by 1
    ), keys as (
      select key from stages union select key from won union select key from done union select key from money
    )
    select k.key, coalesce(s.leads, 0) as leads, coalesce(s.quoted, 0) as quoted, coalesce(s.accepted, 0) as accepted, coalesce(s.paid, 0) as paid,
           coalesce(wn.sent, 0) as sent, coalesce(wn.won, 0) as won, coalesce(d.jobs, 0) as jobs, d.avg_cents, coalesce(m.revenue, 0)::text as revenue
    from keys k
    left join stages s on s.key is not distinct from k.key
    left join won wn on wn.key is not distinct from k.key
    left join done d on d.key is not distinct from k.key
    left join money m on m.key is not distinct from k.key
    order by coalesce(m.revenue, 0) desc, k.key nulls last
    limit 200`
  return rows
}

export interface Overall { created: number; sent: number; accepted: number; revenue: string; jobs: number; avg_cents: string | null }

/** The window's quotes (created, sent, accepted), revenue and completed jobs with their average value. */
export async function findOverall(tx: postgres.TransactionSql, w: LocalWindow): Promise<Overall> {
  const [row] = await tx<Overall[]>`
    select q.created, q.sent, q.accepted, p.revenue, j.jobs, j.avg_cents from
      (select count(*)::int as created, (count(*) filter (where status <> 'Draft'))::int as sent, (count(*) filter (where status = 'Accepted'))::int as accepted
         from quotes where created_at >= ${w.start} and created_at < ${w.end}) q,
      (select coalesce(sum(amount_cents), 0)::text as revenue from payments where received_at >= ${w.start} and received_at < ${w.end}) p,
      (select count(*)::int as jobs, round(avg(amount_cents))::bigint::text as avg_cents from jobs
         where completed_at >= ${w.start} and completed_at < ${w.end} and status = 'Completed') j`
  return row!
}

export interface SeriesSql { period: string; leads: number; quotes_sent: number; jobs_completed: number; revenue: string }

/** One row per local day, week or month of the window (empty buckets included). */
export async function listSeries(tx: postgres.TransactionSql, w: LocalWindow, unit: 'day' | 'week' | 'month'): Promise<SeriesSql[]> {
  const tz = w.timeZone
  const bucket = (col: postgres.Fragment) => tx`date_trunc(${unit}, (${col} at time zone ${tz}))::date`
  const rows = await tx<SeriesSql[]>`
    with buckets as (
      select b::date as period from generate_series(date_trunc(${unit}, ${w.from}::date::timestamp), ${w.to}::date::timestamp, ('1 ' || ${unit})::interval) b
    ), l as (select ${bucket(tx`created_at`)} as period, count(*)::int as n from leads where created_at >= ${w.start} and created_at < ${w.end} group by 1
    ), q as (select ${bucket(tx`created_at`)} as period, count(*)::int as n from quotes where created_at >= ${w.start} and created_at < ${w.end} and status <> 'Draft' group by 1
    ), j as (select ${bucket(tx`completed_at`)} as period, count(*)::int as n from jobs where completed_at >= ${w.start} and completed_at < ${w.end} and status = 'Completed' group by 1
    ), p as (select ${bucket(tx`received_at`)} as period, sum(amount_cents)::bigint as cents from payments where received_at >= ${w.start} and received_at < ${w.end} group by 1)
    select to_char(b.period, 'YYYY-MM-DD') as period, coalesce(l.n, 0) as leads, coalesce(q.n, 0) as quotes_sent, coalesce(j.n, 0) as jobs_completed, coalesce(p.cents, 0)::text as revenue
    from buckets b left join l using (period) left join q using (period) left join j using (period) left join p using (period)
    order by b.period`
  return rows
}
