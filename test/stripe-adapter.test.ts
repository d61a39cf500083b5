// The Stripe adapter against stripe-mock. stripe-mock checks requests against Stripe's OpenAPI
// spec (an unknown top-level parameter or a bad enum value is a 400; nested objects are checked
// more loosely) and answers from fixtures, keeping no state. A small recording proxy in front of it shows what the adapter sent (headers and form
// fields) and can change an answer, to check how the adapter reads declines and other replies.
// Webhooks are signed with the library's own test-header helper.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { AppError } from '../src/core/errors.js'
import { WebhookSignatureError, type InvoicePaymentRequest } from '../src/providers/payments/provider.js'
import { StripePayments } from '../src/providers/payments/stripe.js'

interface Recorded {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  form: Record<string, string>
}
type Rewrite = (upstream: { status: number; body: any }) => { status: number; body: unknown }

const recorded: Recorded[] = []
const rewrites = new Map<string, Rewrite>()
let proxy: Server
let proxyUrl = ''

beforeAll(async () => {
  const upstreamUrl = inject('stripeMockUrl')
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    const url = new URL(req.url ?? '/', 'http://proxy')
    // Form fields of a POST, or the query of a GET/DELETE: Stripe encodes both the same way.
    recorded.push({ method: req.method!, path: url.pathname, headers: req.headers, form: Object.fromEntries(new URLSearchParams(body || url.search)) })
    const headers: Record<string, string> = {}
    for (const name of ['authorization', 'content-type', 'stripe-account', 'stripe-version', 'idempotency-key']) {
      const value = req.headers[name]
      if (typeof value === 'string') headers[name] = value
    }
    const upstream = await fetch(`${upstreamUrl}${req.url}`, { method: req.method, headers, body: body || undefined })
    let answer = { status: upstream.status, body: (await upstream.json()) as unknown }
    const rewrite = rewrites.get(`${req.method} ${url.pathname}`)
    if (rewrite) answer = rewrite(answer)
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_proxy' })
    res.end(JSON.stringify(answer.body))
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())))

beforeEach(() => {
  recorded.length = 0
  rewrites.clear()
})

const WEBHOOK_SECRET = 'whsec_test_adapter_secret'
let clock = new Date()
const urls = { siteRoot: 'https://app.example.com.au' }
const adapter = () => new StripePayments({ secretKey: 'sk_test_adapter', webhookSecret: WEBHOOK_SECRET, apiUrl: proxyUrl, urls, now: () => clock })
const requests = (method: string, path: string) => recorded.filter((r) => r.method === method && r.path === path)
const only = (method: string, path: string) => {
  const found = requests(method, path)
  expect(found, `${method} ${path} was sent once`).toHaveLength(1)
  return found[0]!
}
const cardDeclined: Rewrite = () => ({
  status: 402,
  body: { error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } },
})

const invoiceRequest = (overrides: Partial<InvoicePaymentRequest> = {}): InvoicePaymentRequest => ({
  companyId: 'c0a1b2c3-0000-4000-8000-000000000001',
  accountId: 'acct_1TradieSparkyBros',
  invoiceId: 'a1b2c3d4-0000-4000-8000-000000000002',
  invoiceNumber: 'INV-00001',
  amountCents: 110_000,
  surchargeCents: 1_650,
  surchargeLabel: 'Card surcharge (1.5%)',
  customerEmail: 'jordan@example.com.au',
  businessName: 'Sparky Bros Electrical',
  successUrl: 'https://app.example.com.au/i/tok123?paid=1',
  cancelUrl: 'https://app.example.com.au/i/tok123',
  publicToken: 'tok123',
  idempotencyKey: 'invoice-payment:a1b2c3d4:110000',
  ...overrides,
})

