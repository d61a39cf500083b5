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
]

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

function fittingArbitrary(schema: Schema, hostileWeight: number, depth: number): fc.Arbitrary<unknown> {
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
      return fc.array(arbitraryFor(schema.items ?? {}, hostileWeight, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) })
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {}
      const required = new Set<string>(schema.required ?? [])
      const model: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [name, property] of Object.entries(properties)) model[name] = arbitraryFor(property, hostileWeight, depth + 1)
      return fc.record(model, { requiredKeys: Object.keys(properties).filter((n) => required.has(n)) })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}
