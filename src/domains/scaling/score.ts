// The scaling readiness score (0-100), factor by factor. The factors, weights and scales are ours
// (no public source gives a readiness formula; docs/decisions.md says so): each factor's points are
// its weight times a fraction between 0 and 1 read from the company's own figures, and a factor the
// records cannot show scores 0, said as no_data, so the score never claims what the records do not.
// Every fraction rises with the figure behind it, so a better figure never lowers the score
// (test/advisory-funding.test.ts checks it with fast-check).
import { formatDollars } from '../../core/money.js'
import type { ScoreFactor } from '../../facts/schema.js'
import type { Figures } from '../lifecycle/figures.js'

export type ScoreFigures = Pick<Figures,
  'revenue_12m' | 'revenue_prev_12m' | 'received_12m' | 'job_costs_12m' | 'recurring_costs_12m' | 'overdue'
  | 'leads_12m' | 'won_12m' | 'completed_jobs_12m' | 'completed_jobs_invoiced_12m'>

const clamp01 = (x: number) => Math.min(1, Math.max(0, x))
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`
const round1 = (x: number) => Math.round(x * 10) / 10

/** The weights (ours), summing to 100. */
export const WEIGHTS = { revenue_growth: 30, margin: 25, cash_collection: 15, win_rate: 15, jobs_invoiced: 15 } as const

function factor(name: keyof typeof WEIGHTS, ratio: number | null, scaled: number, input: string, known: string, unknown: string): ScoreFactor {
  const weight = WEIGHTS[name]
  if (ratio === null) return { factor: name, weight, input: 'not known', origin: 'no_data', score_points: 0, explanation: unknown }
  return { factor: name, weight, input, origin: 'company_data', score_points: round1(weight * clamp01(scaled)), explanation: known }
}

export function scalingFactors(f: ScoreFigures): ScoreFactor[] {
  const growth = f.revenue_prev_12m > 0 ? f.revenue_12m / f.revenue_prev_12m - 1 : null
  const margin = f.revenue_12m > 0 ? (f.revenue_12m - f.job_costs_12m - f.recurring_costs_12m) / f.revenue_12m : null
  const collected = f.received_12m + f.overdue > 0 ? f.received_12m / (f.received_12m + f.overdue) : null
  const winRate = f.leads_12m > 0 ? Math.min(f.won_12m, f.leads_12m) / f.leads_12m : null
  const invoiced = f.completed_jobs_12m > 0 ? Math.min(f.completed_jobs_invoiced_12m, f.completed_jobs_12m) / f.completed_jobs_12m : null
  return [
    factor('revenue_growth', growth, growth === null ? 0 : (1 + growth) / 2,
      growth === null ? '' : `${pct(growth)} (${formatDollars(f.revenue_12m)} in the last 12 months against ${formatDollars(f.revenue_prev_12m)} the 12 before, ex GST)`,
      'Half the weight at no change, all of it at double the revenue, none at none (our scale).',
      'No payments recorded in the 12 months before the last 12, so growth cannot be measured: 0 points.'),
    factor('margin', margin, margin ?? 0,
      margin === null ? '' : `${pct(margin)} (payments ex GST less job costs ${formatDollars(f.job_costs_12m)} and recurring costs ${formatDollars(f.recurring_costs_12m)})`,
      'Points in proportion to the margin left after recorded job and recurring costs; growth is paid for from it.',
      'No payments in the last 12 months, so no margin can be read: 0 points.'),
    factor('cash_collection', collected, collected ?? 0,
      collected === null ? '' : `${pct(collected)} (${formatDollars(f.received_12m)} received against ${formatDollars(f.overdue)} overdue, incl. GST)`,
      'Points in proportion to the money collected against the money overdue; growth ties up cash in unpaid work.',
      'Nothing received and nothing overdue: 0 points.'),
    factor('win_rate', winRate, winRate ?? 0,
      winRate === null ? '' : `${pct(winRate)} (${f.won_12m} of ${f.leads_12m} leads won in the last 12 months)`,
      'Points in proportion to the win rate: demand the business converts.',
      'No leads recorded in the last 12 months: 0 points.'),
    factor('jobs_invoiced', invoiced, invoiced ?? 0,
      invoiced === null ? '' : `${pct(invoiced)} (${f.completed_jobs_invoiced_12m} of ${f.completed_jobs_12m} completed jobs invoiced)`,
      'Points in proportion to the completed jobs that were invoiced: a system that bills every job before more crews add more jobs.',
      'No completed jobs recorded in the last 12 months: 0 points.'),
  ]
}

export const scoreOf = (factors: ScoreFactor[]) => Math.round(factors.reduce((s, f) => s + f.score_points, 0))
