// formation.simulate_business: 12 (or up to 60) months of revenue, costs, super, profit, tax and
// cash for a trade business, from the caller's figures, the company's profile and cited facts
// (GST threshold, super rate, company tax, indicative trade rates). A figure with no source is
// never filled in: the line is left out or the caller is asked for it, and the result says which.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { centsToDollars, formatCents, parseDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { cite, factById, factValue, GENERAL_INFORMATION } from '../../facts/facts.js'
import { findAdvisoryCompany } from './queries/simulation.js'
import { simulateMonths, type SimulationParams, type SimulationResult } from './simulate-model.js'
import type { SimulateInput, SimulateResponse } from './simulation-schema.js'

type Input = Static<typeof SimulateInput>
type Output = Static<typeof SimulateResponse>
type InputUsed = Output['inputs'][number]
type Structure = NonNullable<Input['structure']>

/** Indicative charge-out rates (reference sheet section 8) by words in the trade's name. */
const TRADE_RATES: { words: RegExp; rate: string; markup?: string }[] = [
  { words: /plumb|gas|drain/i, rate: 'simulation.rate.plumber_hourly_low', markup: 'simulation.rate.plumber_parts_markup_low' },
  { words: /electric|sparky/i, rate: 'simulation.rate.electrician_hourly_low' },
  { words: /carpent|joiner/i, rate: 'simulation.rate.carpenter_hourly_low' },
]

const refuse = (message: string): never => { throw new AppError('validation_error', message) }
const money = (cents: number) => centsToDollars(cents)
/** A fraction as a percent without float noise (0.3 -> 30, not 30.000000000000004). */
const percentOf = (fraction: number) => Math.round(fraction * 10_000) / 100

interface Resolved { params: SimulationParams; inputs: InputUsed[]; factIds: string[]; structure: Structure | null; trade: string | null; notIncluded: string[] }

