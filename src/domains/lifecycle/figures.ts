// The company's figures in dollars and fractions, read once for lifecycle.assess and
// scaling.readiness_score, with the window they cover (the company's local dates).
import type { Principal } from '../../core/access.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { centsToDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { readCompanyFigures, type CompanyFigures } from './queries.js'

const DAY_MS = 86_400_000
const YEAR_MS = 365 * DAY_MS

export interface Figures {
  business_name: string
  trade: string | null
  state: string | null
  today: string
  /** The window of "the last 12 months" as local dates. */
  from: string
  /** Whole months since the earliest record. */
  months_of_records: number
  revenue_12m: number
  revenue_prev_12m: number
  received_12m: number
  payments_12m: number
  completed_jobs_12m: number
  completed_jobs_invoiced_12m: number
  leads_12m: number
  won_12m: number
  open_leads: number
  scheduled_jobs_ahead: number
  job_costs_12m: number
  recurring_costs_12m: number
  outstanding: number
  overdue: number
}

function monthsBetween(from: Date, to: Date): number {
  const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth())
  return Math.max(0, to.getUTCDate() < from.getUTCDate() ? months - 1 : months)
}

export function presentFigures(row: CompanyFigures, now: Date, today: string, from: string): Figures {
  const $ = (cents: string) => centsToDollars(Number(cents))
  return {
    business_name: row.business_name, trade: row.trade_type, state: row.state, today, from,
    months_of_records: monthsBetween(new Date(row.first_record), now),
    revenue_12m: $(row.revenue_12m), revenue_prev_12m: $(row.revenue_prev_12m), received_12m: $(row.received_12m),
    payments_12m: row.payments_12m, completed_jobs_12m: row.completed_jobs_12m, completed_jobs_invoiced_12m: row.completed_jobs_invoiced_12m,
    leads_12m: row.leads_12m, won_12m: row.won_12m, open_leads: row.open_leads, scheduled_jobs_ahead: row.scheduled_jobs_ahead,
    job_costs_12m: $(row.job_costs_12m), recurring_costs_12m: $(row.recurring_costs_12m), outstanding: $(row.outstanding), overdue: $(row.overdue),
  }
}

export async function loadFigures(deps: Deps, principal: Principal): Promise<Figures> {
  const now = deps.clock.now()
  const yearAgo = new Date(now.getTime() - YEAR_MS)
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const today = await companyToday(tx, now)
    const yearAgoDate = new Date(Date.parse(`${today}T00:00:00Z`) - YEAR_MS).toISOString().slice(0, 10)
    const row = await readCompanyFigures(tx, { now, yearAgo, twoYearsAgo: new Date(now.getTime() - 2 * YEAR_MS), today, yearAgoDate })
    return presentFigures(row, now, today, yearAgoDate)
  })
}

/** Where a figure came from, as the results say it. */
export const recordsSource = (f: Figures, what: string) => `your records: ${what}, ${f.from} to ${f.today}`
