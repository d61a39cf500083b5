// Every money field of every operation, input and output, says whether it includes GST
// (docs/decisions.md, "Money says whether it includes GST"). An agent reading a tool's schema must
// never have to guess whether `amount` is before or after GST.
//
// The rule, over the whole registry (every MCP tool and REST operation, planned ones included):
// a field is money when
//   - its name ends in cents (`amount_cents`, `totalCents`), integer or number; or
//   - it holds a number that is not an integer (money is dollars with cents; counts and paging
//     totals are integers) and no word of its name (split at _ and at camelCase humps) says it is
//     something else: percent, rate (unless hourly), ratio, return, weight, quantity, count, score,
//     or a length of time (days, hours, ...).
// So amount, total, subtotal, price, unitPrice, deposit, balance, gst, revenue, cost, paid, due, and a
// new field nobody thought of, are all money by default. Its schema (or the union around it) must
// have a description containing exactly one of
//   "incl. GST", "ex GST", "the GST itself", "GST not applicable".
import { describe, expect, it } from 'vitest'
import { createRegistry } from '../src/domains/index.js'
import type { AnyOperation } from '../src/core/operation.js'
import { plain } from '../src/transports/openapi.js'

const NOT_AMOUNT = new Set(['percent', 'ratio', 'return', 'weight', 'quantity', 'count', 'score', 'days', 'hours', 'minutes', 'seconds', 'weeks', 'months'])
const GST_PHRASES = ['incl. GST', 'ex GST', 'the GST itself', 'GST not applicable']

const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split('_').filter(Boolean)

type Node = Record<string, unknown>
const isNumber = (s: Node): boolean => s.type === 'number' || (Array.isArray(s.type) && s.type.includes('number'))
  || ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as Node[]).some(isNumber))
const isInteger = (s: Node): boolean => s.type === 'integer' || ['anyOf', 'oneOf'].some((k) => Array.isArray(s[k]) && (s[k] as Node[]).some(isInteger))

export function isMoneyField(name: string, schema: Node): boolean {
  const w = words(name)
  if (w.at(-1) === 'cents') return isNumber(schema) || isInteger(schema)
  if (!isNumber(schema)) return false
  if (w.some((x) => NOT_AMOUNT.has(x))) return false
  return !(w.includes('rate') && !w.includes('hourly'))
}

/** The descriptions on a field: its own and, for a union, each branch's. */
function descriptions(schema: Node): string[] {
  const own = typeof schema.description === 'string' ? [schema.description] : []
  const branches = ['anyOf', 'oneOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as Node[]).flatMap(descriptions) : []))
  return [...own, ...branches]
}

/** Every money field in a schema, as path: problem. */
function problems(schema: unknown, path: string, out: string[]) {
  if (!schema || typeof schema !== 'object') return
  const s = schema as Node
  for (const [name, child] of Object.entries((s.properties ?? {}) as Record<string, Node>)) {
    if (isMoneyField(name, child)) {
      const said = GST_PHRASES.filter((p) => descriptions(child).some((d) => d.includes(p)))
      if (said.length !== 1) out.push(`${path}.${name}: ${said.length ? `says ${said.join(' and ')}` : 'does not say whether it includes GST'}`)
    }
    problems(child, `${path}.${name}`, out)
  }
  for (const k of ['items', 'additionalProperties']) if (s[k] && typeof s[k] === 'object') problems(s[k], `${path}[]`, out)
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[k])) for (const b of s[k] as Node[]) problems(b, path, out)
}

function allOperations(): AnyOperation[] {
  const registry = createRegistry()
  return [...new Set([...registry.mcpTools(), ...registry.restOperations()])]
}

describe('money fields', () => {
  it('the rule finds money by name and type, and not counts, rates or dates', () => {
    const num = { type: 'number' }
    expect(['amount', 'unitPrice', 'unit_price', 'total_cents', 'revenue_ex_gst', 'gst_collected', 'hourly_rate', 'amountPaid', 'balance'].filter((n) => isMoneyField(n, n.endsWith('cents') ? { type: 'integer' } : num))).toHaveLength(9)
    expect(isMoneyField('invoices_paid', { type: 'integer' })).toBe(false)
    expect(isMoneyField('total', { type: 'integer' })).toBe(false) // a count of rows
    expect(isMoneyField('quantity', num)).toBe(false)
    expect(isMoneyField('default_weight', num)).toBe(false)
    expect(isMoneyField('marginPercent', num)).toBe(false)
    expect(isMoneyField('win_rate', num)).toBe(false)
    expect(isMoneyField('due_date', { type: 'string' })).toBe(false)
    expect(isMoneyField('amount', { anyOf: [num, { type: 'null' }] })).toBe(true)
  })

  it('finds fields that do not say, and passes fields that do', () => {
    const out: string[] = []
    problems({ properties: { amount: { type: 'number', description: 'Job value (AUD dollars, incl. GST)' }, total: { type: 'number', description: 'AUD' }, lines: { type: 'array', items: { properties: { unitPrice: { type: 'number' } } } } } }, 'x', out)
    expect(out).toEqual(['x.total: does not say whether it includes GST', 'x.lines[].unitPrice: does not say whether it includes GST'])
  })

  it('every operation\'s input and output money fields say whether they include GST', () => {
    const out: string[] = []
    const ops = allOperations()
    expect(ops.length).toBeGreaterThan(50)
    for (const op of ops) {
      problems(plain(op.input), `${op.name} input`, out)
      problems(plain(op.output), `${op.name} output`, out)
    }
    expect(out).toEqual([])
  })
})
