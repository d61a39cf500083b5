// Monthly message limits are enforced, not only shown. Limits come from docs/decisions.md ("Plan
// limits the spec leaves open"): SMS free 20, business 5000.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { withTenant } from '../src/db/sql.js'
import { usagePeriod } from '../src/core/period.js'
import { reserveMessages } from '../src/domains/billing/message-quota.js'

const SMS_LIMIT = { free: 20, professional: 1000, business: 5000 }

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.stop())

const period = () => usagePeriod(new Date()).key
async function smsUsed(companyId: string): Promise<number> {
  const [row] = await app.owner`select count from usage_counters where company_id = ${companyId} and period = ${period()} and metric = 'sms'`
  return row?.count ?? 0
}
async function setSmsUsed(companyId: string, count: number) {
  await app.owner`
    insert into usage_counters (company_id, period, metric, count) values (${companyId}, ${period()}, 'sms', ${count})
    on conflict (company_id, period, metric) do update set count = ${count}`
}

describe('the free plan\'s SMS limit under concurrency', () => {
  it('50 concurrent sends count exactly up to the limit and refuse the rest, naming limit, reset and upgrade', async () => {
    const company = await onboard(app, { plan: 'free' })
    const deps = app.runtime.deps
    const outcomes = await Promise.all(Array.from({ length: 50 }, () =>
      withTenant(deps.db, company.company_id, (tx) =>
        reserveMessages(tx, { companyId: company.company_id, metric: 'sms', count: 1, now: new Date() }))))
    const refused = outcomes.filter((o) => o !== null)
    expect(outcomes.length - refused.length).toBe(SMS_LIMIT.free)
    expect(await smsUsed(company.company_id)).toBe(SMS_LIMIT.free)
    expect(refused[0]).toMatchObject({ metric: 'sms', limit: SMS_LIMIT.free, used: SMS_LIMIT.free, planSlug: 'free', upgradePlan: 'starter' })
    expect(refused[0]!.resetsAt.toISOString()).toBe(usagePeriod(new Date()).end.toISOString())
  })
})

describe('sending past the limit through the tools', () => {
  let client: Client
  let company: Awaited<ReturnType<typeof onboard>>
  beforeAll(async () => {
    company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    client = await connectHttp(app, company.api_key)
  })
  afterAll(() => client?.close())

  it('quotes.send with SMS: 10 of 50 concurrent sends fit, 40 get rate_limited, the counter ends at the limit', async () => {
    const lead = (await tool(client, 'leads.create', { name: 'Quota Quinn', phone: '0412 555 301' })).lead
    await waitFor(() => smsUsed(company.company_id), (n) => n === 1) // the instant reply
    const quotes = []
    for (let i = 0; i < 50; i++) {
      quotes.push((await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: `Item ${i}`, quantity: 1, unitPrice: 100 }] })).quote)
    }
    await setSmsUsed(company.company_id, SMS_LIMIT.business - 10)
    const results = await Promise.all(quotes.map((q) => client.callTool({ name: 'quotes.send', arguments: { quote_id: q.id, send_sms: true } })))
    const refused = results.filter((r) => r.isError)
    expect(results.length - refused.length).toBe(10)
    expect(refused).toHaveLength(40)
    const body = refused[0]!.structuredContent as any
    expect(body.error).toBe('rate_limited')
    expect(body.message).toMatch(new RegExp(`SMS limit reached: ${SMS_LIMIT.business} of ${SMS_LIMIT.business} on the business plan`))
    expect(body.message).toMatch(/resets at \d{4}-\d\d-\d\dT/)
    expect(body.limit).toMatchObject({ metric: 'sms', limit: SMS_LIMIT.business, plan: 'business', upgrade_plan: null })
    expect(body.retry_after_seconds).toBeGreaterThan(0)
    expect(await smsUsed(company.company_id)).toBe(SMS_LIMIT.business)
    // A refused send changed nothing: its quote is still a Draft.
    const drafts = await app.owner`select count(*)::int as n from quotes where lead_id = ${lead.id} and status = 'Draft'`
    expect(drafts[0]!.n).toBe(40)
    // The ten that fitted are delivered, and not counted a second time by the delivery.
    await waitFor(() => app.owner`select id from communications where lead_id = ${lead.id} and message_type = 'quote' and status = 'recorded'`, (rows) => rows.length === 10)
    expect(await smsUsed(company.company_id)).toBe(SMS_LIMIT.business)
  })

  it('REST: an automation over the limit records that it did not send, and the lead stays New', async () => {
    const pro = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_visa' })
    await setSmsUsed(pro.company_id, SMS_LIMIT.professional)
    const res = await app.call('POST', '/api/v1/leads', { key: pro.api_key, body: { name: 'Over Olive', phone: '0412 555 302' } })
    expect(res.status).toBe(201)
    const [message] = await waitFor(
      () => app.owner`select status, error from communications where lead_id = ${res.body.lead.id}`,
      (rows) => rows.length === 1 && rows[0]!.status === 'failed',
    )
    expect(message).toMatchObject({ status: 'failed', error: expect.stringMatching(/not sent: Monthly SMS limit reached: 1000 of 1000 on the professional plan/) })
    expect(await smsUsed(pro.company_id)).toBe(SMS_LIMIT.professional)
    const [lead] = await app.owner`select status from leads where id = ${res.body.lead.id}`
    expect(lead!.status).toBe('New')
  })
})
