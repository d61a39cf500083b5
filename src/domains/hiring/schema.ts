// The hiring tools' inputs (as SPEC section 8 names them) and outputs. Every result carries plain
// sentences with the numbers, the inputs it was given or assumed, the facts it used (with their
// dates and standing on the company's date) and the general-information caveat.
import Type from 'typebox'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { CitationsSchema, ScoreFactorSchema } from '../../facts/schema.js'
import { AuState, closed, Trade } from '../shared-schema.js'

export const ROLES = ['apprentice', 'tradesperson', 'labourer', 'office_admin'] as const
export const AWARDS = ['MA000020', 'MA000025', 'MA000036'] as const
export type AwardCode = (typeof AWARDS)[number]

const Role = StringEnum(ROLES, { description: 'Role to hire' })
const EmploymentType = StringEnum(['full_time', 'part_time', 'casual'] as const, { default: 'full_time', description: 'Employment type' })
const Award = StringEnum(AWARDS, {
  description: 'Modern award: MA000020 Building and Construction General On-site, MA000025 Electrical Contracting, MA000036 Plumbing and Fire Sprinklers; inferred from the trade when omitted',
})

export const CapacityInput = Type.Object(
  {
    weeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, default: 12, description: 'Weeks of history to analyse' })),
    team_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'People doing billable work, including the owner, if not recorded' })),
    hours_per_person_per_week: Type.Optional(Type.Number({ minimum: 1, maximum: 80, description: 'Available working hours per person per week; 38 (a full-time week) when omitted' })),
    hours_per_job: Type.Optional(Type.Number({ minimum: 0.5, maximum: 200, description: 'Average hours of work per job; jobs carry no hours, so 8 (one working day) is assumed when omitted' })),
  },
  closed,
)

export const ReadinessInput = Type.Object(
  {
    role: Type.Optional(Role),
    state: Type.Optional(AuState()),
    cash_reserves: Type.Optional(Dollars('none', { minimum: 0, description: 'Cash available' })),
  },
  closed,
)

export const CostInput = Type.Object(
  {
    role: Type.Optional(Role),
    employment_type: Type.Optional(EmploymentType),
    award: Type.Optional(Award),
    trade: Type.Optional(Trade()),
    hourly_rate: Type.Optional(Dollars('none', { minimum: 0, description: 'Agreed hourly wage; the award minimum is used when omitted' })),
    hours_per_week: Type.Optional(Type.Number({ minimum: 1, maximum: 60, default: 38, description: 'Ordinary hours per week' })),
    apprentice_year: Type.Optional(Type.Integer({ minimum: 1, maximum: 4, description: 'Apprenticeship year (for apprentices)' })),
    state: Type.Optional(AuState('State or territory, for payroll tax and workers compensation')),
    existing_annual_payroll: Type.Optional(Dollars('none', { minimum: 0, description: 'Current yearly wages, to check the payroll tax threshold' })),
  },
  closed,
)

export const ApprenticeInput = Type.Object(
  {
    trade: Type.Optional(Trade()),
    state: Type.Optional(AuState()),
    employment_type: Type.Optional(StringEnum(['full_time', 'part_time'] as const, { default: 'full_time', description: 'Full-time or part-time apprenticeship' })),
    adult_apprentice: Type.Optional(Type.Boolean({ description: 'Whether the apprentice is an adult apprentice, which can change the wage rate' })),
  },
  closed,
)

export const ComplianceInput = Type.Object(
  {
    state: Type.Optional(AuState()),
    employment_type: Type.Optional(EmploymentType),
    first_employee: Type.Optional(Type.Boolean({ default: true, description: 'Whether this is the first employee (include one-off registrations)' })),
  },
  closed,
)

export const INPUT_ORIGINS = ['supplied', 'company_data', 'assumed'] as const
export type InputOrigin = (typeof INPUT_ORIGINS)[number]
const Origin = StringEnum(INPUT_ORIGINS, { description: 'supplied by the caller, read from the company\'s own data, or assumed' })

export const InputUsed = Type.Object({
  name: Type.String(),
  value: Type.String({ description: 'As used, in words' }),
  origin: Origin,
})

const common = {
  summary: Type.Array(Type.String(), { description: 'Plain sentences with the numbers, for the owner' }),
  inputs: Type.Array(InputUsed, { description: 'Every input the result rests on, and where it came from' }),
  facts: CitationsSchema,
  disclaimer: Type.String(),
}