function resolve(input: Input, company: { trade_type: string | null }): Resolved {
  const inputs: InputUsed[] = []
  const factIds = ['gst.registration_threshold', 'gst.registration_days']
  const notIncluded: string[] = []
  const trade = input.trade?.trim() || company.trade_type
  if (trade) inputs.push({ name: 'trade', value: trade, basis: input.trade ? 'supplied' : 'company_data', note: input.trade ? 'Given' : 'Your company profile\'s trade' })
  const tradeRates = trade ? TRADE_RATES.find((t) => t.words.test(trade)) : undefined

  let hourlyRateCents: number
  if (input.hourly_rate !== undefined) {
    hourlyRateCents = parseDollars(input.hourly_rate, 'hourly_rate')
    inputs.push({ name: 'hourly_rate', value: input.hourly_rate, basis: 'supplied', note: 'Charge-out rate per hour, ex GST' })
  } else if (tradeRates) {
    hourlyRateCents = factValue(tradeRates.rate)
    factIds.push(tradeRates.rate)
    inputs.push({ name: 'hourly_rate', value: money(hourlyRateCents), basis: 'fact', note: `Not given: the low end of the indicative rate for ${trade} (${tradeRates.rate}); give hourly_rate for your own` })
  } else {
    return refuse(`Give hourly_rate (your charge-out rate per hour, ex GST): no sourced indicative rate is held for ${trade ? `"${trade}"` : 'an unnamed trade'}.`)
  }
  if (input.billable_hours_per_week === undefined) return refuse('Give billable_hours_per_week (hours billed per week per tradesperson): no sourced figure is held, and the simulation does not guess one.')
  inputs.push({ name: 'billable_hours_per_week', value: input.billable_hours_per_week, basis: 'supplied', note: 'Per tradesperson, owner and each employee' })

  const employees = input.employees ?? 0
  const apprentices = input.apprentices ?? 0
  const wageOf = (count: number, wage: number | undefined, field: string, who: string): number => {
    if (count === 0) return 0
    if (wage === undefined) return refuse(`Give ${field} for the ${count} ${who}: award rates are not in this tool (hiring.cost_calculator gives the award minimum).`)
    inputs.push({ name: field, value: wage, basis: 'supplied', note: `Per hour, paid for billable_hours_per_week every week of the year` })
    return parseDollars(wage, field)
  }
  inputs.push({ name: 'employees', value: employees, basis: input.employees === undefined ? 'assumed' : 'supplied', note: input.employees === undefined ? 'Not given: the owner works alone' : 'Employed tradespeople besides the owner, each billing the same hours' })
  const employeeWageCents = wageOf(employees, input.employee_hourly_wage, 'employee_hourly_wage', 'employees')
  inputs.push({ name: 'apprentices', value: apprentices, basis: input.apprentices === undefined ? 'assumed' : 'supplied', note: input.apprentices === undefined ? 'Not given: none' : 'Paid, not billed' })
  const apprenticeWageCents = wageOf(apprentices, input.apprentice_hourly_wage, 'apprentice_hourly_wage', 'apprentices')
  if (employees + apprentices > 0) factIds.push('super.guarantee_rate')

  const materialsCostCents = parseDollars(input.monthly_materials_cost ?? 0, 'monthly_materials_cost')
  inputs.push({ name: 'monthly_materials_cost', value: money(materialsCostCents), basis: input.monthly_materials_cost === undefined ? 'assumed' : 'supplied', note: input.monthly_materials_cost === undefined ? 'Not given: no materials bought or resold' : 'At full workload, scaled with the ramp-up' })
  let materialsMarkup = 0
  if (input.materials_markup_percent !== undefined) {
    materialsMarkup = input.materials_markup_percent / 100
    inputs.push({ name: 'materials_markup_percent', value: input.materials_markup_percent, basis: 'supplied', note: 'Markup on materials' })
  } else if (materialsCostCents > 0 && tradeRates?.markup) {
    materialsMarkup = factValue(tradeRates.markup)
    factIds.push(tradeRates.markup)
    inputs.push({ name: 'materials_markup_percent', value: percentOf(materialsMarkup), basis: 'fact', note: `Not given: the low end of the indicative parts markup (${tradeRates.markup})` })
  } else if (materialsCostCents > 0) {
    inputs.push({ name: 'materials_markup_percent', value: 0, basis: 'assumed', note: 'Not given and no sourced markup for this trade: materials resold at cost' })
  }

  const startupCostsCents = parseDollars(input.startup_costs ?? 0, 'startup_costs')
  const overheadsCents = parseDollars(input.monthly_overheads ?? 0, 'monthly_overheads')
  inputs.push({ name: 'startup_costs', value: money(startupCostsCents), basis: input.startup_costs === undefined ? 'assumed' : 'supplied', note: input.startup_costs === undefined ? 'Not given: none' : 'Spent in month 1' })
  inputs.push({ name: 'monthly_overheads', value: money(overheadsCents), basis: input.monthly_overheads === undefined ? 'assumed' : 'supplied', note: input.monthly_overheads === undefined ? 'Not given: none, so profit is overstated' : 'Every month' })
  const insuranceCents = parseDollars(input.monthly_insurance ?? 0, 'monthly_insurance')
  if (input.monthly_insurance === undefined) {
    factIds.push('simulation.insurance.premiums')
    notIncluded.push('Insurance: no sourced premium figure is held, so none is included unless you give monthly_insurance (or count it in monthly_overheads). Ask an insurer or broker for a quote.')
  } else {
    inputs.push({ name: 'monthly_insurance', value: input.monthly_insurance, basis: 'supplied', note: 'Every month' })
  }
  const rampUpMonths = input.ramp_up_months ?? 0
  const weeksOffPerYear = input.weeks_off_per_year ?? 0
  inputs.push({ name: 'ramp_up_months', value: rampUpMonths, basis: input.ramp_up_months === undefined ? 'assumed' : 'supplied', note: input.ramp_up_months === undefined ? 'Not given: full workload from month 1' : 'Month m works m/(ramp_up_months+1) of the hours until full' })
  inputs.push({ name: 'weeks_off_per_year', value: weeksOffPerYear, basis: input.weeks_off_per_year === undefined ? 'assumed' : 'supplied', note: input.weeks_off_per_year === undefined ? 'Not given: every week billed, so revenue is overstated by any leave or quiet weeks' : 'Weeks not billed' })

  const structure = input.structure ?? null
  if (structure) inputs.push({ name: 'structure', value: structure, basis: 'supplied', note: 'Business structure' })
  const params: SimulationParams = {
    months: input.months ?? 12, hourlyRateCents, billableHoursPerWeek: input.billable_hours_per_week, weeksOffPerYear, rampUpMonths,
    employees, employeeWageCents, apprentices, apprenticeWageCents, materialsCostCents, materialsMarkup, startupCostsCents, overheadsCents, insuranceCents,
    superRate: employees + apprentices > 0 ? factValue('super.guarantee_rate') : 0,
    gstThresholdCents: factValue('gst.registration_threshold'),
    taxRate: null,
  }
  return { params, inputs, factIds, structure, trade: trade ?? null, notIncluded }
}

