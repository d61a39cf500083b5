// Plan subscriptions follow the processor (issue 22 item 3). Against stripe-mock: the service's
// Stripe calls go through a pass-through that answers GET /v1/subscriptions/{id} from `processor`
// (Stripe's current record of the subscription, which stripe-mock, keeping no state, cannot hold)
// and forwards everything else. Events are signed with the Stripe library's test-header helper and
// carry payloads that may be stale: the service must re-read the subscription, so the outcome is the
// processor's current state whatever the order, and each event id is applied once. Features and
// limits are checked through the API: GET /billing, GET /usage and POST /leads (restWrite, from the
// professional plan; plan limits from migration 001: free 100 API calls, professional 5000,
// business 25000, starter 1000). The sandbox section moves a sandbox subscription through the
// same states from the sandbox portal.
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ManualClock } from '../src/core/clock.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { toolError } from './helpers/tools.js'

const SECRET = 'whsec_test_subscriptions'
const HOOK = '/api/v1/payments/webhooks/stripe'
const DAY = 86_400
const LIMITS = { free: 100, starter: 1000, professional: 5000, business: 25000 } as const
const hex = () => randomBytes(8).toString('hex')
const nowSeconds = () => Math.floor(Date.now() / 1000)

interface ProcessorRecord { status: string; plan: keyof typeof LIMITS; periodStart: number; periodEnd: number; cancelAtPeriodEnd?: boolean; trialEnd?: number | null; companyId: string }
const processor = new Map<string, ProcessorRecord>()

/** A subscription as Stripe's current API version shows it (the period on its item). */
function stripeSubscription(id: string, r: ProcessorRecord) {
  return {
    id, object: 'subscription', customer: `cus_${id.slice(4)}`, status: r.status, cancel_at_period_end: r.cancelAtPeriodEnd ?? false,
    trial_end: r.trialEnd ?? null, start_date: r.periodStart, metadata: { company_id: r.companyId, plan_slug: 'professional', billing_cycle: 'monthly' },
    items: { object: 'list', data: [{ id: `si_${id.slice(4)}`, object: 'subscription_item', current_period_start: r.periodStart, current_period_end: r.periodEnd,
      price: { id: `price_${r.plan}`, object: 'price', currency: 'aud', product: `tradie_plan_${r.plan}`, recurring: { interval: 'month' } } }] },
  }
}

let app: TestApp
let proxy: Server
let retrievals = 0
const clock = new ManualClock(new Date())

beforeAll(async () => {
  const upstream = inject('stripeMockUrl')
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    const match = req.method === 'GET' ? /^\/v1\/subscriptions\/([\w]+)/.exec(req.url ?? '') : null
    if (match) {
      retrievals++
      const record = processor.get(match[1]!)
      res.writeHead(record ? 200 : 404, { 'content-type': 'application/json', 'request-id': 'req_proxy' })
      res.end(JSON.stringify(record ? stripeSubscription(match[1]!, record) : { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such subscription' } }))
      return
    }
    const headers = Object.fromEntries(['authorization', 'content-type', 'stripe-account', 'stripe-version', 'idempotency-key'].flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])))
    const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body: body || undefined })
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_proxy' })
    res.end(await answer.text())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  app = await startTestApp({ clock, config: { PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: proxyUrl } })
})
afterAll(async () => {
  await app?.stop()
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
})

function event(type: string, object: Record<string, unknown>) {
  return { id: `evt_${hex()}`, object: 'event', api_version: Stripe.API_VERSION, type, created: nowSeconds(), livemode: false, data: { object } }
}
async function send(payload: { id: string }) {
  const body = JSON.stringify(payload)
  const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: nowSeconds() })
  const res = await app.call('POST', HOOK, { raw: body, headers: { 'stripe-signature': header } })
  expect(res.status).toBe(200)
  return res.body as { received: true; status: string; event_id: string; detail?: string }
}

/** A company on the free plan with a subscription at the processor (not yet announced). */
async function company() {
  const c = await onboard(app, { plan: 'free' })
  const subId = `sub_test_${hex()}`
  return { ...c, subId }
}
const setProcessor = (subId: string, record: ProcessorRecord) => processor.set(subId, record)

const checkoutCompleted = (c: { company_id: string; subId: string }) =>
  event('checkout.session.completed', { id: `cs_test_${hex()}`, object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: 'paid', subscription: c.subId, client_reference_id: c.company_id, metadata: { company_id: c.company_id } })
