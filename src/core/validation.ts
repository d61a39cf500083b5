// Input validation with TypeBox, turning its errors into the spec's validation_error messages.
import { didYouMean, knownFieldsAt } from './closest-field.js'
import type { TSchema } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { validationError } from './errors.js'
import { DATE_RANGE_MESSAGE, DATE_TIME_RANGE_MESSAGE, installDateBounds } from './date-bounds.js'

// Before any schema is compiled: the compiled checks take the format functions in at compile time.
installDateBounds()

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
      const known = knownFieldsAt(schema, e.instancePath)
      for (const n of names) out.add(`${field ? field + '.' : ''}${n}: is not a known field${didYouMean(n, known)}`)
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
    out.add(`${field || 'body'}: ${messageOf(schema, e)}`)
  }
  return [...out]
}

const FORMAT_MESSAGES: Record<string, string> = { date: DATE_RANGE_MESSAGE, 'date-time': DATE_TIME_RANGE_MESSAGE }
const NUMBER_BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])

/** TypeBox's message, except where the caller needs the whole range to correct the value. */
function messageOf(schema: TSchema, e: { keyword: string; message: string; schemaPath: string; params: unknown }): string {
  if (e.keyword === 'format') return FORMAT_MESSAGES[(e.params as { format?: string }).format ?? ''] ?? e.message
  if (NUMBER_BOUNDS.has(e.keyword)) {
    const range = rangeOf(schemaAt(schema, e.schemaPath))
    if (range) return `${e.message} (allowed: ${range})`
  }
  return e.message
}

/** The schema a JSON pointer (#/properties/line_items/items) names inside `root`. */
function schemaAt(root: unknown, pointer: string): Record<string, unknown> | undefined {
  let node: unknown = root
  for (const part of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return typeof node === 'object' && node !== null ? node as Record<string, unknown> : undefined
}

/** "from 0.001 to 100000", "more than 0 and at most 100": a number's two bounds (one bound is the message itself). */
function rangeOf(s: Record<string, unknown> | undefined): string | undefined {
  if (!s) return undefined
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = s
  if (typeof minimum === 'number' && typeof maximum === 'number') return `from ${minimum} to ${maximum}`
  const low = typeof minimum === 'number' ? `at least ${minimum}` : typeof exclusiveMinimum === 'number' ? `more than ${exclusiveMinimum}` : undefined
  const high = typeof maximum === 'number' ? `at most ${maximum}` : typeof exclusiveMaximum === 'number' ? `less than ${exclusiveMaximum}` : undefined
  return low && high ? `${low} and ${high}` : undefined
}

/**
 * Applies defaults, converts strings (query parameters) to the schema's types, and checks.
 * Returns the parsed value or throws validation_error with every problem listed.
 */
export function parseInput<T>(schema: TSchema, raw: unknown, options: { convert?: boolean } = {}): T {
  const v = validatorFor(schema)
  const given = raw ?? {}
  const convert = options.convert === true
  const value = parseFlat(schema, given, convert) ?? parseAny(v, schema, given, convert)
  if (!v.Check(value)) throw validationError(describeErrors(schema, value))
  return value as T
}

/**
 * TypeBox's own Default and Convert: any schema, interpreted on each call (about 7 µs a call).
 * Exported as the oracle test/validation-fast-path.test.ts holds the fast path to.
 */
export function parseAny(v: Validator, schema: TSchema, raw: unknown, convert: boolean): unknown {
  let value = v.Default(structuredClone(raw))
  if (convert) {
    const given = typeof value === 'object' && value !== null ? { ...(value as Record<string, unknown>) } : value
    value = keepUnreadableNumbers(schema, given, v.Convert(value))
  }
  return value
}

/**
 * The same result as parseAny for the common case, an object of plain fields (strings, enums,
 * numbers, booleans with primitive defaults; most inputs, every list's query), from a plan made
 * once per schema: under a microsecond. Undefined when the schema or the input is not that case
 * (a string given for a boolean, say): parseAny then applies TypeBox's own rules. The defaults are
 * spread in as one object: adding fields one by one by name is V8's slow path (a microsecond each).
 * Exported for test/validation-fast-path.test.ts, which checks it is the path lists take.
 */
export function parseFlat(schema: TSchema, raw: unknown, convert: boolean): Record<string, unknown> | undefined {
  const plan = flatPlanOf(schema)
  if (!plan || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined
  const value: Record<string, unknown> = { ...plan.defaults, ...(raw as Record<string, unknown>) }
  // TypeBox gives a field sent as undefined its default too.
  for (const name of plan.defaulted) if (value[name] === undefined) value[name] = plan.defaults[name]
  if (!convert) return value
  // Query strings: each field given a string (or not given). Anything else, or a boolean to read, is
  // TypeBox's. (Defaults are already of their field's type.)
  const input = raw as Record<string, unknown>
  for (const [name, read] of plan.fields) {
    const given = input[name]
    if (given === undefined) {
      if (name in input) return undefined // sent as undefined: TypeBox reads that its own way
      continue
    }
    if (typeof given !== 'string' || read === 'boolean') return undefined
    // A value that is not a plain decimal of the field's type stays a string and is refused by name.
    if (read !== 'string' && read.test(given)) value[name] = Number(given)
  }
  return value
}

interface FlatPlan {
  defaults: Record<string, unknown>
  defaulted: string[]
  /** Each field and how a query string is read for it: kept, as a number of this decimal form, or (boolean) by TypeBox. */
  fields: [string, 'string' | 'boolean' | RegExp][]
}
const flatPlans = new WeakMap<TSchema, FlatPlan | null>()

function flatPlanOf(schema: TSchema): FlatPlan | null {
  let plan = flatPlans.get(schema)
  if (plan === undefined) {
    plan = makeFlatPlan(schema)
    flatPlans.set(schema, plan)
  }
  return plan
}

function makeFlatPlan(schema: TSchema): FlatPlan | null {
  const s = schema as { type?: unknown; properties?: Record<string, Record<string, unknown>>; additionalProperties?: unknown }
  if (s.type !== 'object' || !s.properties || (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean')) return null
  const plan: FlatPlan = { defaults: {}, defaulted: [], fields: [] }
  for (const [name, property] of Object.entries(s.properties)) {
    const type = property.type
    if (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean') return null
    if ('default' in property) {
      if ((property.default !== null && typeof property.default === 'object') || typeof property.default === 'function') return null
      plan.defaults[name] = property.default
      plan.defaulted.push(name)
    }
    plan.fields.push([name, type === 'integer' ? DECIMAL_INTEGER : type === 'number' ? DECIMAL_NUMBER : type])
  }
  return plan
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
