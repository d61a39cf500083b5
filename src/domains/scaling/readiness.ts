// scaling.readiness_score: the company's last 24 months of payments, costs, leads and jobs, scored
// factor by factor (score.ts), with the gaps to close first for the growth planned. Read-only.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { formatDollars } from '../../core/money.js'
import { GENERAL_INFORMATION } from '../../facts/facts.js'
import { input, type InputUsed } from '../lifecycle/advice-schema.js'
import { loadFigures, recordsSource, type Figures } from '../lifecycle/figures.js'
import { scalingFactors, scoreOf } from './score.js'
import type { ScoreFactor } from '../../facts/schema.js'
import type { ReadinessInput, ReadinessResponse } from './schema.js'

/** Why each weak factor matters for the growth planned (our reasoning, stated as such). */
const GOAL_WHY: Record<string, string> = {
  add_crew: 'Another crew means wages every week before its jobs are paid for.',
  new_location: 'A new area means travel and marketing costs before its first jobs.',
  new_service: 'A new service means tools, training or licences before it earns.',
  commercial_work: 'Commercial clients often pay on longer terms, so cash is tied up for longer.',
}

const GAP: Record<string, string> = {
  revenue_growth: 'Grow revenue on the work you already do before adding more (marketing.strategy).',
  margin: 'Raise the margin: check prices against job costs (pricebook.search) and recurring costs (cashflow.list_recurring_costs).',
  cash_collection: 'Collect what is overdue before taking on more (invoicing.chase).',
  win_rate: 'Win more of the leads you get: follow up quotes quickly.',
  jobs_invoiced: 'Invoice every completed job (invoicing.generate).',
}

function gapsOf(factors: ScoreFactor[], goal: string | undefined): string[] {
  const weakest = [...factors].filter((f) => f.score_points < f.weight).sort((a, b) => a.score_points / a.weight - b.score_points / b.weight)
  return [
    ...weakest.slice(0, 3).map((f) => `${f.factor} (${f.score_points} of ${f.weight} points): ${GAP[f.factor]}`),
    ...(goal ? [GOAL_WHY[goal]!] : []),
  ]
}

function inputsOf(f: Figures, given: Static<typeof ReadinessInput>): InputUsed[] {
  return [
    input('revenue_12m', `${formatDollars(f.revenue_12m)} ex GST`, 'company_data', recordsSource(f, 'payments received')),
    input('revenue_prev_12m', `${formatDollars(f.revenue_prev_12m)} ex GST`, 'company_data', 'your records: payments received in the 12 months before'),
    input('costs_12m', `${formatDollars(f.job_costs_12m + f.recurring_costs_12m)}`, 'company_data', recordsSource(f, 'job costs and recurring costs')),
    input('overdue', `${formatDollars(f.overdue)} incl. GST`, 'company_data', `your records: invoices past due on ${f.today}`),
    input('leads_12m', `${f.won_12m} won of ${f.leads_12m}`, 'company_data', recordsSource(f, 'leads')),
    input('completed_jobs_12m', `${f.completed_jobs_invoiced_12m} invoiced of ${f.completed_jobs_12m}`, 'company_data', recordsSource(f, 'completed jobs')),
    given.goal ? input('goal', given.goal, 'supplied', 'given in this call') : input('goal', 'not given', 'assumed', 'no goal given: the gaps are general'),
    ...(given.target_annual_revenue !== undefined ? [input('target_annual_revenue', formatDollars(given.target_annual_revenue), 'supplied', 'given in this call')] : []),
  ]
}

export async function readinessScore(deps: Deps, principal: Principal, given: Static<typeof ReadinessInput>): Promise<Static<typeof ReadinessResponse>> {
  const f = await loadFigures(deps, principal)
  const factors = scalingFactors(f)
  const score = scoreOf(factors)
  const assumed = factors.filter((x) => x.origin === 'no_data').map((x) => x.factor)
  const target = given.target_annual_revenue
  const growthNeeded = target !== undefined && f.revenue_12m > 0 ? Math.round((target / f.revenue_12m - 1) * 1000) / 10 : null
  return {
    business_name: f.business_name,
    goal: given.goal ?? null,
    score,
    factors,
    summary: [
      `${f.business_name} scores ${score} out of 100 for readiness to scale, from its records ${f.from} to ${f.today}.`,
      ...factors.map((x) => `${x.factor}: ${x.score_points} of ${x.weight} points, from ${x.input}.`),
      ...(assumed.length ? [`Not known from your records, so scored 0: ${assumed.join(', ')}.`] : []),
      ...(target !== undefined
        ? [growthNeeded === null
          ? `Your target of ${formatDollars(target)} a year cannot be compared: no payments are recorded in the last 12 months.`
          : `Your target of ${formatDollars(target)} a year is ${growthNeeded}% ${growthNeeded >= 0 ? 'above' : 'below'} the ${formatDollars(f.revenue_12m)} (ex GST) received in the last 12 months.`]
        : []),
      'The factors, weights and scales are this tool\'s own, not a published standard.',
    ],
    gaps: gapsOf(factors, given.goal),
    target: target === undefined ? null : { target_annual_revenue: target, revenue_last_12_months: f.revenue_12m, growth_needed_percent: growthNeeded },
    inputs: inputsOf(f, given),
    facts: [],
    disclaimer: GENERAL_INFORMATION,
  }
}