describe('invoice payments (Connect direct charges)', () => {
  it('creates a Checkout Session on the connected account with the balance and the surcharge as two lines', async () => {
    const session = await adapter().createInvoicePayment(invoiceRequest())
    expect(session.id).toMatch(/^cs_/)
    expect(session.url).toMatch(/^https:\/\//)
    expect(session.expiresAt).toBeInstanceOf(Date)
    expect(Number.isNaN(session.expiresAt.getTime())).toBe(false)

    const sent = only('POST', '/v1/checkout/sessions')
    // Direct charge: the request is made as the connected account, under the caller's idempotency key.
    expect(sent.headers['stripe-account']).toBe('acct_1TradieSparkyBros')
    expect(sent.headers['idempotency-key']).toBe('invoice-payment:a1b2c3d4:110000')
    expect(sent.headers.authorization).toBe('Bearer sk_test_adapter')
    expect(sent.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'aud',
      'line_items[0][price_data][unit_amount]': '110000',
      'line_items[0][price_data][product_data][name]': 'Invoice INV-00001',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][currency]': 'aud',
      'line_items[1][price_data][unit_amount]': '1650',
      'line_items[1][price_data][product_data][name]': 'Card surcharge (1.5%)',
      customer_email: 'jordan@example.com.au',
      success_url: 'https://app.example.com.au/i/tok123?paid=1',
      cancel_url: 'https://app.example.com.au/i/tok123',
    })
    const metadata = { company_id: 'c0a1b2c3-0000-4000-8000-000000000001', invoice_id: 'a1b2c3d4-0000-4000-8000-000000000002', invoice_number: 'INV-00001', surcharge_cents: '1650', public_token: 'tok123' }
    for (const [key, value] of Object.entries(metadata)) {
      expect(sent.form[`metadata[${key}]`], `session metadata ${key}`).toBe(value)
      expect(sent.form[`payment_intent_data[metadata][${key}]`], `payment intent metadata ${key}`).toBe(value)
    }
    // Nothing else is charged: no platform fee is taken from the business's payment.
    expect(Object.keys(sent.form).filter((k) => k.includes('application_fee'))).toEqual([])
    expect(Object.keys(sent.form).filter((k) => k.startsWith('line_items[2]'))).toEqual([])
  })

  it('sends one line and no email when there is no surcharge and no client email', async () => {
    await adapter().createInvoicePayment(invoiceRequest({ surchargeCents: 0, customerEmail: null }))
    const sent = only('POST', '/v1/checkout/sessions')
    expect(Object.keys(sent.form).filter((k) => k.startsWith('line_items[1]'))).toEqual([])
    expect(sent.form).not.toHaveProperty('customer_email')
    expect(sent.form['metadata[surcharge_cents]']).toBe('0')
    expect(sent.form['line_items[0][price_data][unit_amount]']).toBe('110000')
  })

  it('surfaces a Stripe refusal instead of inventing a session', async () => {
    rewrites.set('POST /v1/checkout/sessions', () => ({ status: 400, body: { error: { type: 'invalid_request_error', message: 'Your account cannot currently make live charges.' } } }))
    await expect(adapter().createInvoicePayment(invoiceRequest())).rejects.toThrow(/cannot currently make live charges/)
  })
})