/** The company tax rate from the facts, or why no tax line is computed. */
function taxPlan(structure: Structure | null, annualTurnoverCents: number): { rate: number | null; factIds: string[]; explanation: string } {
  if (!structure) return { rate: null, factIds: [], explanation: 'Tax not computed: give structure (sole_trader, partnership, company or trust). Profit is shown before tax.' }
  if (structure !== 'company') {
    return { rate: null, factIds: ['simulation.tax.individual_rates'], explanation: `Tax not computed for a ${structure.replace('_', ' ')}: the profit is taxed at individual rates in the owners' (or beneficiaries') own returns, and those rates are not in the project's facts (unconfirmed). Profit is shown before tax; set some aside for it.` }
  }
  const limit = factValue('simulation.tax.base_rate_turnover_limit')
  const ids = ['simulation.tax.base_rate_turnover_limit']
  const baseRate = annualTurnoverCents < limit
  const id = baseRate ? 'simulation.tax.company_base_rate' : 'simulation.tax.company_full_rate'
  const rate = factValue(id)
  const why = baseRate
    ? `Company tax at ${percentOf(rate)}% (base-rate entity: annual turnover of about ${formatCents(annualTurnoverCents)} is under ${formatCents(limit)}; the other conditions of the base-rate test are assumed met)`
    : `Company tax at ${percentOf(rate)}% (annual turnover of about ${formatCents(annualTurnoverCents)} is not under ${formatCents(limit)})`
  return { rate, factIds: [...ids, id], explanation: `${why}, set aside each month on the profit so far; a loss offsets later profit. Actual instalments and lodgement dates differ.` }
}

function summaryOf(r: SimulationResult, p: SimulationParams, tax: { rate: number | null }, trade: string | null): string[] {
  const last = r.months.at(-1)!
  const revenue = r.months.reduce((s, m) => s + m.revenue, 0)
  const profit = r.months.reduce((s, m) => s + m.profitBeforeTax, 0)
  const out = [
    `Over ${p.months} months${trade ? ` a ${trade} business` : ''} billing ${formatCents(p.hourlyRateCents)} an hour for ${p.billableHoursPerWeek} hours a week per tradesperson earns ${formatCents(revenue)} (ex GST) and ${formatCents(profit)} profit before tax.`,
    r.breakEvenMonth === null
      ? `Cash does not break even within ${p.months} months: it ends at ${formatCents(last.cumulativeCash)}.`
      : `Cash breaks even (startup costs recovered) in month ${r.breakEvenMonth}, and ends at ${formatCents(last.cumulativeCash)} after month ${p.months}.`,
    r.firstProfitableMonth === null ? 'No month makes a profit: costs exceed revenue throughout.' : `The first month with a profit is month ${r.firstProfitableMonth}.`,
  ]
  out.push(r.gstRegistrationMonth === null
    ? `GST turnover stays under the ${formatCents(p.gstThresholdCents)} threshold throughout: registering is optional.`
    : `GST turnover reaches the ${formatCents(p.gstThresholdCents)} threshold in month ${r.gstRegistrationMonth}: register for GST within ${factValue('gst.registration_days')} days and add GST to your prices from then.`)
  if (tax.rate === null) out.push('No tax line is computed (see tax); profit and cash are before income tax.')
  return out
}

