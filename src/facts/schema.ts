// The output schema of a cited fact, shared by every advisory tool's result.
import Type, { type Static } from 'typebox'
import { Nullable, StringEnum } from '../core/schema-helpers.js'
import { FACT_CONFIDENCE } from './facts.js'

export const CitationSchema = Type.Object({
  id: Type.String({ description: 'The fact\'s id in the project\'s facts folder' }),
  statement: Type.String(),
  source: Type.String({ description: 'Who says so (page or instrument)' }),
  source_url: Nullable(Type.String()),
  as_of: Type.String({ description: 'When the source was read or the figure published' }),
  confidence: StringEnum(FACT_CONFIDENCE, { description: 'official (government or regulator), third_party (secondary source) or unconfirmed' }),
  applies_from: Nullable(Type.String()),
  applies_to: Nullable(Type.String()),
  standing: StringEnum(['current', 'past_its_date', 'from_a_future_date'] as const, { description: 'On the company\'s date' }),
  caution: Nullable(Type.String({ description: 'Why to take care with it (past its date, future, unconfirmed, secondary source); null when current and official' })),
})

export const CitationsSchema = Type.Array(CitationSchema, { description: 'Every fact this result used, with its source and date' })

export const FACTOR_ORIGINS = ['supplied', 'company_data', 'assumed', 'no_data'] as const
export type FactorOrigin = (typeof FACTOR_ORIGINS)[number]

// One shape for every advisory score's factors, so an agent reads one spelling whichever tool scored.
// The points are `score_points`, not `points`: a plain number named points would read as money
// (test/money-fields.test.ts), and the word "score" says it is not.
export const ScoreFactorSchema = Type.Object({
  factor: Type.String({ description: 'What is scored' }),
  weight: Type.Integer({ minimum: 0, maximum: 100, description: 'Most points this factor can give; the weights add up to 100' }),
  input: Type.String({ description: 'The figure it was scored on, in words' }),
  origin: StringEnum(FACTOR_ORIGINS, { description: 'Where the input came from: supplied in this call, company_data (your records), assumed, or no_data (nothing to score on)' }),
  score_points: Type.Number({ minimum: 0, maximum: 100, description: 'Points given, 0 to the weight' }),
  explanation: Type.String(),
})
export type ScoreFactor = Static<typeof ScoreFactorSchema>
