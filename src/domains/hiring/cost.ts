// hiring.cost_calculator: the full cost of an employee per hour, week and year. The wage is the
// caller's rate, else the National Minimum Wage as a labelled floor (the award rates are not held in
// the facts); super, leave loading, workers' compensation and payroll tax come from dated facts, and
// a line with no sourced figure is shown as left out rather than guessed.
import type { Static } from 'typebox'
import { cite, factById, factValue, GENERAL_INFORMATION } from '../../facts/facts.js'
import { awardForTrade, factKey } from './award.js'
import { dollars, percent, round2, used } from './factors.js'
import type { CostInput, CostResponse } from './schema.js'

const WEEKS_PER_YEAR = 52
type State = NonNullable<Static<typeof CostResponse>['state']>
type Line = Static<typeof CostResponse>['lines'][number]

export interface CostContext { today: string; companyState: string | null; companyTrade: string | null }

function wageRate(input: Static<typeof CostInput>, award: string, role: string, ids: string[]) {
  if (input.hourly_rate !== undefined) return { rate: input.hourly_rate, basis: 'supplied' as const, note: `Your rate of ${dollars(input.hourly_rate)} an hour.` }
  const floor = factValue('employment.national_minimum_wage_hourly') / 100
  ids.push('employment.national_minimum_wage_hourly', `employment.award.${award}.trade_rate`)
  if (role === 'apprentice') {
    const id = `apprentice.${award}.year${input.apprentice_year ?? 1}`
    ids.push(id)
    const pct = factById(id).value
    if (pct !== null) {
      return { rate: round2(floor * pct), basis: 'apprentice_percentage_of_minimum_wage' as const,
        note: `An apprentice in year ${input.apprentice_year ?? 1} gets at least ${percent(pct)} of the trade rate; the trade rate is not held, so ${percent(pct)} of the National Minimum Wage (${dollars(floor)}) is shown as an illustration: read the real rate from the FWO pay guide.` }
    }
    return { rate: floor, basis: 'minimum_wage_floor' as const, note: `The apprentice percentage for year ${input.apprentice_year ?? 1} under ${award.toUpperCase()} is unconfirmed and the award rate is not held: the National Minimum Wage (${dollars(floor)} an hour) is shown only as a floor.` }
  }
  return { rate: floor, basis: 'minimum_wage_floor' as const, note: `The ${award.toUpperCase()} award rate is not held in the facts: the National Minimum Wage (${dollars(floor)} an hour) is used only as a floor; a qualified tradesperson's award rate is higher (FWO pay guide).` }
}

function workersComp(state: State | null, wage: number, ids: string[]): Line {
  const name = "Workers' compensation"
  if (!state) return { name, per_year: 0, included: false, how: 'No state given or recorded: pass state.' }
  const avg = `workers_comp.${state.toLowerCase()}.average_rate`
  if (state === 'QLD' || state === 'VIC') {
    ids.push(avg)
    const rate = factValue(avg)
    return { name, per_year: round2(wage * rate), included: true, how: `${state} average premium rate ${percent(rate)} of wages; your industry's rate may differ.` }
  }
  if (state === 'NSW') {
    ids.push('workers_comp.nsw.minimum_premium', 'workers_comp.nsw.average_premium_change', 'workers_comp.au.industry_rates')
    const min = factValue('workers_comp.nsw.minimum_premium') / 100
    return { name, per_year: round2(min), included: true, how: `The NSW average rate is not held; icare's minimum premium of ${dollars(min)} is shown as a floor (average premiums rose ${percent(factValue('workers_comp.nsw.average_premium_change'))} for 2025-26). Ask icare for a quote.` }
  }
  ids.push('workers_comp.au.industry_rates')
  return { name, per_year: 0, included: false, how: `No sourced ${state} rate is held: ask your state insurer for a quote.` }
}

function payrollTax(state: State | null, wage: number, existing: number, ids: string[]): Line {
  const name = 'Payroll tax'
  if (!state) return { name, per_year: 0, included: false, how: 'No state given or recorded: pass state.' }
  const key = state.toLowerCase()
  ids.push(`payroll_tax.${key}.threshold`, `payroll_tax.${key}.rate`)
  const threshold = factValue(`payroll_tax.${key}.threshold`) / 100
  const rate = factValue(`payroll_tax.${key}.rate`)
  const taxable = Math.max(0, existing + wage - threshold) - Math.max(0, existing - threshold)
  const tax = round2(taxable * rate)
  return { name, per_year: tax, included: true,
    how: taxable === 0
      ? `Yearly wages of ${dollars(existing + wage)} with this hire stay under the ${state} threshold of ${dollars(threshold)}: none.`
      : `${dollars(taxable)} of this wage is over the ${state} threshold of ${dollars(threshold)}, at ${percent(rate)} (the basic rate; tiers, regional rates and what counts as wages are set by the state).` }
}

