// workflows.search_ads_pipeline and the REST-only ad spend record (POST|GET /api/v1/ad-spend) on the
// real service. Leads carry their campaign in their source ("google_ads:spring-promo"). The
// expected figures are computed here independently: spend prorated by the days a recorded period
// shares with the window (plain date arithmetic), half-up cents, from the fixture's own numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp, rpc } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let client: McpClient
let clientB: McpClient

const DAY = 86_400_000
/** Today in Sydney (the company's default zone), read with Intl, not the app's helpers. */
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date())
const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10)
const ordinal = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY
/** Cents of a period's spend that fall in [from, to], half-up. */
function prorated(cents: number, start: string, end: string, from: string, to: string) {
  const overlap = Math.min(ordinal(end), ordinal(to)) - Math.max(ordinal(start), ordinal(from)) + 1
  const length = ordinal(end) - ordinal(start) + 1
  return overlap <= 0 ? 0 : Math.round((cents * overlap) / length)
}
const rest = (method: string, path: string, body?: unknown, key = a.api_key) => app.call(method, `/api/v1${path}`, { key, body })

let invoiceTotal = 0
beforeAll(async () => {
  app = await startTestApp()
  a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, a.api_key)
  clientB = await connectHttp(app, b.api_key)

  // spring-promo: one lead quoted, won, invoiced; one (other spelling) that went nowhere; one too old.
  const won = (await tool(client, 'leads.create', { name: 'Won Lead', email: 'won@example.com.au', source: 'google_ads:spring-promo' })).lead
  const { quote } = await tool(client, 'quotes.create', { lead_id: won.id, line_items: [{ description: 'Fan', quantity: 1, unitPrice: 400 }] })
  await tool(client, 'quotes.send', { quote_id: quote.id, send_email: true })
  const { job } = await tool(client, 'jobs.create', { lead_id: won.id, title: 'Fan install', amount: 440 })
  await tool(client, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id })
  expect((await rest('POST', `/invoices/${invoice.id}/send`, { send_email: true })).status).toBe(200)
  invoiceTotal = invoice.total
  await tool(client, 'leads.create', { name: 'Browser', source: 'Google_Ads:Spring-Promo' })
  const old = (await tool(client, 'leads.create', { name: 'Old Lead', source: 'google_ads:spring-promo' })).lead
  await app.owner`update leads set created_at = now() - interval '20 days' where id = ${old.id}`
  // The source without a campaign, another source, and none.
  await tool(client, 'leads.create', { name: 'Plain Google', source: 'google_ads' })
  await tool(client, 'leads.create', { name: 'Web', source: 'website' })
  await tool(client, 'leads.create', { name: 'No Source', source: 'phone' })
  // Company B's leads and spend never show in A's report.
  await tool(clientB, 'leads.create', { name: 'B Lead', source: 'google_ads:spring-promo' })
  expect((await rest('POST', '/ad-spend', { source: 'google_ads', campaign: 'spring-promo', period_start: day(-1), period_end: day(0), amount: 999 }, b.api_key)).status).toBe(201)
})
afterAll(async () => {
  await client?.close()
  await clientB?.close()
  await app?.stop()
})

describe('POST|GET /api/v1/ad-spend (and workflows.record_ad_spend / list_ad_spend)', () => {
  it('records spend in cents, lower-cased, and lists it; bad periods and amounts are validation_errors naming the field', async () => {
    const spends = [
      { source: 'google_ads', campaign: 'Spring-Promo', period_start: day(-2), period_end: day(0), amount: 100 },
      { source: 'google_ads', campaign: 'spring-promo', period_start: day(-39), period_end: day(-5), amount: 300 },
      { source: 'google_ads', period_start: day(-9), period_end: day(0), amount: 50.05 },
      { source: 'facebook_ads', campaign: 'winter', period_start: day(-3), period_end: day(-3), amount: 20 },
      { source: 'google_ads', campaign: 'autumn', period_start: day(-60), period_end: day(-30), amount: 500 }, // outside the window
    ]
    for (const body of spends) {
      const res = await rest('POST', '/ad-spend', body)
      expect(res.status).toBe(201)
      expect(res.body.adSpend).toMatchObject({ source: body.source, campaign: body.campaign?.toLowerCase() ?? null, amount: body.amount })
    }
    const [stored] = await app.owner`select amount_cents from ad_spend where company_id = ${a.company_id} and source = 'google_ads' and campaign is null`
    expect(Number(stored!.amount_cents)).toBe(5005)
    const listed = await rest('GET', '/ad-spend?source=google_ads')
    expect(listed.status).toBe(200)
    expect(listed.body.total).toBe(4)
    expect((await rest('GET', '/ad-spend', undefined, b.api_key)).body.total).toBe(1)

    const backwards = await rest('POST', '/ad-spend', { source: 'x', period_start: day(0), period_end: day(-1), amount: 1 })
    expect(backwards.status).toBe(400)
    expect(backwards.body.messages.join(' ')).toMatch(/period_end/)
    const fractions = await rest('POST', '/ad-spend', { source: 'x', period_start: day(0), period_end: day(0), amount: 1.234 })
    expect(fractions.status).toBe(400)
    expect(fractions.body.messages.join(' ')).toMatch(/amount/)
    expect((await rest('POST', '/ad-spend', { source: 'a:b', period_start: day(0), period_end: day(0), amount: 1 })).status).toBe(400)
  })

  it('is also an MCP tool, like every operation (agent parity)', async () => {
    const names: string[] = []
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : {})
      names.push(...page.tools.map((t) => t.name))
      cursor = page.nextCursor
    } while (cursor)
    expect(names).toContain('workflows.search_ads_pipeline')
    expect(names.filter((n) => n.includes('ad_spend')).sort()).toEqual(['workflows.list_ad_spend', 'workflows.record_ad_spend'])
  })
})