/** A subscription event whose payload says `stale` (what it said when sent), not what the processor holds now. */
const subscriptionEvent = (type: string, c: { company_id: string; subId: string }, stale: ProcessorRecord) => event(type, stripeSubscription(c.subId, stale))
const invoiceEvent = (type: 'invoice.paid' | 'invoice.payment_failed', c: { company_id: string; subId: string }, cents: number) =>
  event(type, { id: `in_${hex()}`, object: 'invoice', amount_paid: type === 'invoice.paid' ? cents : 0, amount_due: cents, currency: 'aud',
    parent: { type: 'subscription_details', subscription_details: { subscription: c.subId, metadata: { company_id: c.company_id } } } })

/** What the API says applies now: the subscription, the API-call limit and whether a REST write (restWrite) is allowed. */
async function applied(key: string) {
  const billing = await app.call('GET', '/api/v1/billing', { key })
  const usage = await app.call('GET', '/api/v1/usage', { key })
  const write = await app.call('POST', '/api/v1/leads', { key, body: { name: 'Sam Taylor', phone: '0412 345 678' } })
  return { subscription: billing.body.subscription, plan: usage.body.plan, apiCalls: usage.body.usage.api_calls.limit, canWrite: write.status === 201, writeStatus: write.status }
}

const period = () => ({ periodStart: nowSeconds() - DAY, periodEnd: nowSeconds() + 29 * DAY })