export async function simulateBusiness(deps: Deps, principal: Principal, input: Input): Promise<Output> {
  const { company, today } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    company: await findAdvisoryCompany(tx), today: await companyToday(tx, deps.clock.now()),
  }))
  const resolved = resolve(input, company)
  const first = simulateMonths(resolved.params)
  const annualTurnover = Math.round(first.months.reduce((s, m) => s + m.revenue, 0) * 12 / resolved.params.months)
  const tax = taxPlan(resolved.structure, annualTurnover)
  const result = tax.rate === null ? first : simulateMonths({ ...resolved.params, taxRate: tax.rate })
  const factIds = [...resolved.factIds, ...tax.factIds]
  const totalTax = tax.rate === null ? null : result.months.reduce((s, m) => s + (m.tax ?? 0), 0)
  return {
    summary: summaryOf(result, resolved.params, tax, resolved.trade),
    months: result.months.map((m) => ({
      month: m.month, billable_hours: Math.round(m.billableHours * 100) / 100, revenue: money(m.revenue), materials_cost: money(m.materialsCost), wages: money(m.wages),
      super: money(m.super), insurance: money(m.insurance), overheads: money(m.overheads), startup_costs: money(m.startupCosts),
      profit_before_tax: money(m.profitBeforeTax), tax: m.tax === null ? null : money(m.tax), profit_after_tax: m.tax === null ? null : money(m.profitBeforeTax - m.tax),
      cash_flow: money(m.cashFlow), cumulative_cash: money(m.cumulativeCash), gst_turnover_current: money(m.gstTurnoverCurrent),
      gst_turnover_projected: money(m.gstTurnoverProjected), gst_registered: m.gstRegistered,
    })),
    totals: {
      revenue: money(result.months.reduce((s, m) => s + m.revenue, 0)), profit_before_tax: money(result.months.reduce((s, m) => s + m.profitBeforeTax, 0)),
      tax: totalTax === null ? null : money(totalTax), cumulative_cash: money(result.months.at(-1)!.cumulativeCash),
    },
    break_even_month: result.breakEvenMonth,
    first_profitable_month: result.firstProfitableMonth,
    gst: {
      registration_month: result.gstRegistrationMonth,
      explanation: `${factById('gst.registration_threshold').statement} The simulation tests both: revenue of the month and the previous 11, and of the month and the next 11 (past the last month at its figure). Rates and costs are ex GST: once registered you add GST to your prices and pay it to the ATO, so it changes neither profit nor the cash shown.`,
    },
    tax: { computed: tax.rate !== null, structure: resolved.structure, rate_percent: tax.rate === null ? null : percentOf(tax.rate), explanation: tax.explanation },
    inputs: resolved.inputs,
    assumptions: [
      'A month is 52/12 weeks; billed weeks are reduced by weeks_off_per_year, while staff are paid every week.',
      'Employees bill the same hours as the owner; apprentices are paid, not billed; paid hours equal billable hours (real paid hours are usually higher).',
      'The owner\'s own pay or drawings are not a cost: profit is what is left for the owner (and for tax).',
      'Every invoice is paid in the month it is earned (no debtor days); startup costs are capital spent in month 1, in cash but not in profit.',
    ],
    not_included: [
      ...resolved.notIncluded,
      'Payroll tax and workers\' compensation: not computed here (hiring.cost_calculator gives them by state where sourced).',
      'Depreciation and the tax deduction for startup assets (e.g. the instant asset write-off) are not modelled.',
    ],
    facts: cite(factIds, today),
    disclaimer: GENERAL_INFORMATION,
  }
}