describe('workflows.search_ads_pipeline', () => {
  it('leads by source and campaign, with cost per lead and per won job from the recorded spend', async () => {
    const from = day(-9)
    const to = day(0)
    const res = await tool(client, 'workflows.search_ads_pipeline', { days: 10 })
    expect(res.period).toEqual({ from, to, days: 10 })

    const springCents = prorated(10000, day(-2), day(0), from, to) + prorated(30000, day(-39), day(-5), from, to)
    expect(springCents).toBe(10000 + 4286) // 300 dollars over 35 days, 5 of them in the window
    const spring = res.rows.find((r: any) => r.source === 'google_ads' && r.campaign === 'spring-promo')
    expect(spring).toEqual({
      source: 'google_ads', campaign: 'spring-promo', leads: 2, quoted: 1, wonJobs: 1, revenue: invoiceTotal,
      adSpend: springCents / 100, costPerLead: Math.round(springCents / 2) / 100, costPerWonJob: springCents / 100,
      returnOnAdSpend: Math.round((invoiceTotal * 100 * 100) / springCents) / 100,
    })
    expect(res.rows.find((r: any) => r.source === 'google_ads' && r.campaign === null)).toMatchObject({
      leads: 1, wonJobs: 0, adSpend: 50.05, costPerLead: 50.05, costPerWonJob: null, returnOnAdSpend: 0,
    })
    // Spend with no leads yet still shows; a source with leads and no spend has no costs.
    expect(res.rows.find((r: any) => r.source === 'facebook_ads')).toMatchObject({ campaign: 'winter', leads: 0, adSpend: 20, costPerLead: null })
    expect(res.rows.find((r: any) => r.source === 'website')).toMatchObject({ leads: 1, adSpend: null, costPerLead: null, returnOnAdSpend: null })
    expect(res.rows.find((r: any) => r.campaign === 'autumn')).toBeUndefined()

    const totalCents = springCents + 5005 + 2000
    expect(res.totals).toMatchObject({ leads: 5, quoted: 1, wonJobs: 1, adSpend: totalCents / 100, costPerLead: Math.round(totalCents / 5) / 100, adSpendFrom: 'recorded' })
  })

  it('campaign narrows the report; ad_spend given replaces the recorded spend in the totals', async () => {
    const res = await tool(client, 'workflows.search_ads_pipeline', { days: 10, campaign: 'Spring-Promo', ad_spend: 90 })
    expect(res.rows.map((r: any) => [r.source, r.campaign])).toEqual([['google_ads', 'spring-promo']])
    expect(res.totals).toMatchObject({ leads: 2, adSpend: 90, costPerLead: 45, costPerWonJob: 90, adSpendFrom: 'given' })
    const whole = await tool(client, 'workflows.search_ads_pipeline', { days: 30, campaign: 'google_ads' })
    // All of google_ads, the 20-day-old lead included over 30 days.
    expect(whole.rows.every((r: any) => r.source === 'google_ads')).toBe(true)
    expect(whole.totals.leads).toBe(4)
    // Raw JSON-RPC: the SDK client checks error bodies against the output schema too.
    const bad = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'workflows.search_ads_pipeline', arguments: { days: 0 } } }, { key: a.api_key })
    expect(bad.body.result.isError).toBe(true)
    expect(JSON.stringify(bad.body.result.content)).toMatch(/validation_error/)
  })
})
