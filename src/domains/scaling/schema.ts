// scaling.readiness_score: the spec's input fields (unchanged from the planned tool) and the output,
// a 0-100 score explained factor by factor.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { closed } from '../shared-schema.js'
import { ScoreFactorSchema } from '../../facts/schema.js'
import { adviceFields } from '../lifecycle/advice-schema.js'

export const SCALING_GOALS = ['add_crew', 'new_location', 'new_service', 'commercial_work'] as const

export const ReadinessInput = Type.Object(
  {
    goal: Type.Optional(StringEnum(SCALING_GOALS, { description: 'The kind of growth planned' })),
    target_annual_revenue: Type.Optional(Dollars('none', { minimum: 0, description: 'Revenue target' })),
  },
  closed,
)

export const ReadinessResponse = Type.Object({
  business_name: Type.String(),
  goal: Nullable(StringEnum(SCALING_GOALS)),
  score: Type.Integer({ minimum: 0, maximum: 100, description: 'Readiness to scale, 0 to 100: the sum of the factors\' points' }),
  factors: Type.Array(ScoreFactorSchema, { description: 'A factor your records cannot show is no_data and scores 0 (the scales are ours, not published ones)' }),
  summary: Type.Array(Type.String(), { description: 'The score in plain sentences with the numbers' }),
  gaps: Type.Array(Type.String(), { description: 'What to close first, weakest factor first' }),
  target: Nullable(Type.Object({
    target_annual_revenue: Dollars('none', { description: 'The target given' }),
    revenue_last_12_months: Dollars('ex', { description: 'Payments received in the last 12 months' }),
    growth_needed_percent: Nullable(Type.Number({ description: 'How much above the last 12 months the target is; null with no revenue recorded' })),
  })),
  ...adviceFields,
})
