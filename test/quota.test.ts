import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { ManualClock } from '../src/core/clock.js'

// Mid-November 2026 in Sydney; the period ends at local midnight on 1 December (13:00 UTC 30 Nov).
const clock = new ManualClock(new Date('2026-11-15T02:00:00Z'))
let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ clock })
})
afterAll(() => app?.stop())

describe('monthly API-call quota', () => {
  it('counts every authenticated call, stops at the limit with 429, and resets next period', async () => {
    clock.set(new Date('2026-11-15T02:00:00Z'))
    const company = await onboard(app, { plan: 'free' })
    const key = company.api_key
    for (let i = 1; i <= 100; i++) {
      const res = await app.call('GET', '/api/v1/leads', { key })
      expect(res.status).toBe(200)
    }
    // GET /usage is a way out of a used-up quota (test/quota-way-out.test.ts): it answers and is not counted.
    const usage = await app.call('GET', '/api/v1/usage', { key })
    expect(usage.status).toBe(200)
    expect(usage.body.usage.api_calls).toEqual({ used: 100, limit: 100, remaining: 0 })
    expect(usage.body.period).toMatchObject({ key: '2026-11', start: '2026-10-31T13:00:00.000Z', end: '2026-11-30T13:00:00.000Z', timezone: 'Australia/Sydney' })

    const over = await app.call('GET', '/api/v1/leads', { key })
    expect(over.status).toBe(429)
    expect(over.body.error).toBe('rate_limited')
    const expected = Math.ceil((Date.parse('2026-11-30T13:00:00Z') - Date.parse('2026-11-15T02:00:00Z')) / 1000)
    expect(over.body.retry_after_seconds).toBe(expected)
    expect(over.body.message).toMatch(/quota/i)

    // Refused calls are not counted.
    const [row] = await app.owner`select count from usage_counters where company_id = ${company.company_id} and period = '2026-11' and metric = 'api_calls'`
    expect(row!.count).toBe(100)

    // One second before the period ends (still November in Sydney) it is still refused...
    clock.set(new Date('2026-11-30T12:59:59Z'))
    expect((await app.call('GET', '/api/v1/leads', { key })).status).toBe(429)
    // ...and at local midnight on 1 December it resets.
    clock.set(new Date('2026-11-30T13:00:00Z'))
    expect((await app.call('GET', '/api/v1/leads', { key })).status).toBe(200)
    const next = await app.call('GET', '/api/v1/usage', { key })
    expect(next.status).toBe(200)
    expect(next.body.period.key).toBe('2026-12')
    expect(next.body.usage.api_calls).toEqual({ used: 1, limit: 100, remaining: 99 })
  })

  it('is counted atomically: 150 concurrent calls on a fresh free company let exactly 100 through', async () => {
    clock.set(new Date('2026-11-15T02:00:00Z'))
    const company = await onboard(app, { plan: 'free' })
    const results = await Promise.all(Array.from({ length: 150 }, () => app.call('GET', '/api/v1/leads', { key: company.api_key })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(100)
    expect(results.filter((r) => r.status === 429 && r.body.error === 'rate_limited')).toHaveLength(50)
  })

  it('follows the plan: starter allows 1000, and an upgrade raises the limit at once', async () => {
    clock.set(new Date('2026-11-15T02:00:00Z'))
    const company = await onboard(app, { plan: 'starter', stripe_payment_method_id: 'pm_card_visa' })
    let usage = await app.call('GET', '/api/v1/usage', { key: company.api_key })
    expect(usage.body.usage.api_calls.limit).toBe(1000)
    const checkout = await app.call('POST', '/api/v1/billing/checkout', { key: company.api_key, body: { plan_slug: 'business' } })
    const paid = await fetch(`${checkout.body.checkout_url}/pay`, { method: 'POST' })
    expect(paid.status).toBe(200)
    usage = await app.call('GET', '/api/v1/usage', { key: company.api_key })
    expect(usage.body.plan).toBe('business')
    // Usage, checkout and the payment page are not counted: nothing has used the quota yet.
    expect(usage.body.usage.api_calls).toEqual({ used: 0, limit: 25000, remaining: 25000 })
  })
})
