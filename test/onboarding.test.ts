import type { SandboxPayments } from '../src/providers/payments/sandbox.js'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, uniqueEmail, type TestApp } from './helpers/app.js'
import { verifyPassword } from '../src/core/credentials.js'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.stop())

const valid = () => ({ business_name: 'Harbour City Plumbing', email: uniqueEmail(), plan: 'starter' })

describe('POST /api/v1/onboard', () => {
  it('creates a company, user and a working key, and stores the optional fields', async () => {
    const body = {
      ...valid(),
      contact_name: 'Dana Nguyen',
      trade_type: 'plumber',
      phone: '0412 345 678',
      abn: '51 824 753 556',
      referral_code: 'MATE2026',
      api_key_name: 'Ops agent',
      billing_cycle: 'yearly',
      password: 'correct horse battery staple',
    }
    const res = await app.call('POST', '/api/v1/onboard', { body })
    expect(res.status).toBe(201)
    const b = res.body
    expect(Object.keys(b)).toEqual(expect.arrayContaining(['company_id', 'user_id', 'email', 'api_key', 'api_key_prefix', 'plan', 'endpoints', 'message']))
    expect(b.email).toBe(body.email)
    expect(b.api_key).toMatch(/^ask_[A-Za-z0-9_-]{43}$/)
    expect(b.api_key.startsWith(b.api_key_prefix)).toBe(true)
    expect(b.generated_password).toBeUndefined()
    expect(b.plan).toMatchObject({ slug: 'starter', currency: 'AUD', billing_cycle: 'yearly', pricing: { monthly: 49, yearly: 490 } })
    expect(b.plan.subscription).toMatchObject({ status: 'trialing', provider: 'sandbox' })
    expect(b.endpoints.docs).toBe(`${app.runtime.deps.urls.apiBase}/docs`)

    const usage = await app.call('GET', '/api/v1/usage', { key: b.api_key })
    expect(usage.status).toBe(200)
    expect(usage.body.company_id).toBe(b.company_id)

    const [company] = await app.owner`select * from companies where id = ${b.company_id}`
    expect(company).toMatchObject({
      business_name: 'Harbour City Plumbing', contact_name: 'Dana Nguyen', trade_type: 'plumber',
      phone: '+61412345678', abn: '51824753556', referral_code: 'MATE2026', contact_email: body.email,
    })
    const [key] = await app.owner`select name, scopes, permission from api_keys where company_id = ${b.company_id}`
    expect(key).toMatchObject({ name: 'Ops agent', permission: 'admin', scopes: ['leads', 'quotes', 'jobs', 'clients', 'financials'] })
    const [sub] = await app.owner`select billing_cycle from subscriptions where company_id = ${b.company_id}`
    expect(sub!.billing_cycle).toBe('yearly')
  })

  it('never stores the key or the password in clear', async () => {
    const password = 'a very particular passphrase 42'
    const b = await onboard(app, { password })
    const generated = await onboard(app)
    expect(generated.generated_password).toMatch(/^[A-Za-z0-9_-]{24}$/)

    const dump = JSON.stringify(await app.owner`
      select (select json_agg(u) from users u) as users, (select json_agg(k) from api_keys k) as keys,
             (select json_agg(c) from companies c) as companies`)
    for (const secret of [b.api_key, password, generated.api_key, generated.generated_password]) {
      expect(dump).not.toContain(secret)
    }
    const [key] = await app.owner`select key_hash, prefix from api_keys where company_id = ${b.company_id}`
    expect(key!.key_hash).toBe(createHash('sha256').update(b.api_key).digest('hex'))
    expect(key!.prefix).toBe(b.api_key.slice(0, 12))

    const [user] = await app.owner`select password_hash from users where id = ${b.user_id}`
    expect(user!.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(await verifyPassword(password, user!.password_hash)).toBe(true)
    expect(await verifyPassword('wrong', user!.password_hash)).toBe(false)
    const [genUser] = await app.owner`select password_hash from users where id = ${generated.user_id}`
    expect(await verifyPassword(generated.generated_password, genUser!.password_hash)).toBe(true)
  })

  it('defaults billing_cycle to monthly; free is active; a paid plan with a payment method is active at once', async () => {
    const free = await onboard(app, { plan: 'free' })
    expect(free.plan).toMatchObject({ slug: 'free', billing_cycle: 'monthly', subscription: { status: 'active', trial_ends_at: null } })
    const paid = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_visa' })
    expect(paid.plan.subscription).toMatchObject({ status: 'active', trial_ends_at: null })
    const declined = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_chargeDeclined' })
    expect(declined.plan.subscription.status).toBe('trialing')
    expect(declined.message).toMatch(/declined/)
    const trial = await onboard(app, { plan: 'business' })
    const ends = new Date(trial.plan.subscription.trial_ends_at).getTime() - Date.now()
    expect(ends).toBeGreaterThan(13.9 * 86_400_000)
    expect(ends).toBeLessThanOrEqual(14 * 86_400_000)
  })

  const badBodies: [string, Record<string, unknown>, RegExp][] = [
    ['business_name missing', { email: 'a@b.com.au', plan: 'free' }, /business_name: is required/],
    ['business_name of one character', { business_name: 'A', email: 'a@b.com.au', plan: 'free' }, /business_name: must not have fewer than 2 characters/],
    ['business_name not a string', { business_name: 42, email: 'a@b.com.au', plan: 'free' }, /business_name: must be string/],
    ['email missing', { business_name: 'Acme', plan: 'free' }, /email: is required/],
    ['email malformed', { business_name: 'Acme', email: 'not-an-email', plan: 'free' }, /email: must match format "email"/],
    ['plan missing', { business_name: 'Acme', email: 'a@b.com.au' }, /plan: is required/],
    ['plan not a string', { business_name: 'Acme', email: 'a@b.com.au', plan: 3 }, /plan: /],
    ['billing_cycle outside the enum', { business_name: 'Acme', email: 'a@b.com.au', plan: 'free', billing_cycle: 'weekly' }, /billing_cycle: must be equal to one of the allowed values/],
    ['unknown field', { business_name: 'Acme', email: 'a@b.com.au', plan: 'free', businessName: 'x' }, /businessName: is not a known field/],
    ['invalid ABN checksum', { business_name: 'Acme', email: 'a@b.com.au', plan: 'free', abn: '12 345 678 901' }, /abn: is not a valid Australian Business Number/],
    ['password too short', { business_name: 'Acme', email: 'a@b.com.au', plan: 'free', password: 'short' }, /password: /],
    ['malformed payment method', { business_name: 'Acme', email: 'a@b.com.au', plan: 'free', stripe_payment_method_id: 'card 4242' }, /stripe_payment_method_id: /],
  ]
  for (const [name, body, message] of badBodies) {
    it(`400 validation_error: ${name}`, async () => {
      const res = await app.call('POST', '/api/v1/onboard', { body })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('validation_error')
      expect(typeof res.body.message).toBe('string')
      expect(res.body.messages.join('\n')).toMatch(message)
    })
  }

  it('400 validation_error lists every problem at once', async () => {
    const res = await app.call('POST', '/api/v1/onboard', { body: { business_name: 'A', email: 'nope' } })
    expect(res.status).toBe(400)
    expect(res.body.messages).toHaveLength(3)
  })

  it('400 validation_error for a body that is not a JSON object', async () => {
    for (const raw of ['{"business_name": ', '[1,2]', '"text"']) {
      const res = await app.call('POST', '/api/v1/onboard', { raw })
      expect(res.status, raw).toBe(400)
      expect(res.body.error).toBe('validation_error')
      expect(res.body.messages.length).toBeGreaterThan(0)
    }
    const empty = await app.call('POST', '/api/v1/onboard')
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe('validation_error')
  })

  it('400 invalid_plan with available_plans', async () => {
    const res = await app.call('POST', '/api/v1/onboard', { body: { ...valid(), plan: 'growth' } })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ error: 'invalid_plan', available_plans: ['free', 'starter', 'professional', 'business'] })
    expect(res.body.message).toMatch(/growth/)
  })

  it('409 email_taken, whatever the letter case, and nothing is half-created', async () => {
    const first = await onboard(app)
    const [{ count: before }] = (await app.owner`select count(*)::int from companies`) as any
    const res = await app.call('POST', '/api/v1/onboard', { body: { ...valid(), email: first.email.toUpperCase() } })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('email_taken')
    const [{ count: after }] = (await app.owner`select count(*)::int from companies`) as any
    expect(after).toBe(before)
  })

  it('409 for all but one of 10 concurrent sign-ups with the same email', async () => {
    const email = uniqueEmail('race')
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.call('POST', '/api/v1/onboard', { body: { ...valid(), email } })),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 409 && r.body.error === 'email_taken')).toHaveLength(9)
    const [{ count }] = (await app.owner`select count(*)::int from users where lower(email) = ${email}`) as any
    expect(count).toBe(1)
  })

  it('cancels the subscription activated for a sign-up that then lost the email race', async () => {
    const payments = app.runtime.deps.payments as SandboxPayments
    const before = payments.activeSubscriptions().length
    const email = uniqueEmail('paid-race')
    const results = await Promise.all(Array.from({ length: 10 }, () =>
      app.call('POST', '/api/v1/onboard', { body: { ...valid(), plan: 'business', stripe_payment_method_id: 'pm_card_visa', email } })))
    const winner = results.find((r) => r.status === 201)!
    expect(winner.body.plan.subscription.status).toBe('active')
    // Losers that got past the early email check had a subscription activated; each was cancelled.
    expect(payments.activeSubscriptions().length - before).toBe(1)
    const [sub] = await app.owner`select provider_subscription_id from subscriptions where company_id = ${winner.body.company_id}`
    expect(payments.activeSubscriptions()).toContain(sub!.provider_subscription_id)
  })
})

describe('onboarding rate limit', () => {
  let limited: TestApp
  beforeAll(async () => {
    limited = await startTestApp({ config: { ONBOARD_LIMIT_PER_HOUR: 3 } })
  })
  afterAll(() => limited?.stop())

  it('429 rate_limited with retry_after_seconds when one address hammers onboarding', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await limited.call('POST', '/api/v1/onboard', { body: valid() })).status)
    expect(statuses).toEqual([201, 201, 201])
    const res = await limited.call('POST', '/api/v1/onboard', { body: valid() })
    expect(res.status).toBe(429)
    expect(res.body.error).toBe('rate_limited')
    expect(res.body.retry_after_seconds).toBeGreaterThan(3000)
    expect(res.body.retry_after_seconds).toBeLessThanOrEqual(3600)
    expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after_seconds))
  })
})
