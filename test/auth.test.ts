import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { allProbes } from './helpers/probes.js'
import { SCOPES } from '../src/core/access.js'
import { ManualClock } from '../src/core/clock.js'

let app: TestApp
const clock = new ManualClock(new Date())
beforeAll(async () => {
  app = await startTestApp({ extraOperations: allProbes, clock })
})
afterAll(() => app?.stop())

async function keyWith(adminKey: string, scopes: string[], permission: string): Promise<string> {
  const res = await app.call('POST', '/api/v1/keys', { key: adminKey, body: { name: `${permission} ${scopes.join(',')}`, scopes, permission } })
  expect(res.status).toBe(201)
  return res.body.api_key
}

describe('401 unauthorized', () => {
  it('with no key, a malformed header, or a wrong key', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: 'Bearer ask_short' }, { authorization: `Bearer ask_${'x'.repeat(43)}` }]) {
      const res = await app.call('GET', '/api/v1/usage', { headers })
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.body.error).toBe('unauthorized')
      expect(res.body.message).toBeTruthy()
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    }
  })

  it('with the key of a deleted company', async () => {
    const company = await onboard(app)
    expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(200)
    await app.owner`update companies set deleted_at = now() where id = ${company.company_id}`
    // At once for a counted call, although the key is cached (counting checks the company)...
    const res = await app.call('GET', '/api/v1/leads', { key: company.api_key })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe('unauthorized')
    // ...and from then on for uncounted ones too (the cache forgot the company).
    expect((await app.call('GET', '/api/v1/billing', { key: company.api_key })).status).toBe(401)
  })

  it('with a revoked key', async () => {
    const company = await onboard(app)
    const other = await keyWith(company.api_key, ['leads'], 'read')
    const list = await app.call('GET', '/api/v1/keys', { key: company.api_key })
    const otherId = list.body.keys.find((k: any) => other.startsWith(k.prefix)).id
    expect((await app.call('DELETE', `/api/v1/keys/${otherId}`, { key: company.api_key })).status).toBe(200)
    expect((await app.call('GET', '/api/v1/usage', { key: other })).status).toBe(401)
  })
})

describe('403 forbidden', () => {
  for (const scope of SCOPES) {
    it(`names the missing '${scope}' scope`, async () => {
      const company = await onboard(app)
      const others = SCOPES.filter((s) => s !== scope)
      const key = await keyWith(company.api_key, others, 'admin')
      const res = await app.call('GET', `/api/v1/probe/scope/${scope}`, { key })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ error: 'forbidden', missing: { scope } })
      expect(res.body.message).toContain(`'${scope}'`)
      // The same key reaches the scopes it has.
      expect((await app.call('GET', `/api/v1/probe/scope/${others[0]}`, { key })).status).toBe(200)
    })
  }

  it('the real list endpoints refuse a key without their scope', async () => {
    const company = await onboard(app)
    for (const [scope, path] of [['leads', '/api/v1/leads'], ['quotes', '/api/v1/quotes'], ['jobs', '/api/v1/jobs'], ['clients', '/api/v1/clients']] as const) {
      const key = await keyWith(company.api_key, SCOPES.filter((s) => s !== scope), 'admin')
      const res = await app.call('GET', path, { key })
      expect(res.status, path).toBe(403)
      expect(res.body).toMatchObject({ error: 'forbidden', missing: { scope } })
    }
  })

  it('names a missing write or admin permission', async () => {
    const company = await onboard(app)
    const reader = await keyWith(company.api_key, ['leads'], 'read')
    const writer = await keyWith(company.api_key, ['leads'], 'write')
    let res = await app.call('POST', '/api/v1/probe/permission/write', { key: reader, body: {} })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ error: 'forbidden', missing: { permission: 'write' } })
    expect((await app.call('POST', '/api/v1/probe/permission/write', { key: writer, body: {} })).status).toBe(200)
    res = await app.call('POST', '/api/v1/probe/permission/admin', { key: writer, body: {} })
    expect(res.body).toMatchObject({ error: 'forbidden', missing: { permission: 'admin' } })
    // Real admin-only endpoints refuse too.
    res = await app.call('POST', '/api/v1/keys', { key: writer, body: { name: 'x', scopes: ['leads'], permission: 'admin' } })
    expect(res.status).toBe(403)
    res = await app.call('POST', '/api/v1/billing/checkout', { key: reader, body: { plan_slug: 'business' } })
    expect(res.status).toBe(403)
  })

  const featureCases = [
    { feature: 'mcpAccess', deniedOn: 'professional', plan: 'business' },
    { feature: 'webhookInbound', deniedOn: 'professional', plan: 'business' },
    { feature: 'restWrite', deniedOn: 'starter', plan: 'professional' },
  ]
  for (const { feature, deniedOn, plan } of featureCases) {
    it(`names the missing '${feature}' feature and the plan that has it`, async () => {
      const low = await onboard(app, { plan: deniedOn, stripe_payment_method_id: 'pm_card_visa' })
      const res = await app.call('POST', `/api/v1/probe/feature/${feature}`, { key: low.api_key, body: {} })
      expect(res.status).toBe(403)
      expect(res.body).toMatchObject({ error: 'forbidden', missing: { feature, plan } })
      expect(res.body.message).toContain('/billing/checkout')
      const high = await onboard(app, { plan, stripe_payment_method_id: 'pm_card_visa' })
      expect((await app.call('POST', `/api/v1/probe/feature/${feature}`, { key: high.api_key, body: {} })).status).toBe(200)
    })
  }

  it('gives trial plans their features for 14 days, then free features', async () => {
    const trial = await onboard(app, { plan: 'business' })
    expect((await app.call('POST', '/api/v1/probe/feature/mcpAccess', { key: trial.api_key, body: {} })).status).toBe(200)
    try {
      clock.set(new Date(Date.now() + 15 * 86_400_000))
      const res = await app.call('POST', '/api/v1/probe/feature/mcpAccess', { key: trial.api_key, body: {} })
      expect(res.status).toBe(403)
      expect(res.body.message).toMatch(/trial has ended/)
      const usage = await app.call('GET', '/api/v1/usage', { key: trial.api_key })
      expect(usage.body.plan).toBe('free')
      expect(usage.body.usage.api_calls.limit).toBe(100)
    } finally {
      clock.set(new Date())
    }
  })
})

describe('per-key request rate limit', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await startTestApp({ config: { RATE_LIMIT_PER_MINUTE: 5 } })
  })
  afterAll(() => limited?.stop())

  it('sends RateLimit headers and answers 429 with retry_after_seconds past the limit', async () => {
    const company = await onboard(limited)
    const remaining: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await limited.call('GET', '/api/v1/usage', { key: company.api_key })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('5')
      expect(res.headers.get('ratelimit-policy')).toBe('5;w=60')
      remaining.push(res.headers.get('ratelimit-remaining')!)
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    const res = await limited.call('GET', '/api/v1/usage', { key: company.api_key })
    expect(res.status).toBe(429)
    expect(res.body.error).toBe('rate_limited')
    expect(res.body.retry_after_seconds).toBeGreaterThanOrEqual(1)
    expect(res.body.retry_after_seconds).toBeLessThanOrEqual(60)
    expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after_seconds))
    // Another key of another company is unaffected.
    const other = await onboard(limited)
    expect((await limited.call('GET', '/api/v1/usage', { key: other.api_key })).status).toBe(200)
  })
})
