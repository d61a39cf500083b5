// Input and output schemas of formation.simulate_business, formation.demand_hotspots and
// formation.location_score (issue 26). Input fields keep the spec's names (the planned tools');
// the rest are optional extras the computation needs (wages, materials, insurance, structure).
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { CitationsSchema, ScoreFactorSchema } from '../../facts/schema.js'
import { AuState, BUSINESS_STRUCTURES, closed, Trade } from '../shared-schema.js'

const Postcode = Type.String({ pattern: '^\\d{4}$', description: 'Four-digit Australian postcode' })
const Sentences = (description: string) => Type.Array(Type.String(), { description })
const Disclaimer = Type.String({ description: 'General information, not advice' })
const InputsUsed = Type.Array(Type.Object({
  name: Type.String({ description: 'Input field' }),
  value: Type.Union([Type.Number(), Type.String(), Type.Null()], { description: 'The value used (money in dollars ex GST; hours, percents and counts as given)' }),
  basis: StringEnum(['supplied', 'company_data', 'fact', 'assumed'] as const, { description: 'supplied by the caller, from the company\'s records, from a cited fact, or assumed' }),
  note: Type.String(),
}), { description: 'Every input the result used, and where it came from' })

export const SimulateInput = Type.Object({
  trade: Type.Optional(Trade('Trade, e.g. plumbing')),
  state: Type.Optional(AuState()),
  structure: Type.Optional(StringEnum(BUSINESS_STRUCTURES, { description: 'Business structure' })),
  hourly_rate: Type.Optional(Dollars('ex', { minimum: 0, maximum: 10_000, description: 'Charge-out rate per hour' })),
  billable_hours_per_week: Type.Optional(Type.Number({ minimum: 0, maximum: 80, description: 'Per tradesperson' })),
  materials_markup_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 500, description: 'On materials' })),
  monthly_materials_cost: Type.Optional(Dollars('ex', { minimum: 0, maximum: 10_000_000 })),
  employees: Type.Optional(Type.Integer({ minimum: 0, maximum: 500, description: 'Besides the owner' })),
  employee_hourly_wage: Type.Optional(Dollars('none', { minimum: 0, maximum: 10_000 })),
  apprentices: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Paid, not billed' })),
  apprentice_hourly_wage: Type.Optional(Dollars('none', { minimum: 0, maximum: 10_000 })),
  startup_costs: Type.Optional(Dollars('ex', { minimum: 0, maximum: 10_000_000 })),
  monthly_overheads: Type.Optional(Dollars('ex', { minimum: 0, maximum: 10_000_000 })),
  monthly_insurance: Type.Optional(Dollars('ex', { minimum: 0, maximum: 10_000_000 })),
  ramp_up_months: Type.Optional(Type.Integer({ minimum: 0, maximum: 24, description: 'To full workload' })),
  weeks_off_per_year: Type.Optional(Type.Number({ minimum: 0, maximum: 52, description: 'Not billed' })),
  months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, default: 12 })),
}, closed)

const Money = (description: string) => Dollars('ex', { description })
const NullableMoney = (description: string) => Nullable(Dollars('ex', { description }))

export const SimulatedMonth = Type.Object({
  month: Type.Integer({ minimum: 1 }),
  billable_hours: Type.Number({ description: 'Hours billed this month, owner and employees' }),
  revenue: Money('Labour plus materials resold'),
  materials_cost: Money('Materials bought'),
  wages: Dollars('none', { description: 'Wages of employees and apprentices (the owner\'s drawings are not included)' }),
  super: Dollars('none', { description: 'Super guarantee on those wages' }),
  insurance: Money('Insurance premiums given'),
  overheads: Money('Fixed monthly costs'),
  startup_costs: Money('One-off startup costs (month 1)'),
  profit_before_tax: Money('Revenue less materials, wages, super, insurance and overheads (startup costs are capital, not in profit)'),
  tax: NullableMoney('Company tax set aside this month on the profit so far; null when not computed (see tax)'),
  profit_after_tax: NullableMoney('Profit less tax; null when tax is not computed'),
  cash_flow: Money('Profit, less tax set aside where computed, less startup costs'),
  cumulative_cash: Money('Sum of cash flows from month 1 (GST collected is held for the ATO and left out)'),
  gst_turnover_current: Money('Revenue this month and the previous 11 (simulated months only)'),
  gst_turnover_projected: Money('Revenue this month and the next 11 (months past the end at the last month\'s figure)'),
  gst_registered: Type.Boolean({ description: 'Registered for GST by this month (the threshold reached this month or before)' }),
})

