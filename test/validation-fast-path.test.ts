// parseInput reads plain-field objects (every list's query string, most bodies) from a plan made
// once per schema instead of TypeBox's interpreted Default and Convert. This holds it to TypeBox's
// own answer (parseAny) for every operation's input schema in the registry, on random and hostile
// values, with and without query-string conversion: same value, or the same validation messages.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { TSchema } from 'typebox'
import { createRegistry } from '../src/domains/index.js'
import { describeErrors, parseAny, parseFlat, parseInput, validatorFor } from '../src/core/validation.js'
import { AppError } from '../src/core/errors.js'

const QUERY_STRINGS = ['', '0', '-0', '7', ' 7 ', '+3', '1.5', '1e3', '0x10', '50', '100', '101', 'abc', 'true', 'false', '1', 'New', 'Urgent', '2026-01-01', '\u0000']

function outcome(run: () => unknown): { value: unknown } | { messages: string[] } {
  try {
    return { value: run() }
  } catch (error) {
    if (error instanceof AppError) return { messages: [...((error.body() as { messages?: string[] }).messages ?? [])].sort() }
    throw error
  }
}

/** TypeBox's own answer: its Default and Convert, then the same check and messages. */
function oracle(schema: TSchema, raw: Record<string, unknown>, convert: boolean) {
  return outcome(() => {
    const value = parseAny(validatorFor(schema), schema, raw, convert)
    if (!validatorFor(schema).Check(value)) throw new AppError('validation_error', 'x', { messages: describeErrors(schema, value) })
    return value
  })
}

const schemas = [...new Map(createRegistry().operations.map((op) => [op.input, op.name])).entries()]

describe('parseInput fast path', () => {
  it('covers most operations (the fast path is the common case, not a corner)', () => {
    const flat = schemas.filter(([schema]) => {
      const props = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
      return Object.values(props).every((p) => ['string', 'integer', 'number', 'boolean'].includes(String(p.type)))
    })
    expect(flat.length / schemas.length).toBeGreaterThan(0.5)
  })

  it('is the path every list query takes: paging given as query strings, with the other defaults', () => {
    const lists = createRegistry().operations.filter((op) => op.rest?.method === 'GET' && 'limit' in ((op.input as { properties?: object }).properties ?? {}))
    expect(lists.length).toBeGreaterThanOrEqual(6)
    for (const op of lists) {
      const paging = 'offset' in ((op.input as { properties?: object }).properties ?? {}) ? { limit: '50', offset: '0' } : { limit: '50' }
      const query = Object.assign(Object.create(null), paging) // as Koa parses a query string
      expect(parseFlat(op.input, query, true), op.name).toEqual(expect.objectContaining(Object.fromEntries(Object.keys(paging).map((k) => [k, Number(paging[k as keyof typeof paging])]))))
    }
  })

  it.each(schemas.map(([schema, name]) => [name, schema] as const))('%s: the same result as TypeBox for any input', (_, schema) => {
    const names = Object.keys((schema as { properties?: object }).properties ?? {})
    const field = fc.constantFrom(...names, 'unknown_field')
    const value = fc.oneof(fc.constantFrom(...QUERY_STRINGS), fc.string({ maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(undefined), fc.constant(null), fc.array(fc.constantFrom(...QUERY_STRINGS), { maxLength: 2 }))
    fc.assert(fc.property(fc.dictionary(field, value, { maxKeys: 4 }), fc.boolean(), (raw, convert) => {
      const given = structuredClone(raw)
      expect(outcome(() => parseInput(schema, raw, { convert }))).toEqual(oracle(schema, given, convert))
      expect(raw).toEqual(given) // the caller's object is left as it was
    }), { numRuns: 150 })
  })
})