describe('connected accounts', () => {
  it('creates an AU account the business controls, then an onboarding link for it', async () => {
    const account = await adapter().connectAccount({ companyId: 'company-1', email: 'owner@sparky.example', businessName: 'Sparky Bros', existingAccountId: null, returnUrl: 'https://app.example.com.au/settings/payments' })
    expect(account.accountId).toMatch(/^acct_/)
    expect(account.chargesEnabled).toBe(false)
    expect(account.onboardingUrl).toMatch(/^https:\/\//)

    const created = only('POST', '/v1/accounts')
    expect(created.headers['stripe-account']).toBeUndefined()
    expect(created.headers['idempotency-key']).toBe('connect-account:company-1')
    expect(created.form).toMatchObject({
      country: 'AU',
      email: 'owner@sparky.example',
      'business_profile[name]': 'Sparky Bros',
      'metadata[company_id]': 'company-1',
      'controller[stripe_dashboard][type]': 'full',
      'controller[fees][payer]': 'account',
      'controller[losses][payments]': 'stripe',
      'controller[requirement_collection]': 'stripe',
      'capabilities[card_payments][requested]': 'true',
    })
    const link = only('POST', '/v1/account_links')
    expect(link.form).toEqual({ account: account.accountId, type: 'account_onboarding', refresh_url: 'https://app.example.com.au/settings/payments', return_url: 'https://app.example.com.au/settings/payments' })
  })

  it('reuses an existing account and only makes a fresh onboarding link', async () => {
    const account = await adapter().connectAccount({ companyId: 'company-1', email: 'owner@sparky.example', businessName: 'Sparky Bros', existingAccountId: 'acct_existing123', returnUrl: 'https://app.example.com.au/back' })
    expect(account.accountId).toBe('acct_existing123')
    expect(account.onboardingUrl).toMatch(/^https:\/\//)
    expect(requests('POST', '/v1/accounts')).toHaveLength(0)
    only('GET', '/v1/accounts/acct_existing123')
    expect(only('POST', '/v1/account_links').form.account).toBe('acct_existing123')
  })

  it('reports an account that can take payments with nothing left to do, and makes no link', async () => {
    rewrites.set('GET /v1/accounts/acct_done', ({ body }) => ({ status: 200, body: { ...body, charges_enabled: true, details_submitted: true, requirements: { ...body.requirements, currently_due: [] } } }))
    const account = await adapter().connectAccount({ companyId: 'company-1', email: 'o@x.example', businessName: 'X', existingAccountId: 'acct_done', returnUrl: 'https://app.example.com.au/back' })
    expect(account).toEqual({ accountId: 'acct_done', chargesEnabled: true, onboardingUrl: null })
    expect(requests('POST', '/v1/account_links')).toHaveLength(0)
  })
})

describe('plan billing', () => {
  const plan = { companyId: 'company-2', planSlug: 'pro', planName: 'Pro', billingCycle: 'yearly' as const, amountCents: 49_000, customerEmail: 'owner@plumbing.example' }

  it('starts a subscription Checkout in AUD under the current site root', async () => {
    const payments = adapter()
    urls.siteRoot = 'http://localhost:4567' // the root changes once the server listens
    try {
      const session = await payments.createCheckoutSession(plan)
      expect(session.id).toMatch(/^cs_/)
      expect(session.url).toMatch(/^https:\/\//)
    } finally {
      urls.siteRoot = 'https://app.example.com.au'
    }
    const sent = only('POST', '/v1/checkout/sessions')
    expect(sent.headers['stripe-account']).toBeUndefined()
    expect(sent.form).toMatchObject({
      mode: 'subscription',
      client_reference_id: 'company-2',
      customer_email: 'owner@plumbing.example',
      'line_items[0][price_data][currency]': 'aud',
      'line_items[0][price_data][unit_amount]': '49000',
      'line_items[0][price_data][recurring][interval]': 'year',
      'line_items[0][price_data][product]': 'tradie_plan_pro',
      'metadata[company_id]': 'company-2',
      'metadata[plan_slug]': 'pro',
      'subscription_data[metadata][company_id]': 'company-2',
    })
    expect(sent.form.success_url).toBe('http://localhost:4567/billing/checkout/complete?session_id={CHECKOUT_SESSION_ID}')
    expect(sent.form.cancel_url).toBe('http://localhost:4567/billing/checkout/cancelled')
  })

  it('opens a portal session that returns to the site', async () => {
    clock = new Date('2026-03-01T00:00:00Z')
    try {
      const session = await adapter().createPortalSession({ companyId: 'company-2', customerId: 'cus_portal1' })
      expect(session.id).toMatch(/^bps_/)
      expect(session.url).toMatch(/^https:\/\//)
      expect(session.expiresAt.toISOString()).toBe('2026-03-01T00:05:00.000Z')
    } finally {
      clock = new Date()
    }
    expect(only('POST', '/v1/billing_portal/sessions').form).toEqual({ customer: 'cus_portal1', return_url: 'https://app.example.com.au/billing' })
  })

  it('activates with the payment method as the customer default, charging at once', async () => {
    const activation = await adapter().activateSubscription({ ...plan, billingCycle: 'monthly', amountCents: 4_900, paymentMethodId: 'pm_card_visa' })
    expect(activation.customerId).toMatch(/^cus_/)
    expect(activation.subscriptionId).toMatch(/^sub_/)
    expect(only('POST', '/v1/customers').form).toMatchObject({
      email: 'owner@plumbing.example',
      payment_method: 'pm_card_visa',
      'invoice_settings[default_payment_method]': 'pm_card_visa',
      'metadata[company_id]': 'company-2',
    })
    expect(only('POST', '/v1/subscriptions').form).toMatchObject({
      customer: activation.customerId,
      payment_behavior: 'error_if_incomplete',
      'items[0][price_data][currency]': 'aud',
      'items[0][price_data][product]': 'tradie_plan_pro',
      'items[0][price_data][unit_amount]': '4900',
      'items[0][price_data][recurring][interval]': 'month',
      'metadata[company_id]': 'company-2',
    })
  })

  it('creates the plan product under its fixed id the first time', async () => {
    rewrites.set('GET /v1/products/tradie_plan_pro', () => ({ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such product' } } }))
    await adapter().activateSubscription({ ...plan, paymentMethodId: 'pm_card_visa' })
    expect(only('POST', '/v1/products').form).toMatchObject({ id: 'tradie_plan_pro', name: 'Pro plan' })
    expect(only('POST', '/v1/subscriptions').form['items[0][price_data][product]']).toBe('tradie_plan_pro')
  })

  it('turns a card decline into payment_required and removes the customer it made', async () => {
    rewrites.set('POST /v1/subscriptions', cardDeclined)
    const error = await adapter().activateSubscription({ ...plan, paymentMethodId: 'pm_card_chargeDeclined' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('payment_required')
    expect((error as AppError).message).toMatch(/declined/)
    expect(only('POST', '/v1/customers').form.payment_method).toBe('pm_card_chargeDeclined')
    expect(recorded.filter((r) => r.method === 'DELETE' && r.path.startsWith('/v1/customers/cus_'))).toHaveLength(1)
  })

  it('passes other Stripe failures through unchanged', async () => {
    rewrites.set('POST /v1/subscriptions', () => ({ status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } }))
    const error = await adapter().activateSubscription({ ...plan, paymentMethodId: 'pm_card_visa' }).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(AppError)
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError)
  })

  it('cancels a subscription and refunds what its first invoice took', async () => {
    rewrites.set('DELETE /v1/subscriptions/sub_signup1', ({ body }) => ({ status: 200, body: { ...body, status: 'canceled', latest_invoice: 'in_signup1' } }))
    rewrites.set('GET /v1/invoice_payments', ({ body }) => ({ status: 200, body: { ...body, data: [{ ...body.data[0], status: 'paid', payment: { type: 'payment_intent', payment_intent: 'pi_signup1' } }] } }))
    await adapter().cancelSubscription({ companyId: 'company-2', subscriptionId: 'sub_signup1' })
    only('DELETE', '/v1/subscriptions/sub_signup1')
    expect(only('GET', '/v1/invoice_payments').form).toEqual({ invoice: 'in_signup1', status: 'paid' })
    const refund = only('POST', '/v1/refunds')
    expect(refund.form).toMatchObject({ payment_intent: 'pi_signup1', 'metadata[subscription_id]': 'sub_signup1' })
    expect(refund.headers['idempotency-key']).toBe('refund-cancelled-signup:pi_signup1')
  })

  it('cancels without refunding when nothing was invoiced', async () => {
    await adapter().cancelSubscription({ companyId: 'company-2', subscriptionId: 'sub_unpaid' })
    only('DELETE', '/v1/subscriptions/sub_unpaid')
    expect(requests('POST', '/v1/refunds')).toHaveLength(0)
  })
})

describe('webhooks', () => {
  const nowSeconds = () => Math.floor(clock.getTime() / 1000)
  const event = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    id: `evt_${type.replace(/\W/g, '_')}`, object: 'event', type, created: 1_767_225_600, api_version: Stripe.API_VERSION, livemode: false, data: { object }, ...extra,
  })
  const signed = (payload: unknown, options: { secret?: string; timestamp?: number } = {}) => {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp ?? nowSeconds() })
    return { body: Buffer.from(body), header }
  }
  const paidSession = (overrides: Record<string, unknown> = {}) => ({
    id: 'cs_test_paid1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', status: 'complete', amount_total: 111_650, currency: 'aud', payment_intent: 'pi_paid1',
    metadata: { company_id: 'company-3', invoice_id: 'invoice-3', invoice_number: 'INV-00003', surcharge_cents: '1650', public_token: 'tok3' },
    ...overrides,
  })
  const verify = (payload: unknown, options?: { secret?: string; timestamp?: number }) => {
    const { body, header } = signed(payload, options)
    return adapter().verifyWebhook(body, header)
  }

  it('books a paid invoice checkout with the surcharge split off', async () => {
    expect(await verify(event('checkout.session.completed', paidSession(), { account: 'acct_1TradieSparkyBros' }))).toEqual({
      kind: 'payment', eventId: 'evt_checkout_session_completed', companyId: 'company-3', invoiceId: 'invoice-3',
      amountCents: 110_000, surchargeCents: 1_650, paymentId: 'pi_paid1', occurredAt: new Date('2026-01-01T00:00:00Z'), accountId: 'acct_1TradieSparkyBros',
    })
  })

  it('reads the payment id from an expanded PaymentIntent, else falls back to the session id', async () => {
    const expanded = await verify(event('checkout.session.completed', paidSession({ payment_intent: { id: 'pi_expanded', object: 'payment_intent' } })))
    expect(expanded).toMatchObject({ kind: 'payment', paymentId: 'pi_expanded' })
    const none = await verify(event('checkout.session.completed', paidSession({ payment_intent: null, metadata: { company_id: 'company-3', invoice_id: 'invoice-3' } })))
    expect(none).toMatchObject({ kind: 'payment', paymentId: 'cs_test_paid1', amountCents: 111_650, surchargeCents: 0 })
  })

  it('waits for the money on delayed payment methods', async () => {
    expect(await verify(event('checkout.session.completed', paidSession({ payment_status: 'unpaid' })))).toEqual({ kind: 'ignored', eventId: 'evt_checkout_session_completed', type: 'checkout.session.completed' })
    expect(await verify(event('checkout.session.async_payment_succeeded', paidSession()))).toMatchObject({ kind: 'payment', eventId: 'evt_checkout_session_async_payment_succeeded', amountCents: 110_000, surchargeCents: 1_650 })
  })

  it('ignores a paid session without our company and invoice metadata (e.g. a plan checkout)', async () => {
    const planCheckout = paidSession({ mode: 'subscription', metadata: { company_id: 'company-3', plan_slug: 'pro' } })
    expect(await verify(event('checkout.session.completed', planCheckout))).toEqual({ kind: 'ignored', eventId: 'evt_checkout_session_completed', type: 'checkout.session.completed' })
    expect(await verify(event('checkout.session.completed', paidSession({ metadata: {} })))).toMatchObject({ kind: 'ignored' })
  })

  it('maps account.updated to the account and whether it can charge', async () => {
    expect(await verify(event('account.updated', { id: 'acct_1TradieSparkyBros', object: 'account', charges_enabled: true }))).toEqual({
      kind: 'account', eventId: 'evt_account_updated', accountId: 'acct_1TradieSparkyBros', chargesEnabled: true, occurredAt: new Date('2026-01-01T00:00:00Z'),
    })
    expect(await verify(event('account.updated', { id: 'acct_2', object: 'account', charges_enabled: false }))).toMatchObject({ kind: 'account', accountId: 'acct_2', chargesEnabled: false })
  })

  it('acknowledges other event types as ignored', async () => {
    expect(await verify(event('customer.created', { id: 'cus_1', object: 'customer' }))).toEqual({ kind: 'ignored', eventId: 'evt_customer_created', type: 'customer.created' })
  })

  it('refuses a tampered body, a missing or malformed header, another secret and a stale timestamp', async () => {
    const payments = adapter()
    const good = signed(event('checkout.session.completed', paidSession()))
    const tampered = Buffer.from(good.body.toString().replace('111650', '999999'))
    await expect(payments.verifyWebhook(tampered, good.header)).rejects.toThrow(WebhookSignatureError)
    await expect(payments.verifyWebhook(good.body, undefined)).rejects.toThrow(WebhookSignatureError)
    await expect(payments.verifyWebhook(good.body, '')).rejects.toThrow(WebhookSignatureError)
    await expect(payments.verifyWebhook(good.body, 'not-a-signature')).rejects.toThrow(WebhookSignatureError)
    const otherSecret = signed(event('account.updated', { id: 'acct_x', charges_enabled: true }), { secret: 'whsec_someone_else' })
    await expect(payments.verifyWebhook(otherSecret.body, otherSecret.header)).rejects.toThrow(WebhookSignatureError)
    const stale = signed(event('account.updated', { id: 'acct_x', charges_enabled: true }), { timestamp: nowSeconds() - 301 })
    await expect(payments.verifyWebhook(stale.body, stale.header)).rejects.toThrow(WebhookSignatureError)
    // The same signature is good when it is fresh, so the refusals above are about what they changed.
    expect((await payments.verifyWebhook(good.body, good.header)).kind).toBe('payment')
  })

  it('measures freshness on the service clock', async () => {
    const { body, header } = signed(event('account.updated', { id: 'acct_x', charges_enabled: true }))
    clock = new Date(clock.getTime() + 10 * 60 * 1000)
    try {
      await expect(adapter().verifyWebhook(body, header)).rejects.toThrow(WebhookSignatureError)
    } finally {
      clock = new Date()
    }
  })

  it('refuses a correctly signed body that is not JSON', async () => {
    const { body, header } = signed('this is not json')
    await expect(adapter().verifyWebhook(body, header)).rejects.toThrow(WebhookSignatureError)
  })
})