export const SimulateResponse = Type.Object({
  summary: Sentences('What the simulation shows, in plain sentences with the numbers'),
  months: Type.Array(SimulatedMonth),
  totals: Type.Object({
    revenue: Money('Total revenue'),
    profit_before_tax: Money('Total profit before tax'),
    tax: NullableMoney('Total tax set aside; null when not computed'),
    cumulative_cash: Money('Cash at the end of the last month'),
  }),
  break_even_month: Nullable(Type.Integer({ minimum: 1, description: 'First month whose cumulative cash is zero or more (startup costs recovered); null if not within the simulation' })),
  first_profitable_month: Nullable(Type.Integer({ minimum: 1, description: 'First month with a profit before tax' })),
  gst: Type.Object({
    registration_month: Nullable(Type.Integer({ minimum: 1, description: 'Month the GST turnover reaches the threshold; null if never within the simulation' })),
    explanation: Type.String(),
  }),
  tax: Type.Object({
    computed: Type.Boolean(),
    structure: Nullable(StringEnum(BUSINESS_STRUCTURES)),
    rate_percent: Nullable(Type.Number({ description: 'Tax rate applied, percent' })),
    explanation: Type.String({ description: 'How tax was computed, or why not' }),
  }),
  inputs: InputsUsed,
  assumptions: Sentences('What the simulation assumes'),
  not_included: Sentences('Costs and taxes left out, and why'),
  facts: CitationsSchema,
  disclaimer: Disclaimer,
})

const SuburbFigures = Type.Object({
  suburb: Type.String(),
  leads: Type.Integer({ description: 'Leads in the last 12 months' }),
  won: Type.Integer({ description: 'Of them won (status Won, a quote accepted or a job opened)' }),
  win_rate_percent: Nullable(Type.Number()),
  won_value: Dollars('incl', { description: 'Value of the won work (job amounts, else accepted quote totals)' }),
  average_job_value: Nullable(Dollars('incl', { description: 'Won value / won jobs with a value' })),
})

export const LocationInput = Type.Object({
  suburb: Type.Optional(Type.String({ minLength: 1, description: 'Suburb or town' })),
  postcode: Type.Optional(Postcode),
  state: Type.Optional(AuState()),
  trade: Type.Optional(Trade('Trade, e.g. plumbing')),
  travel_minutes: Type.Optional(Type.Number({ minimum: 0, maximum: 600, description: 'One way, from base' })),
}, closed)

export const LocationResponse = Type.Object({
  suburb: Nullable(Type.String()),
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'Location score 0 to 100; null when there is nothing to score it from' })),
  factors: Type.Array(ScoreFactorSchema, { description: 'Each factor with its weight, input and points (whole points: they sum to the score)' }),
  figures: Nullable(SuburbFigures),
  summary: Sentences('What the score means, in plain sentences'),
  not_shown: Sentences('What could not be used, and why'),
  facts: CitationsSchema,
  disclaimer: Disclaimer,
})

export const HotspotsInput = Type.Object({
  trade: Type.Optional(Trade('Trade, e.g. plumbing')),
  state: Type.Optional(AuState()),
  near_postcode: Type.Optional(Postcode),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'How many areas to return' })),
}, closed)

export const HotspotsResponse = Type.Object({
  hotspots: Type.Array(Type.Object({
    rank: Type.Integer({ minimum: 1 }),
    ...SuburbFigures.properties,
    score: Type.Integer({ minimum: 0, maximum: 100, description: 'Score from your own data (as formation.location_score, travel not counted)' }),
    why: Type.String(),
  })),
  summary: Sentences('What the list shows, in plain sentences'),
  not_shown: Sentences('What could not be used, and why'),
  window: Type.Object({ from: Type.String(), to: Type.String() }),
  facts: CitationsSchema,
  disclaimer: Disclaimer,
})
