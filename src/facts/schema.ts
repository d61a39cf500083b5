// The output schema of a cited fact, shared by every advisory tool's result.
import Type from 'typebox'
import { StringEnum } from '../core/schema-helpers.js'
import { FACT_CONFIDENCE } from './facts.js'

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()])

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
