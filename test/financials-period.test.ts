// analytics.financials and GET /financials: calendar periods in the company's own zone and the GST
// split of revenue. A Perth company (UTC+8, no daylight saving) with the clock at 23:30 on 31 October
// local (15:30 UTC; already 1 November in Sydney), and payments either side of local midnight at the
// month, quarter and financial-year boundaries.
// Expected windows are written out by hand from the Perth offset; expected GST is exact rational
// arithmetic on cents here, not src/core/gst.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ManualClock } from '../src/core/clock.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const NOW = new Date('2026-10-31T15:30:00Z') // 23:30 Friday 31 October in Perth
const clock = new ManualClock(NOW)
let app: TestApp
let key: string
let client: Client

// Payments on one invoice of $1,000.00 (job amount, incl. GST: GST 1000/11 = 90.909 -> $90.91).
const INVOICE = { totalCents: 100_000n, gstCents: 9_091n }
const PAYMENTS = [
  { cents: 33_333, at: '2026-10-31T15:00:00Z' }, // 23:00 31 Oct Perth: this month
  { cents: 12_345, at: '2026-09-30T16:30:00Z' }, // 00:30 1 Oct Perth: this month (still September in UTC)
  { cents: 7_777, at: '2026-09-30T15:30:00Z' }, // 23:30 30 Sep Perth: last month, last quarter, this FY
  { cents: 2_001, at: '2026-06-30T16:00:00Z' }, // 00:00 1 Jul Perth: first instant of this FY
  { cents: 999, at: '2026-06-30T15:59:59Z' }, // 23:59:59 30 Jun Perth: last FY
]

/** GST share of a payment: cents x gst / total, half up, by remainder comparison on exact integers. */
function gstOf(cents: number): number {
  const num = BigInt(cents) * INVOICE.gstCents
  const q = num / INVOICE.totalCents
  return Number(2n * (num % INVOICE.totalCents) >= INVOICE.totalCents ? q + 1n : q)
}
const sumOf = (indexes: number[]) => ({
  revenue: indexes.reduce((a, i) => a + PAYMENTS[i]!.cents, 0),
  gst: indexes.reduce((a, i) => a + gstOf(PAYMENTS[i]!.cents), 0),
})
const cents = (d: number) => Math.round(d * 100)

beforeAll(async () => {
  app = await startTestApp({ clock })
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  key = company.api_key
  expect((await app.call('PATCH', '/api/v1/settings/company', { key, body: { time_zone: 'Australia/Perth' } })).body.settings.time_zone).toBe('Australia/Perth')
  client = await connectHttp(app, key)
  const { lead } = await tool(client, 'leads.create', { name: 'Jordan Reid', email: 'jordan@example.com' })
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Rewire', amount: 1000 })
  await tool(client, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id, send_email: true })
  expect([cents(invoice.total), cents(invoice.gst)]).toEqual([Number(INVOICE.totalCents), Number(INVOICE.gstCents)])
  for (const p of PAYMENTS) {
    const res = await app.call('POST', `/api/v1/invoices/${invoice.id}/payments`, { key, body: { amount: p.cents / 100, method: 'bank_transfer', received_at: p.at } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

const get = (query: string) => app.call('GET', `/api/v1/financials${query}`, { key })

describe('calendar periods in the company zone (Perth, 23:30 on 31 October)', () => {
  const cases = [
    { period: 'this_month', from: '2026-10-01', to: '2026-10-31', start: '2026-09-30T16:00:00.000Z', end: NOW.toISOString(), days: 31, paid: [0, 1] },
    { period: 'last_month', from: '2026-09-01', to: '2026-09-30', start: '2026-08-31T16:00:00.000Z', end: '2026-09-30T16:00:00.000Z', days: 30, paid: [2] },
    { period: 'this_quarter', from: '2026-10-01', to: '2026-10-31', start: '2026-09-30T16:00:00.000Z', end: NOW.toISOString(), days: 31, paid: [0, 1] },
    { period: 'this_fy', from: '2026-07-01', to: '2026-10-31', start: '2026-06-30T16:00:00.000Z', end: NOW.toISOString(), days: 123, paid: [0, 1, 2, 3] },
  ]
  for (const c of cases) {
    it(`${c.period}: ${c.from} to ${c.to}, with the payments inside it and their GST`, async () => {
      const res = await get(`?period=${c.period}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const f = res.body
      expect(f.period).toEqual({ from: c.from, to: c.to, time_zone: 'Australia/Perth', start: c.start, end: c.end, days: c.days, calendar: c.period })
      const want = sumOf(c.paid)
      expect(f.payments_received).toBe(c.paid.length)
      expect(cents(f.revenue)).toBe(want.revenue)
      expect(cents(f.gst_collected)).toBe(want.gst)
      expect(cents(f.revenue_ex_gst)).toBe(want.revenue - want.gst)
      expect(cents(f.invoiced)).toBe(c.period === 'last_month' ? 0 : Number(INVOICE.totalCents)) // issued today, local 31 Oct
    })
  }

  it('a lookback of days still works beside it and says it is not a calendar period', async () => {
    const f = (await get('?days=31')).body
    expect([f.period.from, f.period.calendar, f.period.days]).toEqual(['2026-10-01', null, 31])
    expect(cents(f.revenue)).toBe(sumOf([0, 1]).revenue)
  })

  it('the MCP tool takes period too; days with period, or an unknown period, is a validation_error naming period', async () => {
    const viaMcp = await tool(client, 'analytics.financials', { period: 'this_fy' })
    expect(cents(viaMcp.gst_collected)).toBe(sumOf([0, 1, 2, 3]).gst)
    expect(await toolError(client, 'analytics.financials', { period: 'this_month', days: 7 })).toMatchObject({ error: 'validation_error' })
    for (const q of ['?period=this_month&days=7', '?period=next_month', '?period=']) {
      const res = await get(q)
      expect([q, res.status, res.body.error]).toEqual([q, 400, 'validation_error'])
      expect(res.body.messages.join(' ')).toContain('period')
    }
  })
})
