// Output parts every lifecycle, scaling and funding result shares (issue 26): which inputs were
// supplied, read from the company's records or assumed; the facts used; the general-information caveat.
import Type, { type Static } from 'typebox'
import { StringEnum } from '../../core/schema-helpers.js'
import { CitationsSchema } from '../../facts/schema.js'

export const PROVENANCE = ['supplied', 'company_data', 'assumed'] as const
export type Provenance = (typeof PROVENANCE)[number]

export const InputUsedSchema = Type.Object({
  name: Type.String({ description: 'The input, e.g. "annual_turnover"' }),
  value: Type.String({ description: 'Its value as used, e.g. "$182,000.00 ex GST", "2", "not known"' }),
  provenance: StringEnum(PROVENANCE, { description: 'supplied (given in this call), company_data (read from your records) or assumed (neither: what was used instead)' }),
  note: Type.String({ description: 'Where it came from, or why it was assumed' }),
})
export type InputUsed = Static<typeof InputUsedSchema>

export const adviceFields = {
  inputs: Type.Array(InputUsedSchema, { description: 'Every input the result used, and whether it was supplied, from your records or assumed' }),
  facts: CitationsSchema,
  disclaimer: Type.String({ description: 'General information, not advice' }),
}

export const input = (name: string, value: string, provenance: Provenance, note: string): InputUsed => ({ name, value, provenance, note })
