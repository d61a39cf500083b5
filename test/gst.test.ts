// GST arithmetic in integer cents: property-based against an independent oracle, then through
// the real quotes.create tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { computeTotals } from '../src/core/gst.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

/** Oracle: decimal-string arithmetic (no floats, different formulation from the code under test). */
function oracle(lines: { qtyMilli: number; priceCents: number }[]) {
  const lineTotals = lines.map(({ qtyMilli, priceCents }) => {
    const exact = BigInt(qtyMilli) * BigInt(priceCents) // thousandths of a cent
    const whole = exact / 1000n
    const rest = exact % 1000n
    return rest >= 500n ? whole + 1n : whole
  })
  const subtotal = lineTotals.reduce((a, b) => a + b, 0n)
  const tenth = subtotal / 10n
  const gst = subtotal % 10n >= 5n ? tenth + 1n : tenth
  return { lineTotals: lineTotals.map(Number), subtotal: Number(subtotal), gst: Number(gst), total: Number(subtotal + gst) }
}

const line = fc.record({
  qtyMilli: fc.integer({ min: 1, max: 100_000_000 }), // 0.001 to 100,000
  priceCents: fc.integer({ min: 0, max: 100_000_000 }), // $0 to $1,000,000
})
const lineSet = fc.array(line, { minLength: 1, maxLength: 40 })

describe('GST in cents', () => {
  it('matches the oracle exactly on 1,000 random line-item sets', () => {
    fc.assert(
      fc.property(lineSet, (lines) => {
        const got = computeTotals(lines.map((l) => ({ quantity: l.qtyMilli / 1000, unitPriceCents: l.priceCents })))
        const want = oracle(lines)
        expect(got.lineTotalsCents).toEqual(want.lineTotals)
        expect([got.subtotalCents, got.gstCents, got.totalCents]).toEqual([want.subtotal, want.gst, want.total])
        expect(got.totalCents).toBe(got.subtotalCents + got.gstCents)
        expect(Math.abs(got.gstCents * 10 - got.subtotalCents)).toBeLessThanOrEqual(5)
      }),
      { numRuns: 1000 },
    )
  })

  it('rounds half up at the cent, on lines and on GST', () => {
    expect(computeTotals([{ quantity: 0.5, unitPriceCents: 1 }]).lineTotalsCents).toEqual([1]) // 0.5c -> 1c
    expect(computeTotals([{ quantity: 0.499, unitPriceCents: 1 }]).lineTotalsCents).toEqual([0])
    expect(computeTotals([{ quantity: 1, unitPriceCents: 5 }]).gstCents).toBe(1) // 0.5c GST -> 1c
    expect(computeTotals([{ quantity: 1, unitPriceCents: 4 }]).gstCents).toBe(0)
    expect(computeTotals([{ quantity: 3, unitPriceCents: 3333 }, { quantity: 0.333, unitPriceCents: 10000 }])).toMatchObject({ subtotalCents: 13329, gstCents: 1333, totalCents: 14662 })
  })
})

describe('GST through quotes.create', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startTestApp()
  })
  afterAll(() => app?.stop())

  it('the API shows dollars that add up exactly, for 40 random quotes', async () => {
    const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const client = await connectHttp(app, company.api_key)
    try {
      const lead = (await tool(client, 'leads.create', { name: 'Property Test' })).lead
      // A priced line under half a cent rounds to nothing and is refused (belowOneCent); free lines are fine.
      const line = fc.record({ qtyMilli: fc.integer({ min: 1, max: 1_000_000 }), priceCents: fc.integer({ min: 0, max: 10_000_000 }) })
        .filter((l) => l.priceCents === 0 || l.qtyMilli * l.priceCents >= 500)
      const samples = fc.sample(fc.array(line, { minLength: 1, maxLength: 15 }), 40)
      for (const lines of samples) {
        const { quote } = await tool(client, 'quotes.create', {
          lead_id: lead.id,
          line_items: lines.map((l, i) => ({ description: `Item ${i}`, quantity: l.qtyMilli / 1000, unitPrice: l.priceCents / 100 })),
        })
        const want = oracle(lines)
        expect(quote.lineItems.map((l: any) => Math.round(l.total * 100))).toEqual(want.lineTotals)
        expect([quote.subtotal, quote.gst, quote.total].map((d: number) => Math.round(d * 100))).toEqual([want.subtotal, want.gst, want.total])
        for (const d of [quote.subtotal, quote.gst, quote.total]) expect(Number((d as number).toFixed(2))).toBe(d)
      }
    } finally {
      await client.close()
    }
  })
})