describe('Stripe subscription events against stripe-mock', () => {
  it('checkout.session.completed for a plan activates it, once, with the plan\'s features and limits', async () => {
    const c = await company()
    const before = await applied(c.api_key)
    expect(before).toMatchObject({ plan: 'free', apiCalls: LIMITS.free, canWrite: false, writeStatus: 403 })
    setProcessor(c.subId, { status: 'active', plan: 'professional', ...period(), companyId: c.company_id })
    const completed = checkoutCompleted(c)
    expect(await send(completed)).toEqual({ received: true, status: 'recorded', event_id: completed.id })
    const after = await applied(c.api_key)
    expect(after).toMatchObject({ plan: 'professional', apiCalls: LIMITS.professional, canWrite: true })
    expect(after.subscription).toMatchObject({ status: 'active', plan_slug: 'professional', effective_plan_slug: 'professional', provider: 'stripe', has_payment_method: true, cancel_at_period_end: false, scheduled_plan_slug: null })
    expect(after.subscription.current_period_end).toBe(new Date(processor.get(c.subId)!.periodEnd * 1000).toISOString())
    // Delivered again: acknowledged, nothing applied a second time.
    expect(await send(completed)).toEqual({ received: true, status: 'duplicate', event_id: completed.id })
    expect(await app.owner`select company_id, event_type from processor_events where event_id = ${completed.id}`).toEqual([{ company_id: c.company_id, event_type: 'checkout.session.completed' }])
  })

  it('each processor state moves the plan features and limits at once', async () => {
    const c = await company()
    const p = period()
    // [state the processor holds, the event announcing it, expected effective plan]
    const steps: [Partial<ProcessorRecord>, string, keyof typeof LIMITS][] = [
      [{ status: 'incomplete' }, 'customer.subscription.created', 'free'],
      [{ status: 'active' }, 'invoice.paid', 'professional'],
      // Stripe is retrying the card: paid features stay (docs/decisions.md).
      [{ status: 'past_due' }, 'invoice.payment_failed', 'professional'],
      [{ status: 'unpaid' }, 'customer.subscription.updated', 'free'],
      [{ status: 'trialing', trialEnd: nowSeconds() + 7 * DAY }, 'customer.subscription.updated', 'professional'],
      [{ status: 'trialing', trialEnd: nowSeconds() + 2 * DAY }, 'customer.subscription.trial_will_end', 'professional'],
      [{ status: 'active', cancelAtPeriodEnd: true }, 'customer.subscription.updated', 'professional'],
      [{ status: 'canceled' }, 'customer.subscription.deleted', 'free'],
    ]
    for (const [state, type, plan] of steps) {
      const record: ProcessorRecord = { plan: 'professional', ...p, companyId: c.company_id, status: 'active', trialEnd: null, ...state }
      setProcessor(c.subId, record)
      const e = type.startsWith('invoice.') ? invoiceEvent(type as 'invoice.paid', c, 14900) : subscriptionEvent(type, c, record)
      expect((await send(e)).status).toBe('recorded')
      const now = await applied(c.api_key)
      expect({ state: record.status, status: now.subscription.status, effective: now.subscription.effective_plan_slug, plan: now.plan, apiCalls: now.apiCalls, canWrite: now.canWrite })
        .toEqual({ state: record.status, status: record.status, effective: plan, plan, apiCalls: LIMITS[plan], canWrite: plan !== 'free' })
      if (state.cancelAtPeriodEnd) expect(now.subscription.cancel_at_period_end).toBe(true)
    }
  })

  it('events delivered twice and in reverse order leave the processor\'s current state, each applied once', async () => {
    const c = await company()
    const p = period()
    const at = (status: string, plan: ProcessorRecord['plan'] = 'professional'): ProcessorRecord => ({ status, plan, ...p, companyId: c.company_id })
    // The history as it happened: created incomplete, a failed payment, paid, then an upgrade to business.
    const history = [
      subscriptionEvent('customer.subscription.created', c, at('incomplete')),
      invoiceEvent('invoice.payment_failed', c, 14900),
      invoiceEvent('invoice.paid', c, 14900),
      subscriptionEvent('customer.subscription.updated', c, at('active', 'business')),
    ]
    setProcessor(c.subId, at('active', 'business'))
    const outcomes: string[] = []
    for (const e of [...history].reverse()) {
      outcomes.push((await send(e)).status, (await send(e)).status)
    }
    expect(outcomes).toEqual(['recorded', 'duplicate', 'recorded', 'duplicate', 'recorded', 'duplicate', 'recorded', 'duplicate'])
    // The last event delivered said "incomplete"; the processor says active on business.
    const now = await applied(c.api_key)
    expect(now).toMatchObject({ plan: 'business', apiCalls: LIMITS.business, canWrite: true })
    expect(now.subscription).toMatchObject({ status: 'active', plan_slug: 'business', effective_plan_slug: 'business' })
    const rows = await app.owner`select event_id from processor_events where company_id = ${c.company_id}`
    expect(rows.map((r) => r.event_id).sort()).toEqual(history.map((e) => e.id).sort())
    // The first paid period was settled once, by the one invoice.paid.
    const [sub] = await app.owner`select first_paid_at from subscriptions where company_id = ${c.company_id}`
    expect(sub!.first_paid_at).toEqual(new Date(history[2]!.created * 1000))
  })

  it('a downgrade applies at the end of the paid period', async () => {
    const c = await company()
    const p = period()
    setProcessor(c.subId, { status: 'active', plan: 'business', ...p, companyId: c.company_id })
    await send(checkoutCompleted(c))
    // The owner moves to starter in the portal; Stripe's record changes at once, the period does not.
    setProcessor(c.subId, { status: 'active', plan: 'starter', ...p, companyId: c.company_id })
    await send(subscriptionEvent('customer.subscription.updated', c, processor.get(c.subId)!))
    let now = await applied(c.api_key)
    expect(now.subscription).toMatchObject({ plan_slug: 'business', scheduled_plan_slug: 'starter', effective_plan_slug: 'business' })
    expect(now).toMatchObject({ plan: 'business', apiCalls: LIMITS.business, canWrite: true })
    // Past the period's end, starter applies even before the renewal's event arrives.
    try {
      clock.set(new Date((p.periodEnd + 60) * 1000))
      const usage = await app.call('GET', '/api/v1/usage', { key: c.api_key })
      expect(usage.body).toMatchObject({ plan: 'starter', usage: { api_calls: { limit: LIMITS.starter } } })
    } finally {
      clock.set(new Date())
    }
    // The renewal: the new period is starter's.
    setProcessor(c.subId, { status: 'active', plan: 'starter', periodStart: p.periodEnd, periodEnd: p.periodEnd + 30 * DAY, companyId: c.company_id })
    await send(invoiceEvent('invoice.paid', c, 4900))
    now = await applied(c.api_key)
    expect(now.subscription).toMatchObject({ plan_slug: 'starter', scheduled_plan_slug: null, effective_plan_slug: 'starter' })
    expect(now).toMatchObject({ plan: 'starter', apiCalls: LIMITS.starter, canWrite: false })
  })

  it('an upgrade applies at once', async () => {
    const c = await company()
    const p = period()
    setProcessor(c.subId, { status: 'active', plan: 'starter', ...p, companyId: c.company_id })
    await send(checkoutCompleted(c))
    expect((await applied(c.api_key)).canWrite).toBe(false)
    setProcessor(c.subId, { status: 'active', plan: 'professional', ...p, companyId: c.company_id })
    await send(subscriptionEvent('customer.subscription.updated', c, processor.get(c.subId)!))
    expect(await applied(c.api_key)).toMatchObject({ plan: 'professional', apiCalls: LIMITS.professional, canWrite: true })
  })

  it('an unsigned or wrongly signed subscription event changes nothing; one for an unknown subscription is ignored', async () => {
    const c = await company()
    setProcessor(c.subId, { status: 'active', plan: 'business', ...period(), companyId: c.company_id })
    const e = checkoutCompleted(c)
    const body = JSON.stringify(e)
    const forged = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: 'whsec_wrong', timestamp: nowSeconds() })
    const res = await app.call('POST', HOOK, { raw: body, headers: { 'stripe-signature': forged } })
    expect(res.status).toBe(400)
    expect((await applied(c.api_key)).plan).toBe('free')
    expect(await app.owner`select 1 from processor_events where event_id = ${e.id}`).toHaveLength(0)
    const before = retrievals
    const unknown = await send(checkoutCompleted({ company_id: c.company_id, subId: `sub_test_${hex()}` }))
    expect(unknown).toMatchObject({ status: 'ignored', detail: 'unknown subscription' })
    expect(retrievals).toBe(before + 1)
  })

  it('billing.get_portal without a subscription names the checkout step', async () => {
    // A business trial: MCP access, no payment method yet.
    const trial = await onboard(app, { plan: 'business' })
    const client = await connectHttp(app, trial.api_key)
    try {
      const error = await toolError(client, 'billing.get_portal')
      expect(error).toMatchObject({ error: 'conflict', next_step: 'billing.create_checkout' })
      expect(error.message).toContain('billing.create_checkout')
    } finally {
      await client.close()
    }
    const rest = await app.call('POST', '/api/v1/billing/portal', { key: trial.api_key })
    expect(rest.status).toBe(409)
    expect(rest.body.message).toContain('/billing/checkout')
  })
})

