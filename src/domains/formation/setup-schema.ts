// Input and output schemas of the setup tools: formation.requirements, formation.checklist,
// formation.guided_setup and formation.recommend_trade. Inputs are the spec's fields as they were
// planned; every output says which inputs were supplied, taken from the company or assumed, cites
// each fact it used (src/facts) and ends with the general-information caveat.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { CitationsSchema, ScoreFactorSchema } from '../../facts/schema.js'
import { AuState, BUSINESS_STRUCTURES, closed, Trade } from '../shared-schema.js'
import { TRADE_KINDS } from './trades.js'

const Structure = StringEnum(BUSINESS_STRUCTURES, { description: 'Business structure' })

export const RequirementsInput = Type.Object(
  {
    trade: Type.Optional(Trade()),
    state: Type.Optional(AuState()),
    structure: Type.Optional(Structure),
    residential: Type.Optional(Type.Boolean({ default: true, description: 'Whether the business will do residential work (home-warranty insurance rules)' })),
  },
  closed,
)

export const ChecklistInput = Type.Object(
  {
    trade: Type.Optional(Trade()),
    state: Type.Optional(AuState()),
    structure: Type.Optional(Structure),
    plans_employees: Type.Optional(Type.Boolean({ description: 'Include employer tasks (PAYG withholding, Single Touch Payroll, super, workers compensation)' })),
    registered_for_gst: Type.Optional(Type.Boolean({ description: 'Whether the business is registered for GST' })),
  },
  closed,
)

export const GuidedSetupInput = Type.Object(
  {
    trade: Type.Optional(Trade()),
    state: Type.Optional(AuState('State or territory where the business will operate')),
    structure: Type.Optional(Structure),
    has_abn: Type.Optional(Type.Boolean({ description: 'Whether the owner already has an ABN' })),
    expected_annual_turnover: Type.Optional(Dollars('none', { minimum: 0, description: 'Expected turnover for the first year' })),
    plans_employees: Type.Optional(Type.Boolean({ description: 'Whether staff or apprentices will be hired in the first year' })),
  },
  closed,
)

export const RecommendTradeInput = Type.Object(
  {
    skills: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 30, description: 'Skills and experience, e.g. "welding", "customer service"' })),
    qualifications: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 30, description: 'Qualifications or licences held, e.g. "Cert III Plumbing", "White Card"' })),
    state: Type.Optional(AuState()),
    startup_budget: Type.Optional(Dollars('none', { minimum: 0, description: 'Money available to start' })),
    preferences: Type.Optional(Type.String({ maxLength: 1000, description: 'Anything else, e.g. "prefer indoor work", "no heights"' })),
  },
  closed,
)

const ORIGINS = ['supplied', 'company', 'assumed'] as const
export type InputOrigin = (typeof ORIGINS)[number]

export const InputUsedSchema = Type.Object({
  name: Type.String({ description: 'The input' }),
  value: Type.String({ description: 'Its value as used' }),
  origin: StringEnum(ORIGINS, { description: 'supplied (in this call), company (from the company\'s own data) or assumed' }),
})

/** What every setup result carries besides its own fields. */
const advisory = {
  summary: Type.Array(Type.String(), { description: 'Plain sentences with the figures, for the owner' }),
  inputs: Type.Array(InputUsedSchema, { description: 'Each input the result used and where it came from' }),
  facts: CitationsSchema,
  disclaimer: Type.String({ description: 'General information, not advice' }),
}

const GROUPS = ['registration', 'tax', 'licensing', 'insurance', 'employment', 'operations'] as const
export type SetupGroup = (typeof GROUPS)[number]

const itemFields = {
  key: Type.String({ description: 'Stable key of the requirement, e.g. "abn", "licence.electrical", "home_warranty"' }),
  group: StringEnum(GROUPS),
  title: Type.String(),
  detail: Type.String({ description: 'What it means, with the figures from the cited facts' }),
  when: Nullable(Type.String({ description: 'When it is due, if there is a time' })),
  unconfirmed: Type.Boolean({ description: 'True when a fact it rests on is unconfirmed: check with the regulator' }),
  fact_ids: Type.Array(Type.String(), { description: 'The facts (in `facts`) it rests on' }),
}

export const RequirementSchema = Type.Object(itemFields)

export const RequirementsResponse = Type.Object({
  trade: Nullable(Type.String()),
  trade_kinds: Type.Array(StringEnum(TRADE_KINDS), { description: 'The trade kinds the trade was read as (empty: none recognised)' }),
  state: Nullable(AuState()),
  requirements: Type.Array(RequirementSchema),
  ...advisory,
})

export const ChecklistItemSchema = Type.Object({
  ...itemFields,
  done: Type.Boolean({ description: 'True when the company\'s data or the input shows it is done' }),
  done_because: Nullable(Type.String({ description: 'What shows it is done' })),
})

export const ChecklistResponse = Type.Object({
  trade: Nullable(Type.String()),
  state: Nullable(AuState()),
  groups: Type.Array(Type.Object({ group: StringEnum(GROUPS), items: Type.Array(ChecklistItemSchema) })),
  done_count: Type.Integer({ minimum: 0 }),
  total_count: Type.Integer({ minimum: 0 }),
  ...advisory,
})

const STEP_STATUSES = ['done', 'next', 'to_do', 'optional'] as const
export type StepStatus = (typeof STEP_STATUSES)[number]

export const GuidedStepSchema = Type.Object({
  step: Type.Integer({ minimum: 1 }),
  ...itemFields,
  status: StringEnum(STEP_STATUSES, { description: 'done; next (the first step not done); to_do; optional (not required on the answers given)' }),
  status_because: Nullable(Type.String({ description: 'Why it has this status, e.g. "ABN recorded in your profile"' })),
})

export const GuidedSetupResponse = Type.Object({
  trade: Nullable(Type.String()),
  state: Nullable(AuState()),
  structure: Nullable(Structure),
  steps: Type.Array(GuidedStepSchema),
  next: Nullable(Type.String({ description: 'The key of the next step; null when every required step is done' })),
  done_count: Type.Integer({ minimum: 0 }),
  ...advisory,
})

export const TradeRecommendationSchema = Type.Object({
  kind: StringEnum(TRADE_KINDS),
  trade: Type.String(),
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'Fit from 0 to 100: the sum of the factors\' points' }),
  factors: Type.Array(ScoreFactorSchema),
  reasons: Type.Array(Type.String()),
  licensing: Type.Array(Type.String({ description: 'The licensing path in the state, from the cited facts' })),
  fact_ids: Type.Array(Type.String()),
})

export const RecommendTradeResponse = Type.Object({
  state: Nullable(AuState()),
  recommendations: Type.Array(TradeRecommendationSchema, { description: 'Best fit first' }),
  not_scored: Type.Array(Type.String(), { description: 'What was not scored, and why' }),
  ...advisory,
})
