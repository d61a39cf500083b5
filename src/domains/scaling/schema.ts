// scaling.readiness_score: the spec's input fields (unchanged from the planned tool) and the output,
// a 0-100 score explained factor by factor.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { closed } from '../shared-schema.js'
import { adviceFields, PROVENANCE } from '../lifecycle/advice-schema.js'

export const SCALING_GOALS = ['add_crew', 'new_location', 'new_service', 'commercial_work'] as const

export const ReadinessInput = Type.Object(
  {
    goal: Type.Optional(StringEnum(SCALING_GOALS, { description: 'The kind of growth planned' })),
    target_annual_revenue: Type.Optional(Dollars('none', { minimum: 0, description: 'Revenue target' })),
  },
  closed,
)

export const FactorSchema = Type.Object({
  factor: Type.String({ description: 'What is scored' }),
  weight: Type.Integer({ description: 'Its share of the 100 points' }),
  input: Type.String({ description: 'The figure behind it, as read, or "not known"' }),
  input_ratio: Nullable(Type.Number({ description: 'The figure as a fraction (0.25 = 25%); null when not known' })),
  provenance: StringEnum(PROVENANCE, { description: 'company_data (your records) or assumed (no records: 0 points)' }),
  score_points: Type.Number({ description: 'Points given, out of the weight' }),
  explanation: Type.String({ description: 'How the points follow from the input (the scale is ours, not a published one)' }),
})

export const ReadinessResponse = Type.Object({
  business_name: Type.String(),
  goal: Nullable(StringEnum(SCALING_GOALS)),
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'Readiness to scale, 0 to 100: the sum of the factors\' points' }),
  factors: Type.Array(FactorSchema),
  summary: Type.Array(Type.String(), { description: 'The score in plain sentences with the numbers' }),
  gaps: Type.Array(Type.String(), { description: 'What to close first, weakest factor first' }),
  target: Nullable(Type.Object({
    target_annual_revenue: Dollars('none', { description: 'The target given' }),
    revenue_last_12_months: Dollars('ex', { description: 'Payments received in the last 12 months' }),
    growth_needed_percent: Nullable(Type.Number({ description: 'How much above the last 12 months the target is; null with no revenue recorded' })),
  })),
  ...adviceFields,
})