export function calculateCost(input: Static<typeof CostInput>, ctx: CostContext): Static<typeof CostResponse> {
  const ids: string[] = ['super.guarantee_rate', 'super.payday_super']
  const role = input.role ?? 'tradesperson'
  const type = input.employment_type ?? 'full_time'
  const award = input.award ?? awardForTrade(input.trade ?? ctx.companyTrade)
  const key = factKey(award)
  ids.push(`employment.award.${key}`)
  const hours = input.hours_per_week ?? factValue('employment.ordinary_hours_per_week')
  if (input.hours_per_week === undefined) ids.push('employment.ordinary_hours_per_week')
  const state = (input.state ?? ctx.companyState) as State | null
  const { rate, basis, note } = wageRate(input, key, role, ids)
  const wage = round2(rate * hours * WEEKS_PER_YEAR)
  const superRate = factValue('super.guarantee_rate')
  const lines: Line[] = [
    { name: 'Wage', per_year: wage, included: true, how: `${dollars(rate)} an hour x ${hours} hours x ${WEEKS_PER_YEAR} weeks.` },
    { name: 'Super guarantee', per_year: round2(wage * superRate), included: true, how: `${percent(superRate)} of ordinary time earnings (from 1 July 2025).` },
  ]
  if (type === 'casual') {
    lines.push({ name: 'Annual leave loading', per_year: 0, included: false, how: 'Casuals get no paid annual leave; the casual loading that applies instead is not held in the facts (check the award).' })
  } else {
    const loadingId = `employment.award.${key}.leave_loading`
    ids.push(loadingId, 'employment.annual_leave_weeks')
    const loading = factById(loadingId).value
    const weeks = factValue('employment.annual_leave_weeks')
    lines.push(loading === null
      ? { name: 'Annual leave loading', per_year: 0, included: false, how: `The ${award} leave loading is unconfirmed: left out (check the award).` }
      : { name: 'Annual leave loading', per_year: round2(rate * hours * weeks * loading), included: true, how: `${percent(loading)} on ${weeks} weeks of annual leave (the leave itself is paid within the yearly wage).` })
  }
  lines.push(workersComp(state, wage, ids), payrollTax(state, wage, input.existing_annual_payroll ?? 0, ids))
  const perYear = round2(lines.reduce((s, l) => s + l.per_year, 0))
  const total = { per_hour: round2(perYear / (hours * WEEKS_PER_YEAR)), per_week: round2(perYear / WEEKS_PER_YEAR), per_year: perYear }
  const facts = cite(ids, ctx.today)
  const payday = facts.find((f) => f.id === 'super.payday_super')!
  const paydayDays = factValue('super.payday_super')
  const left = lines.filter((l) => !l.included).map((l) => l.name.toLowerCase())
  const summary = [
    `A ${type.replace('_', '-')} ${role} on ${hours} hours a week costs about ${dollars(total.per_year)} a year: ${dollars(total.per_week)} a week, ${dollars(total.per_hour)} an ordinary hour.`,
    note,
    `Super at ${percent(superRate)} adds ${dollars(lines[1]!.per_year)} a year on ${dollars(wage)} of wages.`,
    payday.standing === 'from_a_future_date'
      ? `From ${payday.applies_from} (Payday Super) super must reach the fund within ${paydayDays} business days of each payday: not yet in force on your date (${ctx.today}); plan the cash flow for it.`
      : `Payday Super applies since ${payday.applies_from}: super must reach the fund within ${paydayDays} business days of each payday.`,
    ...(left.length ? [`Left out for want of a sourced figure: ${left.join(', ')}.`] : []),
  ]
  return {
    role, employment_type: type, award, state, hours_per_week: hours, hourly_rate: round2(rate), wage_basis: basis, lines, total,
    on_costs_per_year: round2(perYear - wage), summary,
    inputs: [
      used('role', role, input.role ? 'supplied' : 'assumed'),
      used('employment_type', type, input.employment_type ? 'supplied' : 'assumed'),
      used('award', award, input.award || input.trade ? 'supplied' : ctx.companyTrade ? 'company_data' : 'assumed'),
      used('hourly_rate', dollars(rate), input.hourly_rate !== undefined ? 'supplied' : 'assumed'),
      used('hours_per_week', hours, input.hours_per_week !== undefined ? 'supplied' : 'assumed'),
      ...(role === 'apprentice' ? [used('apprentice_year', input.apprentice_year ?? 1, input.apprentice_year ? 'supplied' : 'assumed')] : []),
      used('state', state ?? 'unknown', input.state ? 'supplied' : state ? 'company_data' : 'assumed'),
      used('existing_annual_payroll', dollars(input.existing_annual_payroll ?? 0), input.existing_annual_payroll !== undefined ? 'supplied' : 'assumed'),
    ],
    facts, disclaimer: GENERAL_INFORMATION,
  }
}
