// lifecycle.assess: the company's figures (lifecycle/figures.ts) and the answers given, put through
// the stage rules (stage.ts), with the evidence and what moves the business to the next stage.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { formatDollars } from '../../core/money.js'
import { GENERAL_INFORMATION } from '../../facts/facts.js'
import { input, type InputUsed } from './advice-schema.js'
import { loadFigures, recordsSource, type Figures } from './figures.js'
import { STAGES, type AssessInput, type AssessResponse } from './schema.js'
import { PRIORITIES, stageRules, type StageInputs } from './stage.js'

type Given = Static<typeof AssessInput>

function stageInputs(f: Figures, given: Given): { s: StageInputs; inputs: InputUsed[] } {
  const s: StageInputs = {
    months: given.months_trading ?? f.months_of_records,
    employees: given.employees ?? 0,
    revenue: given.annual_revenue ?? f.revenue_12m,
    revenue_prev: f.revenue_prev_12m,
    costs: f.job_costs_12m + f.recurring_costs_12m,
    completed_jobs: f.completed_jobs_12m,
    overdue: f.overdue,
  }
  const inputs = [
    given.months_trading !== undefined ? input('months_trading', String(s.months), 'supplied', 'given in this call')
      : input('months_trading', String(s.months), 'company_data', 'months since your earliest record here (give months_trading if you traded before using this system)'),
    given.employees !== undefined ? input('employees', String(s.employees), 'supplied', 'given in this call')
      : input('employees', '0', 'assumed', 'no staff records are kept here: give employees if you have any'),
    given.annual_revenue !== undefined ? input('annual_revenue', formatDollars(s.revenue), 'supplied', 'given in this call, used instead of the payments recorded')
      : input('annual_revenue', `${formatDollars(s.revenue)} ex GST`, 'company_data', recordsSource(f, 'payments received')),
    input('revenue_prev_12m', `${formatDollars(s.revenue_prev)} ex GST`, 'company_data', 'your records: payments received in the 12 months before'),
    input('costs_12m', formatDollars(s.costs), 'company_data', recordsSource(f, 'job costs and recurring costs')),
    input('overdue', `${formatDollars(s.overdue)} incl. GST`, 'company_data', `your records: invoices past due on ${f.today}`),
    ...(given.goals ? [input('goals', given.goals, 'supplied' as const, 'given in this call')] : []),
  ]
  return { s, inputs }
}

function evidenceOf(f: Figures, s: StageInputs, given: Given): Static<typeof AssessResponse>['evidence'] {
  const rev = given.annual_revenue !== undefined ? 'supplied' as const : 'company_data' as const
  return [
    { finding: `${s.months} months of trading${given.months_trading === undefined ? ' on your records here' : ''}.`, provenance: given.months_trading === undefined ? 'company_data' : 'supplied' },
    { finding: `${formatDollars(s.revenue)} revenue in the last 12 months${rev === 'company_data' ? ' (payments received, ex GST)' : ''}, against ${formatDollars(s.revenue_prev)} the 12 months before.`, provenance: rev },
    { finding: `${formatDollars(s.revenue - s.costs)} left after ${formatDollars(s.costs)} of recorded job and recurring costs.`, provenance: rev },
    { finding: `${formatDollars(s.overdue)} overdue (incl. GST) on ${f.today}.`, provenance: 'company_data' },
    { finding: `${s.employees} employees${given.employees === undefined ? ' (assumed: none recorded here)' : ''}.`, provenance: given.employees === undefined ? 'assumed' : 'supplied' },
    { finding: `${f.completed_jobs_12m} jobs completed and ${f.won_12m} of ${f.leads_12m} leads won in the last 12 months; ${f.open_leads} leads open and ${f.scheduled_jobs_ahead} jobs scheduled ahead.`, provenance: 'company_data' },
  ]
}

export async function assessLifecycle(deps: Deps, principal: Principal, given: Given): Promise<Static<typeof AssessResponse>> {
  const f = await loadFigures(deps, principal)
  const { s, inputs } = stageInputs(f, given)
  const rules = stageRules(s)
  const at = rules.findIndex((r) => r.holds)
  const stage = rules[at]!.stage
  const next = at + 1 < STAGES.length ? rules[at + 1]! : null
  const hiringGoal = given.goals !== undefined && /hire|apprentice|employ|staff|crew/i.test(given.goals)
  const toNext = next === null
    ? ['Scaling is the last stage: keep the factors of scaling.readiness_score strong as you grow.']
    : [`To reach ${next.stage}: ${rules[at]!.missing.join('; ')}.`]
  return {
    business_name: f.business_name,
    stage,
    summary: [
      `${f.business_name} is in the ${stage} stage: ${rules[at]!.rule.charAt(0).toLowerCase()}${rules[at]!.rule.slice(1)}`,
      `Over the last 12 months: ${formatDollars(s.revenue)} revenue against ${formatDollars(s.revenue_prev)} the 12 months before, ${formatDollars(s.revenue - s.costs)} left after recorded costs, ${formatDollars(s.overdue)} overdue today; ${s.months} months trading; ${s.employees} employees.`,
      ...(stage === 'survival' || stage === 'funding' ? [`Not yet there: ${rules[at]!.missing.join('; ')}.`] : []),
      ...(hiringGoal && s.employees === 0 ? ['Your goals mention hiring: apprentice incentives may help (funding.eligibility_scan).'] : []),
      'The stages and their rules are this tool\'s own, stated in rules; no published threshold is used.',
    ],
    evidence: evidenceOf(f, s, given),
    rules: rules.map(({ stage: st, rule, holds }) => ({ stage: st, rule, holds })),
    next_stage: next?.stage ?? null,
    to_next_stage: toNext,
    priorities: PRIORITIES[stage],
    inputs,
    facts: [],
    disclaimer: GENERAL_INFORMATION,
  }
}
