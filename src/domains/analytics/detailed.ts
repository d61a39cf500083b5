// analytics.detailed: conversion of the leads created in a window, quotes won, revenue and job value
// by service type, lead source and technician, and a time series; each figure one SQL aggregate in
// integer cents. Dates are local to the company (companies.time_zone).
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { findFunnelCounts, findOverall, listGroupRows, listSeries, type Dimension } from './queries/detailed.js'
import type { DetailedInput, DetailedResponse, FunnelSchema, GroupRow } from './schema.js'
import { companyTimeZone, dateRange, presentWindow, type LocalWindow } from './window.js'

const MAX_DAYS = 731
const ratio = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : null)
const $ = (cents: string | number | null) => (cents === null ? null : centsToDollars(Number(cents)))

export async function funnel(tx: postgres.TransactionSql, w: LocalWindow): Promise<Static<typeof FunnelSchema>> {
  const f = await findFunnelCounts(tx, w)
  const stage = (n: number) => ({ count: n, rate: ratio(n, f.leads) })
  return { leads: f.leads, quoted: stage(f.quoted), accepted: stage(f.accepted), job: stage(f.job), paid: stage(f.paid) }
}

/** One dimension's rows: lead stages, quotes won, jobs completed and payments, each grouped by the key. */
async function groups(tx: postgres.TransactionSql, w: LocalWindow, dim: Dimension): Promise<Static<typeof GroupRow>[]> {
  const byLead = dim !== 'technician'
  const rows = await listGroupRows(tx, w, dim)
  return rows.map((r) => ({
    key: r.key, leads: r.leads, quoted: r.quoted, accepted: r.accepted, paid: r.paid,
    win_rate: byLead ? ratio(r.won, r.sent) : null, jobs_completed: r.jobs, average_job_value: $(r.avg_cents), revenue: $(r.revenue)!,
  }))
}

async function series(tx: postgres.TransactionSql, w: LocalWindow, unit: 'day' | 'week' | 'month') {
  const rows = await listSeries(tx, w, unit)
  return rows.map((r) => ({ ...r, revenue: $(r.revenue)! }))
}

export async function detailedAnalytics(deps: Deps, principal: Principal, input: Static<typeof DetailedInput>): Promise<Static<typeof DetailedResponse>> {
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const tz = await companyTimeZone(tx)
    const today = localDate(now, tz)
    const to = input.to ?? today
    const w = dateRange(input.from ?? addDays(to, -89), to, tz, MAX_DAYS)
    const unit = input.group_by ?? 'week'
    const all = await findOverall(tx, w)
    return {
      period: presentWindow(w),
      currency: 'AUD' as const,
      conversion: await funnel(tx, w),
      quotes: { created: all.created, sent: all.sent, accepted: all.accepted, win_rate: ratio(all.accepted, all.sent) },
      revenue: $(all.revenue)!,
      jobs_completed: all.jobs,
      average_job_value: $(all.avg_cents),
      by_service_type: await groups(tx, w, 'service_type'),
      by_source: await groups(tx, w, 'source'),
      by_technician: await groups(tx, w, 'technician'),
      series: await series(tx, w, unit),
    }
  })
}
