// Hiring SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'

export interface HiringCompany {
  trade_type: string | null
  state: string | null
}

export async function findHiringCompany(tx: postgres.TransactionSql): Promise<HiringCompany> {
  const [row] = await tx<HiringCompany[]>`select trade_type, state from companies`
  return row!
}

export interface WorkStats {
  /** Jobs scheduled, in progress or completed with their date in [from, to). */
  booked_jobs: number
  /** Scheduled jobs dated from `to` on: work already in the book. */
  forward_jobs: number
  /** Distinct technicians named on the window's jobs (0: none recorded). */
  technicians: number
  /** Leads created in the window still New, Contacted or Qualified. */
  open_leads: number
  /** Quotes decided in the window: accepted, and declined or expired. */
  quotes_accepted: number
  quotes_lost: number
  /** Leads created in the window, and those Lost without any quote. */
  leads: number
  turned_down: number
}

/** The company's work in [from, to) and its scheduled work after `to`. */
export async function workStats(tx: postgres.TransactionSql, window: { from: Date; to: Date }): Promise<WorkStats> {
  const [row] = await tx<WorkStats[]>`
    with j as (
      select status, technician, coalesce(completed_at, scheduled_date, created_at) as at from jobs where status <> 'Cancelled'
    ), q as (
      select status, coalesce(accepted_at, declined_at, valid_until::timestamptz, created_at) as at from quotes
    ), l as (
      select id, status from leads where created_at >= ${window.from} and created_at < ${window.to}
    )
    select
      (select count(*) from j where status in ('Scheduled', 'In Progress', 'Completed') and at >= ${window.from} and at < ${window.to})::int as booked_jobs,
      (select count(*) from j where status in ('Scheduled', 'In Progress') and at >= ${window.to})::int as forward_jobs,
      (select count(distinct lower(btrim(technician))) from j where coalesce(btrim(technician), '') <> '' and at >= ${window.from} and at < ${window.to})::int as technicians,
      (select count(*) from l where status in ('New', 'Contacted', 'Qualified'))::int as open_leads,
      (select count(*) from q where status = 'Accepted' and at >= ${window.from} and at < ${window.to})::int as quotes_accepted,
      (select count(*) from q where status in ('Declined', 'Expired') and at >= ${window.from} and at < ${window.to})::int as quotes_lost,
      (select count(*) from l)::int as leads,
      (select count(*) from l where status = 'Lost' and not exists (select 1 from quotes where quotes.lead_id = l.id))::int as turned_down`
  return row!
}
