// Small TypeBox helpers shared by domain schemas.
import Type, { type TSchema } from 'typebox'

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
export const DateTime = (options: object = {}) => Type.String({ format: 'date-time', ...options })
/** A string enum as plain JSON Schema ({type, enum}), statically typed as the union of its values. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
/**
 * What an amount of money is with respect to GST (docs/decisions.md, "Money says whether it
 * includes GST"): `incl` includes 10% GST, `ex` excludes it, `gst` is the GST itself, `none` is an
 * amount GST does not apply to (wages, budgets, turnover, a plan price that says so elsewhere).
 */
export type GstBasis = 'incl' | 'ex' | 'gst' | 'none'
export const GST_WORDING: Record<GstBasis, string> = {
  incl: 'AUD dollars, incl. GST',
  ex: 'AUD dollars, ex GST',
  gst: 'AUD dollars, the GST itself',
  none: 'AUD dollars, GST not applicable',
}

/**
 * Dollars (AUD) as a number with at most two decimals (parseDollars); stored as cents. Every money
 * field says whether it includes GST: the basis is written into its description ("... (AUD dollars,
 * incl. GST)"), which test/money-fields.test.ts checks over every tool's input and output. A positive
 * amount (exclusiveMinimum 0) starts at one cent: 5e-324 has "at most two decimals" yet is 0 cents,
 * so it is published and checked as minimum 0.01 and refused by name before any arithmetic.
 */
export const Dollars = (gst: GstBasis, options: { description?: string; exclusiveMinimum?: number } & Record<string, unknown> = {}) => {
  const { exclusiveMinimum, ...rest } = options
  const bounds = exclusiveMinimum === 0 ? { minimum: 0.01, ...rest } : options
  return Type.Number({ ...bounds, description: options.description ? `${options.description} (${GST_WORDING[gst]})` : GST_WORDING[gst] })
}

export const EmptyInput = Type.Object({}, { additionalProperties: false })
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Error code, e.g. validation_error' }),
    message: Type.String(),
    messages: Type.Optional(Type.Array(Type.String())),
    available_plans: Type.Optional(Type.Array(Type.String())),
    retry_after_seconds: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
)

/**
 * Options for an update tool's input: unknown fields are refused, and besides the id at least one
 * field to change must be given (minProperties 2), so the rule is in the published schema itself.
 */
export const UPDATE_OPTIONS = { additionalProperties: false, minProperties: 2 } as const
