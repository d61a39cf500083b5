// hiring.readiness_score: whether the business can carry an employee now. The workload comes from
// the capacity analysis of the company's own jobs, leads and quotes; the cash factor measures the
// reserves against a quarter of the role's full cost (cost_calculator on its defaults); employer
// registrations are not recorded in the service, so they are listed as gaps to confirm.
import type { Static } from 'typebox'
import { cite, GENERAL_INFORMATION } from '../../facts/facts.js'
import { analyseCapacity, type CapacityData } from './capacity.js'
import { calculateCost, type CostContext } from './cost.js'
import { clamp01, dollars, factor, percent, round1, total, used } from './factors.js'
import type { ReadinessInput, ReadinessResponse } from './schema.js'
import type { ScoreFactor } from '../../facts/schema.js'

export const READINESS_WEIGHTS = { workload: 40, cash: 35, pipeline: 15, registrations: 10 } as const
/** A quarter (13 weeks) of the full cost in reserve counts as ready; four weeks of work in sight counts as steady. */
const RESERVE_WEEKS = 13
const STEADY_WEEKS = 4
const REGISTRATION_FACTS = ['employment.payg_withholding_registration', 'employment.single_touch_payroll', 'super.guarantee_rate']

export interface ReadinessFigures {
  capacity_score: number
  cash_reserves: number | null
  quarter_cost: number
  weeks_of_work_in_sight: number
}

export function readinessFactors(f: ReadinessFigures): ScoreFactor[] {
  const w = READINESS_WEIGHTS
  const cashShare = f.cash_reserves === null ? 0 : f.quarter_cost > 0 ? f.cash_reserves / f.quarter_cost : 1
  return [
    factor('workload', w.workload, f.capacity_score / 100, `capacity score ${f.capacity_score}`, 'company_data',
      'The capacity analysis of your jobs, leads and quotes (hiring.capacity_analysis); full points at 100.'),
    factor('cash_reserves', w.cash, cashShare, f.cash_reserves === null ? 'not given' : `${dollars(f.cash_reserves)} against ${dollars(f.quarter_cost)} for ${RESERVE_WEEKS} weeks of the role`,
      f.cash_reserves === null ? 'assumed' : 'supplied',
      f.cash_reserves === null ? 'No cash figure given: no points (pass cash_reserves).' : `Full points when the reserves cover ${RESERVE_WEEKS} weeks of the role's full cost (${percent(clamp01(cashShare))} covered).`),
    factor('pipeline', w.pipeline, f.weeks_of_work_in_sight / STEADY_WEEKS, `${round1(f.weeks_of_work_in_sight)} weeks of work booked ahead or in open leads`, 'company_data',
      `Scheduled jobs ahead plus the open leads likely to be won, in weeks of the team's capacity; full points at ${STEADY_WEEKS} weeks.`),
    factor('employer_registrations', w.registrations, 0, 'not recorded in the service', 'assumed',
      'PAYG withholding, Single Touch Payroll, a super fund and a workers\' compensation policy are not recorded here: no points until confirmed (see gaps).'),
  ]
}

export function assessReadiness(input: Static<typeof ReadinessInput>, data: CapacityData, ctx: CostContext): Static<typeof ReadinessResponse> {
  const capacity = analyseCapacity({}, data)
  const state = input.state ?? (ctx.companyState as Static<typeof ReadinessResponse>['state'])
  const role = input.role ?? 'tradesperson'
  const cost = calculateCost({ role, state: state ?? undefined }, ctx)
  const quarterCost = Math.round(cost.total.per_week * RESERVE_WEEKS * 100) / 100
  const leadWeeks = capacity.factors.find((f) => f.factor === 'lead_backlog')!
  const inSight = capacity.forward_booked_weeks + (leadWeeks.score_points / leadWeeks.weight) * STEADY_WEEKS
  const factors = readinessFactors({ capacity_score: capacity.score, cash_reserves: input.cash_reserves ?? null, quarter_cost: quarterCost, weeks_of_work_in_sight: inSight })
  const score = total(factors)
  const gaps = [
    ...(capacity.score < 50 ? [`Workload: capacity score ${capacity.score}; more booked work first (hiring.capacity_analysis).`] : []),
    ...(input.cash_reserves === undefined ? [`Cash: say what cash is available; ${RESERVE_WEEKS} weeks of this role is about ${dollars(quarterCost)}.`]
      : input.cash_reserves < quarterCost ? [`Cash: ${dollars(input.cash_reserves)} covers less than ${RESERVE_WEEKS} weeks of the role (${dollars(quarterCost)}).`] : []),
    'Register for PAYG withholding before the first pay, report through Single Touch Payroll, choose a default super fund and take out workers\' compensation (hiring.compliance_checklist).',
  ]
  return {
    score, factors, role, state: state ?? null, quarter_cost: quarterCost, gaps,
    summary: [
      `Hiring readiness ${score} out of 100 for a ${role}${state ? ` in ${state}` : ''}.`,
      `Workload: capacity score ${capacity.score}. Cash: ${input.cash_reserves === undefined ? 'not given' : dollars(input.cash_reserves)} against ${dollars(quarterCost)} for ${RESERVE_WEEKS} weeks of the role (${dollars(cost.total.per_week)} a week, ${cost.wage_basis === 'supplied' ? 'your rate' : 'on the minimum-wage floor, so the real cost is likely higher'}).`,
      `${round1(inSight)} weeks of work are booked ahead or in open leads.`,
      `Close first: ${gaps.length} gap${gaps.length === 1 ? '' : 's'}.`,
    ],
    inputs: [
      used('role', role, input.role ? 'supplied' : 'assumed'),
      used('state', state ?? 'unknown', input.state ? 'supplied' : state ? 'company_data' : 'assumed'),
      used('cash_reserves', input.cash_reserves === undefined ? 'not given' : dollars(input.cash_reserves), input.cash_reserves === undefined ? 'assumed' : 'supplied'),
      ...capacity.inputs.filter((i) => i.name !== 'weeks'),
    ],
    facts: cite([...cost.facts.map((f) => f.id), ...capacity.facts.map((f) => f.id), ...REGISTRATION_FACTS], ctx.today),
    disclaimer: GENERAL_INFORMATION,
  }
}
