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
  if (options.convert) value = v.Convert(value)
  if (!v.Check(value)) throw validationError(describeErrors(schema, value))
  return value as T
}