describe('the sandbox moves a subscription through the same states', () => {
  let sandbox: TestApp
  beforeAll(async () => {
    sandbox = await startTestApp()
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  it('from the sandbox portal: past_due keeps features, unpaid drops them, paid restores them, a downgrade waits for the renewal', async () => {
    const c = await onboard(sandbox, { plan: 'free' })
    const key = c.api_key
    const checkout = await sandbox.call('POST', '/api/v1/billing/checkout', { key, body: { plan_slug: 'professional' } })
    await fetch(`${checkout.body.checkout_url}/pay`, { method: 'POST' })
    const portal = (await sandbox.call('POST', '/api/v1/billing/portal', { key })).body.portal_url as string
    expect(await (await fetch(portal)).text()).toContain('Simulate the processor')
    const change = async (fields: Record<string, string>) => {
      const res = await fetch(`${portal}/state`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })
      expect(res.status).toBe(200)
      expect(await res.text()).toContain(': recorded')
      const billing = (await sandbox.call('GET', '/api/v1/billing', { key })).body.subscription
      const usage = (await sandbox.call('GET', '/api/v1/usage', { key })).body
      const write = await sandbox.call('POST', '/api/v1/leads', { key, body: { name: 'Sam Taylor', phone: '0412 345 678' } })
      return { status: billing.status, plan_slug: billing.plan_slug, scheduled: billing.scheduled_plan_slug, effective: usage.plan, apiCalls: usage.usage.api_calls.limit, canWrite: write.status === 201 }
    }
    expect(await change({ event: 'invoice.payment_failed', status: 'past_due' })).toEqual({ status: 'past_due', plan_slug: 'professional', scheduled: null, effective: 'professional', apiCalls: LIMITS.professional, canWrite: true })
    expect(await change({ status: 'unpaid' })).toEqual({ status: 'unpaid', plan_slug: 'professional', scheduled: null, effective: 'free', apiCalls: LIMITS.free, canWrite: false })
    expect(await change({ event: 'invoice.paid', status: 'active' })).toEqual({ status: 'active', plan_slug: 'professional', scheduled: null, effective: 'professional', apiCalls: LIMITS.professional, canWrite: true })
    expect(await change({ plan_slug: 'starter' })).toEqual({ status: 'active', plan_slug: 'professional', scheduled: 'starter', effective: 'professional', apiCalls: LIMITS.professional, canWrite: true })
    expect(await change({ event: 'invoice.paid', renew: 'true' })).toEqual({ status: 'active', plan_slug: 'starter', scheduled: null, effective: 'starter', apiCalls: LIMITS.starter, canWrite: false })
    expect(await change({ event: 'customer.subscription.deleted' })).toEqual({ status: 'canceled', plan_slug: 'starter', scheduled: null, effective: 'free', apiCalls: LIMITS.free, canWrite: false })
    const [sub] = await sandbox.owner`select first_paid_at from subscriptions where company_id = ${c.company_id}`
    expect(sub!.first_paid_at).toBeInstanceOf(Date)
  })
})