const scored = {
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'The sum of the factors\' points, rounded' }),
  factors: Type.Array(ScoreFactorSchema, { description: 'How the score was made, factor by factor' }),
}

export const CapacityResponse = Type.Object({
  ...scored,
  window: Type.Object({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }), weeks: Type.Integer() }),
  team_size: Type.Integer(),
  capacity_hours_per_week: Type.Number({ description: 'Team hours available per week' }),
  booked_hours_per_week: Type.Number({ description: 'Hours of booked or done jobs per week in the window (jobs x hours per job)' }),
  utilisation_percent: Type.Number(),
  forward_booked_weeks: Type.Number({ description: 'Weeks of capacity already filled by scheduled jobs from today' }),
  open_leads: Type.Integer(),
  win_rate_percent: Type.Union([Type.Number(), Type.Null()], { description: 'Accepted quotes out of decided ones in the window; null when none was decided' }),
  turned_down_leads: Type.Integer({ description: 'Leads lost in the window without a quote (work turned away or not followed up)' }),
  verdict: StringEnum(['room_to_grow', 'near_capacity', 'hire_now'] as const),
  ...common,
})

export const ReadinessResponse = Type.Object({
  ...scored,
  role: StringEnum(ROLES),
  state: Type.Union([StringEnum(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const), Type.Null()]),
  quarter_cost: Dollars('none', { description: 'Thirteen weeks of the role\'s full cost (cost_calculator on its defaults), the reserve the cash factor measures against' }),
  gaps: Type.Array(Type.String(), { description: 'What to close before hiring' }),
  ...common,
})

const money = (description: string) => Dollars('none', { description })

export const CostResponse = Type.Object({
  role: StringEnum(ROLES),
  employment_type: StringEnum(['full_time', 'part_time', 'casual'] as const),
  award: StringEnum(AWARDS),
  state: Type.Union([StringEnum(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const), Type.Null()]),
  hours_per_week: Type.Number(),
  hourly_rate: money('Hourly wage used'),
  wage_basis: StringEnum(['supplied', 'minimum_wage_floor', 'apprentice_percentage_of_minimum_wage'] as const, {
    description: 'supplied: the caller\'s rate; minimum_wage_floor: the National Minimum Wage, a floor only (the award rate is not held); apprentice_percentage_of_minimum_wage: the apprentice percentage applied to that floor',
  }),
  lines: Type.Array(Type.Object({
    name: Type.String(),
    per_year: money('Per year'),
    included: Type.Boolean({ description: 'false when no sourced figure exists for it (then per_year is 0)' }),
    how: Type.String({ description: 'How it was worked out, or why it is left out' }),
  })),
  total: Type.Object({
    per_hour: money('Full cost per ordinary hour'),
    per_week: money('Full cost per week'),
    per_year: money('Full cost per year'),
  }),
  on_costs_per_year: money('Everything on top of the wage per year'),
  ...common,
})

export const Step = Type.Object({
  step: Type.Integer(),
  title: Type.String(),
  detail: Type.String(),
  fact_ids: Type.Array(Type.String(), { description: 'Facts this step rests on (see facts)' }),
})

export const ApprenticeResponse = Type.Object({
  award: StringEnum(AWARDS),
  award_origin: Origin,
  state: Type.Union([StringEnum(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const), Type.Null()]),
  wage_percentages: Type.Array(Type.Object({
    year: Type.Integer(),
    percent_of_trade_rate: Type.Union([Type.Number(), Type.Null()], { description: 'null when unconfirmed' }),
    confidence: StringEnum(['official', 'third_party', 'unconfirmed'] as const),
    fact_id: Type.String(),
  })),
  steps: Type.Array(Step),
  obligations: Type.Array(Type.String()),
  ...common,
})

export const ComplianceResponse = Type.Object({
  state: Type.Union([StringEnum(['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const), Type.Null()]),
  items: Type.Array(Type.Object({
    item: Type.String(),
    when: Type.String(),
    detail: Type.String(),
    standing: StringEnum(['current', 'past_its_date', 'from_a_future_date'] as const, { description: 'Whether the rule applies on the company\'s date' }),
    fact_ids: Type.Array(Type.String()),
  })),
  ...common,
})
