// Input validation with TypeBox, turning its errors into the spec's validation_error messages.
import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { validationError } from './errors.js'

const compiled = new WeakMap<TSchema, Validator>()

export function validatorFor(schema: TSchema): Validator {
  let v = compiled.get(schema)
  if (!v) {
    v = Compile(schema)
    compiled.set(schema, v)
  }
  return v
}

/** Human-readable messages, one per problem, naming the field. */
export function describeErrors(schema: TSchema, value: unknown): string[] {
  const out = new Set<string>()
  for (const e of validatorFor(schema).Errors(value)) {
    if (e.keyword === 'boolean') continue // duplicate of an additionalProperties error
    const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.')
    if (e.keyword === 'additionalProperties') {
      const names = (e.params as { additionalProperties?: string[] }).additionalProperties ?? []
      for (const n of names) out.add(`${field ? field + '.' : ''}${n}: is not a known field`)
      continue
    }
    if (e.keyword === 'required') {
      const names = (e.params as { requiredProperties?: string[] }).requiredProperties ?? []
      for (const n of names) out.add(`${field ? field + '.' : ''}${n}: is required`)
      continue
    }
    if (e.keyword === 'const' && e.schemaPath.includes('anyOf')) continue // reported by anyOf below
    if (e.keyword === 'minProperties' && !field) {
      const id = (schema as { required?: string[] }).required?.[0]
      out.add(`body: give at least one field to change${id ? ` besides ${id}` : ''}`)
      continue
    }
    out.add(`${field || 'body'}: ${e.message}`)
  }
  return [...out]
}

/**
 * Applies defaults, converts strings (query parameters) to the schema's types, and checks.
 * Returns the parsed value or throws validation_error with every problem listed.
 */
export function parseInput<T>(schema: TSchema, raw: unknown, options: { convert?: boolean } = {}): T {
  const v = validatorFor(schema)
  let value = v.Default(structuredClone(raw ?? {}))
  if (options.convert) {
    const given = typeof value === 'object' && value !== null ? { ...(value as Record<string, unknown>) } : value
    value = keepUnreadableNumbers(schema, given, v.Convert(value))
  }
  if (!v.Check(value)) throw validationError(describeErrors(schema, value))
  return value as T
}

const DECIMAL_INTEGER = /^\s*[-+]?\d+\s*$/
const DECIMAL_NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/

/**
 * TypeBox's Convert reads a query string's "1.5" as the integer 1 and "0x10" as 16. A query value
 * that is not a plain decimal of the property's type keeps its string, so the check refuses it
 * naming the field, instead of the call quietly running with another number.
 */
function keepUnreadableNumbers(schema: TSchema, before: unknown, after: unknown): unknown {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties
  if (!properties || typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return after
  const input = before as Record<string, unknown>
  const out = after as Record<string, unknown>
  for (const [name, property] of Object.entries(properties)) {
    const given = input[name]
    if (typeof given !== 'string') continue
    const types = ([] as unknown[]).concat(property.type ?? [])
    if (types.includes('integer') && !types.includes('number') && !DECIMAL_INTEGER.test(given)) out[name] = given
    else if (types.includes('number') && !DECIMAL_NUMBER.test(given)) out[name] = given
  }
  return out
}
