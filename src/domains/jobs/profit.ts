// Job profit: revenue is the job's amount; costs are the quote's line-item unit costs
// (materials) plus costs recorded on the job; margin = revenue - costs.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { notFound, validationError } from '../../core/errors.js'
import { centsToDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate } from '../../core/zoned-time.js'
import { companyTimeZone } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { listProfitRows, type ProfitRow } from './queries.js'
import type { ProfitSummaryInput } from './schema.js'

const percent = (margin: number, revenue: number) => (revenue > 0 ? Math.round((margin / revenue) * 1000) / 10 : null)

export async function profitSummary(deps: Deps, principal: Principal, input: Static<typeof ProfitSummaryInput>) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    // Periods are the company's local dates: a job completed at 11 pm local time counts on that day.
    const timeZone = await companyTimeZone(tx)
    const today = localDate(deps.clock.now(), timeZone)
    const period = input.job_id ? null : { from: input.from ?? addDays(today, -30), to: input.to ?? today }
    if (period && period.from > period.to) throw validationError(['from: must not be after to'])
    const rows = await listProfitRows(tx, input.job_id, timeZone, period)
    if (input.job_id && !rows.length) throw notFound('Job')
    return summarise(rows, period)
  })
}

function summarise(rows: ProfitRow[], period: { from: string; to: string } | null) {
  let revenue = 0
  let costs = 0
  const jobs = rows.map((r) => {
    const rev = Number(r.revenue_cents)
    const materials = Number(r.materials_cents)
    const recorded = Number(r.recorded_cents)
    revenue += rev
    costs += materials + recorded
    return {
      jobId: r.id, title: r.title, status: r.status, revenue: centsToDollars(rev),
      costs: { materials: centsToDollars(materials), recorded: centsToDollars(recorded), total: centsToDollars(materials + recorded) },
      margin: centsToDollars(rev - materials - recorded), marginPercent: percent(rev - materials - recorded, rev),
    }
  })
  return { jobs, totals: { revenue: centsToDollars(revenue), costs: centsToDollars(costs), margin: centsToDollars(revenue - costs), marginPercent: percent(revenue - costs, revenue) }, period }
}
