import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.stop())

describe('GET /plans', () => {
  it('lists the four active plans with AUD prices, limits and feature flags, without a key', async () => {
    const res = await app.call('GET', '/api/v1/plans')
    expect(res.status).toBe(200)
    expect(res.body.currency).toBe('AUD')
    const bySlug = Object.fromEntries(res.body.plans.map((p: any) => [p.slug, p]))
    expect(Object.keys(bySlug)).toEqual(['free', 'starter', 'professional', 'business'])
    expect(bySlug.free.pricing).toEqual({ monthly: 0, yearly: 0 })
    expect(bySlug.starter.pricing.monthly).toBe(49)
    expect(bySlug.professional.pricing.monthly).toBe(149)
    expect(bySlug.business.pricing).toEqual({ monthly: 299, yearly: 2990 })
    expect([100, 1000, 5000, 25000]).toEqual(res.body.plans.map((p: any) => p.limits.api_calls_per_month))
    expect(bySlug.starter.features).toEqual({ restRead: true, restWrite: false, mcpAccess: false, webhookInbound: false })
    expect(bySlug.professional.features).toEqual({ restRead: true, restWrite: true, mcpAccess: false, webhookInbound: false })
    expect(bySlug.business.features).toEqual({ restRead: true, restWrite: true, mcpAccess: true, webhookInbound: true })
  })
})

describe('GET /billing and the sandbox checkout and portal', () => {
  it('shows a trial, takes a checkout to an active plan, and cancels from the portal', async () => {
    const company = await onboard(app, { plan: 'professional' })
    const key = company.api_key
    let billing = await app.call('GET', '/api/v1/billing', { key })
    expect(billing.status).toBe(200)
    expect(billing.body).toMatchObject({
      company_id: company.company_id,
      plan: { slug: 'professional' },
      subscription: { status: 'trialing', effective_plan_slug: 'professional', provider: 'sandbox', has_payment_method: false },
      trial: { plan_slug: 'professional', active: true, days_remaining: 14 },
      actions: { portal: { method: 'POST', available: false } },
    })
    expect(billing.body.actions.portal.url).toBe(`${app.runtime.deps.urls.apiBase}/billing/portal`)

    const noPortal = await app.call('POST', '/api/v1/billing/portal', { key })
    expect(noPortal.status).toBe(409)

    const bad = await app.call('POST', '/api/v1/billing/checkout', { key, body: { plan_slug: 'platinum' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: 'invalid_plan', available_plans: ['free', 'starter', 'professional', 'business'] })
    const free = await app.call('POST', '/api/v1/billing/checkout', { key, body: { plan_slug: 'free' } })
    expect(free.status).toBe(400)
    expect(free.body.error).toBe('validation_error')
    const missing = await app.call('POST', '/api/v1/billing/checkout', { key, body: {} })
    expect(missing.body.messages).toContain('plan_slug: is required')

    const checkout = await app.call('POST', '/api/v1/billing/checkout', { key, body: { plan_slug: 'business', billing_cycle: 'yearly' } })
    expect(checkout.status).toBe(200)
    expect(checkout.body).toMatchObject({ plan_slug: 'business', billing_cycle: 'yearly', amount: 2990, currency: 'AUD', provider: 'sandbox' })
    expect(checkout.body.session_id).toMatch(/^cs_sandbox_/)
    const page = await fetch(checkout.body.checkout_url)
    const html = await page.text()
    expect(html).toContain('No card is charged')
    expect(html).toContain('A$2,990.00')
    const pay = await fetch(`${checkout.body.checkout_url}/pay`, { method: 'POST' })
    expect(await pay.text()).toContain('business plan is now active')

    billing = await app.call('GET', '/api/v1/billing', { key })
    expect(billing.body).toMatchObject({
      plan: { slug: 'business', features: { mcpAccess: true } },
      subscription: { status: 'active', billing_cycle: 'yearly', has_payment_method: true },
      trial: null,
      actions: { portal: { available: true } },
    })

    const portal = await app.call('POST', '/api/v1/billing/portal', { key })
    expect(portal.status).toBe(200)
    expect(portal.body.portal_url).toMatch(/\/sandbox\/portal\/bps_sandbox_/)
    expect(await (await fetch(portal.body.portal_url)).text()).toContain('Cancel subscription')
    await fetch(`${portal.body.portal_url}/cancel`, { method: 'POST' })
    billing = await app.call('GET', '/api/v1/billing', { key })
    expect(billing.body.subscription).toMatchObject({ status: 'canceled', effective_plan_slug: 'free' })
  })

  it('a session id of another company does not leak: unknown sessions are 404', async () => {
    const res = await fetch(`${app.url}/sandbox/checkout/cs_sandbox_doesnotexist`)
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: string }).error).toBe('not_found')
  })
})

describe('GET /usage', () => {
  it('reports the period, metered usage and resource counts', async () => {
    const company = await onboard(app, { plan: 'starter' })
    await app.call('POST', '/api/v1/keys', { key: company.api_key, body: { name: 'reader', scopes: ['leads'], permission: 'read' } })
    const res = await app.call('GET', '/api/v1/usage', { key: company.api_key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      company_id: company.company_id,
      plan: 'starter',
      usage: {
        // POST /keys counted; GET /usage itself is not (it answers even with the quota used up).
        api_calls: { used: 1, limit: 1000, remaining: 999 },
        sms: { used: 0, limit: 200 },
        emails: { used: 0, limit: 1000 },
        llm_calls: { used: 0, limit: 200 },
        users: { used: 1, limit: 3 },
      },
      resources: { users: 1, api_keys: 2 },
    })
    expect(res.body.period.key).toMatch(/^\d{4}-\d{2}$/)
  })
})
