// Small TypeBox helpers shared by domain schemas.
import Type, { type TSchema } from 'typebox'

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])
export const DateTime = (options: object = {}) => Type.String({ format: 'date-time', ...options })
/** A string enum as plain JSON Schema ({type, enum}), statically typed as the union of its values. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
/**
 * Dollars (AUD) as a number with at most two decimals (parseDollars); stored as cents. A positive
 * amount (exclusiveMinimum 0) starts at one cent: 5e-324 has "at most two decimals" yet is 0 cents,
 * so it is published and checked as minimum 0.01 and refused by name before any arithmetic.
 */
export const Dollars = (options: { exclusiveMinimum?: number } & Record<string, unknown> = {}) => {
  const { exclusiveMinimum, ...rest } = options
  return Type.Number(exclusiveMinimum === 0 ? { minimum: 0.01, ...rest } : options)
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
