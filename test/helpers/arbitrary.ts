// fast-check arbitraries generated from an operation's input schema (the JSON Schema subset TypeBox
// emits), mixed with hostile values that once broke the service. Used by the fuzz test so every
// operation, including ones added later, is driven without anyone listing it.
import fc from 'fast-check'

type Schema = Record<string, any>

/** Nested arrays built without recursion (JSON.stringify of this is ~6.6 KB of brackets). */
function deepArray(depth: number): unknown {
  let value: unknown = []
  for (let i = 0; i < depth; i++) value = [value]
  return value
}

/** Values that made the service answer 500 in the attack run, and their relatives. */
export const HOSTILE_VALUES: unknown[] = [
  'a\u0000b',
  '\ud800',
  'lone low \udc00 surrogate',
  'emoji 😀 and CR\r\nLF',
  'x'.repeat(20_000),
  '+275760-09-13T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '1e308',
  '%00',
  "' or 1=1 --",
  '../../etc/passwd',
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  0.5,
  12345678901234567890,
  { toString: 1 },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  [],
  {},
  null,
  true,
  deepArray(3_300),
  // Date, number and empty-string extremes are given to each field alone: fieldExtremes below.
]

/** Dates at and past the edges of what date arithmetic and Postgres hold, and calendar traps. */
export const DATE_EXTREMES = ['0000-01-01', '9999-12-31', '1970-01-01', '2024-02-29', '2023-02-29']
/** The smallest denormal, negative zero and the largest finite numbers. */
export const NUMBER_EXTREMES = [5e-324, -0, 1e308, -1e308]

export type FieldPath = (string | number)[]

/**
 * For every field of a schema (nested objects, the first item of arrays), the extremes of its type:
 * a date field gets DATE_EXTREMES (as date-times for a date-time), a number NUMBER_EXTREMES, and
 * every string the empty string. Each is meant to replace that one field in an otherwise fitting
 * input, so it reaches the code after validation when validation lets it through.
 */
export function fieldExtremes(schema: Schema, path: FieldPath = []): { path: FieldPath; value: unknown }[] {
  const out: { path: FieldPath; value: unknown }[] = []
  const alternatives: Schema[] = schema.anyOf ?? schema.oneOf ?? [schema]
  for (const s of alternatives) {
    const type = Array.isArray(s.type) ? s.type[0] : s.type
    if (type === 'string') {
      if (s.format === 'date') out.push(...DATE_EXTREMES.map((value) => ({ path, value })))
      if (s.format === 'date-time') out.push(...DATE_EXTREMES.map((d) => ({ path, value: `${d}T00:00:00Z` })))
      out.push({ path, value: '' })
    } else if (type === 'number' || type === 'integer') {
      out.push(...NUMBER_EXTREMES.map((value) => ({ path, value })))
    } else if (type === 'object') {
      for (const [name, property] of Object.entries<Schema>(s.properties ?? {})) out.push(...fieldExtremes(property, [...path, name]))
    } else if (type === 'array' && s.items) {
      out.push(...fieldExtremes(s.items, [...path, 0]))
    }
  }
  return out
}

/** One input that fits the schema (no hostile leaves), the same on every run; arrays have one item. */
export function fittingInput(schema: Schema): Record<string, unknown> {
  const [value] = fc.sample(fittingArbitrary(schema, 0, 0, 1), { numRuns: 1, seed: 21 })
  return (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
}

/** `input` with the field at `path` set to `value` (a copy; missing objects and arrays are made). */
export function withField(input: Record<string, unknown>, path: FieldPath, value: unknown): Record<string, unknown> {
  const copy = structuredClone(input)
  let node: any = copy
  path.forEach((part, i) => {
    if (i === path.length - 1) node[part] = value
    else {
      if (typeof node[part] !== 'object' || node[part] === null) node[part] = typeof path[i + 1] === 'number' ? [{}] : {}
      node = node[part]
    }
  })
  return copy
}

const hostile = fc.constantFrom(...HOSTILE_VALUES)

const formatted: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  'date-time': fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uri: fc.webUrl(),
}

/** A value meant to fit the schema most of the time; `hostileWeight` in 10 leaves are hostile. */
export function arbitraryFor(schema: Schema, hostileWeight = 2, depth = 0): fc.Arbitrary<unknown> {
  const valid = fittingArbitrary(schema, hostileWeight, depth)
  return hostileWeight > 0 ? fc.oneof({ arbitrary: valid, weight: 10 - hostileWeight }, { arbitrary: hostile, weight: hostileWeight }) : valid
}

function fittingArbitrary(schema: Schema, hostileWeight: number, depth: number, minItems = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant(null)
  if ('const' in schema) return fc.constant(schema.const)
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((s: Schema) => fittingArbitrary(s, hostileWeight, depth + 1)))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      if (schema.format && formatted[schema.format]) return formatted[schema.format]!
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) })
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e9, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(hostileWeight > 0 ? arbitraryFor(schema.items ?? {}, hostileWeight, depth + 1) : fittingArbitrary(schema.items ?? {}, 0, depth + 1, minItems), { minLength: Math.max(minItems, schema.minItems ?? 0), maxLength: Math.max(Math.min(schema.maxItems ?? 3, 3), minItems) })
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {}
      const required = new Set<string>(schema.required ?? [])
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [name, property] of Object.entries(properties)) {
        model[name] = hostileWeight > 0 ? arbitraryFor(property, hostileWeight, depth + 1) : fittingArbitrary(property, 0, depth + 1, minItems)
      }
      // A fitting input for fieldExtremes holds every field, so each extreme lands beside real values.
      return fc.record(model, { requiredKeys: Object.keys(properties).filter((n) => minItems > 0 || required.has(n)) })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}
