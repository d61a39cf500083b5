// hiring.compliance_checklist: what an employer must do for a new employee, each item from a dated
// fact and marked as applying now or from a future date on the company's date (Payday Super from
// 1 July 2026 is the case in point).
import type { Static } from 'typebox'
import { cite, factById, factValue, GENERAL_INFORMATION } from '../../facts/facts.js'
import { dollars, percent, used } from './factors.js'
import type { ComplianceInput, ComplianceResponse } from './schema.js'
import type { CostContext } from './cost.js'

type Item = Omit<Static<typeof ComplianceResponse>['items'][number], 'standing'>
type State = NonNullable<Static<typeof ComplianceResponse>['state']>

export function complianceChecklist(input: Static<typeof ComplianceInput>, ctx: CostContext): Static<typeof ComplianceResponse> {
  const state = (input.state ?? ctx.companyState) as State | null
  const type = input.employment_type ?? 'full_time'
  const first = input.first_employee ?? true
  const payday = factById('super.payday_super')
  const items: Item[] = [
    ...(first ? [{ item: 'Register for PAYG withholding', when: 'Before the first pay', detail: factById('employment.payg_withholding_registration').statement, fact_ids: ['employment.payg_withholding_registration'] }] : []),
    ...(first ? [{ item: 'Report pay through Single Touch Payroll', when: 'From the first pay', detail: factById('employment.single_touch_payroll').statement, fact_ids: ['employment.single_touch_payroll'] }] : []),
    { item: 'Give the Fair Work Information Statement', when: 'Before or when the employee starts',
      detail: `${factById('employment.fair_work_information_statement').statement}${type === 'casual' ? ' This employee is casual: give the Casual Employment Information Statement too.' : ''}`, fact_ids: ['employment.fair_work_information_statement'] },
    { item: 'Tax file number declaration', when: 'When the employee starts', detail: factById('employment.tfn_and_super_choice_forms').statement, fact_ids: ['employment.tfn_and_super_choice_forms'] },
    { item: 'Offer super choice', when: `Within ${factValue('employment.super_choice_days')} days of the start`, detail: factById('employment.super_choice_days').statement, fact_ids: ['employment.super_choice_days', 'employment.tfn_and_super_choice_forms'] },
    { item: 'Pay the super guarantee', when: 'Each pay period', detail: `${percent(factValue('super.guarantee_rate'))} of ordinary time earnings. ${factById('super.guarantee_rate').statement}`, fact_ids: ['super.guarantee_rate'] },
    { item: 'Payday Super', when: `From ${payday.applies_from}`, detail: payday.statement, fact_ids: ['super.payday_super'] },
    workersComp(state),
    { item: 'WHS induction (White Card) before construction work', when: 'Before the first day on site', detail: factById('employment.white_card').statement, fact_ids: ['employment.white_card'] },
    ...(state ? [payrollTax(state)] : []),
  ]
  const facts = cite([...new Set(items.flatMap((i) => i.fact_ids))], ctx.today)
  const standingOf = (ids: string[]) => facts.find((f) => f.id === ids[0])!.standing
  const withStanding = items.map((i) => ({ ...i, standing: standingOf(i.fact_ids) }))
  const future = withStanding.filter((i) => i.standing === 'from_a_future_date')
  return {
    state, items: withStanding,
    summary: [
      `${withStanding.length} things to do for a ${type.replace('_', '-')} employee${state ? ` in ${state}` : ''}${first ? ', including the one-off employer registrations' : ''}.`,
      ...future.map((i) => `${i.item} applies from a future date (${i.when.replace(/^From /, '')}), not yet on your date (${ctx.today}): plan for it.`),
      ...(withStanding.some((i) => i.item === 'Payday Super' && i.standing === 'current') ? [`Payday Super applies now: super reaches the fund within ${factValue('super.payday_super')} business days of each payday.`] : []),
      'Next: cost the role (hiring.cost_calculator) and check readiness (hiring.readiness_score).',
    ],
    inputs: [
      used('state', state ?? 'unknown', input.state ? 'supplied' : state ? 'company_data' : 'assumed'),
      used('employment_type', type, input.employment_type ? 'supplied' : 'assumed'),
      used('first_employee', first ? 'yes' : 'no', input.first_employee === undefined ? 'assumed' : 'supplied'),
    ],
    facts, disclaimer: GENERAL_INFORMATION,
  }
}

function workersComp(state: State | null): Item {
  const item = 'Take out workers\' compensation insurance'
  const when = 'Before the employee starts'
  if (state === 'QLD' || state === 'VIC') {
    const id = `workers_comp.${state.toLowerCase()}.average_rate`
    return { item, when, detail: `${factById(id).statement} Get a quote for your industry.`, fact_ids: [id] }
  }
  if (state === 'NSW') return { item, when, detail: `With icare. ${factById('workers_comp.nsw.minimum_premium').statement}`, fact_ids: ['workers_comp.nsw.minimum_premium'] }
  return { item, when, detail: `With your state's insurer or regulator${state ? ` (${state})` : ''}. ${factById('workers_comp.au.industry_rates').statement}`, fact_ids: ['workers_comp.au.industry_rates'] }
}

function payrollTax(state: State): Item {
  const key = state.toLowerCase()
  const threshold = factValue(`payroll_tax.${key}.threshold`) / 100
  return { item: 'Watch the payroll tax threshold', when: 'Once yearly wages near the threshold',
    detail: `Register with the ${state} revenue office once yearly wages pass ${dollars(threshold)}. ${factById(`payroll_tax.${key}.rate`).statement}`,
    fact_ids: [`payroll_tax.${key}.threshold`, `payroll_tax.${key}.rate`] }
}
