// The service configured for Stripe, against stripe-mock, through HTTP and MCP: connecting the
// payment account, the account.updated webhook that activates it, the /pay redirect to Checkout,
// and checkout.session.completed booking a payment once. Webhooks are signed with the Stripe
// library's own test-header helper, with the current time (the adapter measures their age on the
// service's clock). stripe-mock keeps no state, so the webhooks are written here in Stripe's shape.
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { connectClient } from '../src/temporal/connection.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const SECRET = 'whsec_test_secret'
const HOOK = '/api/v1/payments/webhooks/stripe'
let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let clientA: Client
let clientB: Client
const accounts: Record<'a' | 'b', string> = { a: '', b: '' }
// A pass-through in front of stripe-mock that keeps the Checkout Sessions the service asked for
// (stripe-mock itself remembers nothing), to see the amounts and account /pay sent.
const checkoutRequests: { account: string | undefined; form: URLSearchParams }[] = []
let proxy: Server

beforeAll(async () => {
  const upstream = inject('stripeMockUrl')
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString()
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') checkoutRequests.push({ account: req.headers['stripe-account'] as string | undefined, form: new URLSearchParams(body) })
    const headers = Object.fromEntries(['authorization', 'content-type', 'stripe-account', 'stripe-version', 'idempotency-key'].flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])))
    const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body: body || undefined })
    res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_proxy' })
    res.end(await answer.text())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  app = await startTestApp({ config: { PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: proxyUrl } })
  // A activates its plan through stripe-mock at once; B is on the trial (business features for 14 days).
  a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { plan: 'business', business_name: 'Other Plumbing' })
  clientA = await connectHttp(app, a.api_key)
  clientB = await connectHttp(app, b.api_key)
})
afterAll(async () => {
  await clientA?.close()
  await clientB?.close()
  await app?.stop()
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
})

const nowSeconds = () => Math.floor(Date.now() / 1000)
const hex = () => randomBytes(8).toString('hex')

function stripeEvent(type: string, object: Record<string, unknown>, account?: string) {
  return { id: `evt_${hex()}`, object: 'event', api_version: Stripe.API_VERSION, type, created: nowSeconds(), livemode: false, data: { object }, ...(account ? { account } : {}) }
}

interface SendOptions { secret?: string; timestamp?: number; header?: string | null; body?: string; path?: string }
function signedRequest(payload: unknown, options: SendOptions = {}) {
  const body = JSON.stringify(payload)
  const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? SECRET, timestamp: options.timestamp ?? nowSeconds() })
  return { body: options.body ?? body, header: options.header === undefined ? header : options.header }
}
function deliver(request: { body: string; header: string | null }, path = HOOK) {
  return app.call('POST', path, { raw: request.body, headers: request.header === null ? {} : { 'stripe-signature': request.header } })
}
const send = (payload: unknown, options: SendOptions = {}) => deliver(signedRequest(payload, options), options.path)

const accountUpdated = (accountId: string, chargesEnabled: boolean) =>
  stripeEvent('account.updated', { id: accountId, object: 'account', charges_enabled: chargesEnabled, details_submitted: chargesEnabled }, accountId)

/** A paid Checkout Session as the service created it: our metadata, amount_total incl. the surcharge. */
function paidSession(inv: any, companyId: string, amountTotalCents: number, surchargeCents: number, paymentIntent: string, overrides: Record<string, unknown> = {}) {
  return {
    id: `cs_test_${hex()}`, object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', currency: 'aud', amount_total: amountTotalCents, payment_intent: paymentIntent,
    metadata: { company_id: companyId, invoice_id: inv.id, invoice_number: inv.invoiceNumber, surcharge_cents: String(surchargeCents), public_token: inv.publicUrl.split('/').pop() },
    ...overrides,
  }
}

/** A completed job for `amount` (incl. GST, so the final invoice totals exactly that) and its invoice. */
async function invoiceFor(client: Client, amount: number, options: { send?: boolean } = {}) {
  const lead = (await tool(client, 'leads.create', { name: 'Jordan Lee', phone: '0412 345 678', email: `jordan.${hex()}@example.com.au` })).lead
  const job = (await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount, scheduled_date: '2026-12-01T08:00:00+11:00' })).job
  await tool(client, 'jobs.complete', { job_id: job.id })
  // A Draft has no payment_url; sending (here by email) issues it.
  const generated = await tool(client, 'invoicing.generate', { job_id: job.id, ...(options.send ? { send_email: true } : {}) })
  return { job, generated, invoice: generated.invoice }
}

const getInvoice = async (key: string, id: string) => (await app.call('GET', `/api/v1/invoices/${id}`, { key })).body.invoice
const paymentsOf = (invoiceId: string) => app.owner`select company_id, amount_cents, surcharge_cents, excess_cents, method, provider, provider_payment_id, reference, received_at from payments where invoice_id = ${invoiceId}`
const receivedEventsOf = (invoiceId: string) => app.owner`select company_id, payload from event_outbox where event_type = 'payment.received' and payload->'invoice'->>'id' = ${invoiceId}`
const processorRows = (eventId: string) => app.owner`select provider, company_id, event_type from processor_events where event_id = ${eventId}`
const allPayments = async () => Number((await app.owner`select count(*)::int as n from payments`)[0]!.n)

describe('the payment account', () => {
  let pending: any

  it('before connecting there is none, and payments.send_link says how to connect one', async () => {
    const res = await app.call('GET', '/api/v1/payments/account', { key: a.api_key })
    expect(res.body.account).toMatchObject({ connected: false, status: 'not_connected', provider: 'stripe', account_id: null })
    const { job } = await invoiceFor(clientA, 110)
    expect(await toolError(clientA, 'payments.send_link', { job_id: job.id })).toMatchObject({
      // Over MCP the way out is the tool (over REST the route: test/agent-parity.test.ts).
      error: 'payment_account_required', payment_account: 'not_connected', next_step: 'payments.connect_account',
    })
  })

  it('POST /payments/account creates a connected account on stripe-mock, pending with its onboarding link', async () => {
    // stripe-mock answers every account link with the same fixture URL; ask it directly for the expected one.
    const direct = await fetch(`${inject('stripeMockUrl')}/v1/account_links`, {
      method: 'POST', headers: { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account: 'acct_x', type: 'account_onboarding', refresh_url: 'https://x.example', return_url: 'https://x.example' }),
    })
    const linkUrl = ((await direct.json()) as { url: string }).url
    const res = await app.call('POST', '/api/v1/payments/account', { key: a.api_key })
    expect(res.status).toBe(200)
    pending = res.body.account
    expect(pending).toMatchObject({ connected: true, status: 'pending', provider: 'stripe', charges_enabled: false, onboarding_url: linkUrl })
    // Pending: the owner finishes Stripe's sign-up, then the account is checked (not a pay link yet).
    expect(res.body.next_steps).toEqual([{ tool: 'payments.account', route: 'GET /api/v1/payments/account', why: expect.stringContaining('onboarding_url') }])
    expect(pending.account_id).toMatch(/^acct_/)
    accounts.a = pending.account_id
    // Again: the same account, a fresh link.
    const again = await app.call('POST', '/api/v1/payments/account', { key: a.api_key })
    expect(again.body.account).toMatchObject({ account_id: accounts.a, status: 'pending', onboarding_url: linkUrl })
    const [row] = await app.owner`select company_id, provider, charges_enabled from payment_accounts where account_id = ${accounts.a}`
    expect(row).toEqual({ company_id: a.company_id, provider: 'stripe', charges_enabled: false })
    accounts.b = (await app.call('POST', '/api/v1/payments/account', { key: b.api_key })).body.account.account_id
    expect(accounts.b).toMatch(/^acct_/)
    expect(accounts.b).not.toBe(accounts.a)
  })

  it('while pending: no payment_url, the pay page offers bank transfer, and send_link points at the onboarding link', async () => {
    const { job, generated, invoice } = await invoiceFor(clientA, 220)
    expect(generated.payment_url).toBeNull()
    const page = await app.call('GET', `${new URL(invoice.publicUrl).pathname}/pay`)
    expect(page.status).toBe(409)
    expect(page.body).toContain('Online payment is not available')
    const refused = await toolError(clientA, 'payments.send_link', { job_id: job.id })
    expect(refused).toMatchObject({ error: 'payment_account_required', payment_account: 'pending', onboarding_url: pending.onboarding_url })
    expect(refused.message).toMatch(/onboarding_url/)
  })

  it('a signed account.updated with charges_enabled makes it active; a replay is a duplicate; an unknown account is ignored', async () => {
    const unknown = await send(accountUpdated(`acct_${hex()}`, true))
    expect(unknown.status).toBe(200)
    expect(unknown.body).toMatchObject({ received: true, status: 'ignored', detail: 'unknown account' })

    const notYet = accountUpdated(accounts.a, false)
    expect((await send(notYet)).body).toMatchObject({ status: 'recorded', event_id: notYet.id })
    expect((await app.call('GET', '/api/v1/payments/account', { key: a.api_key })).body.account.status).toBe('pending')

    const enabled = accountUpdated(accounts.a, true)
    const request = signedRequest(enabled)
    expect((await deliver(request)).body).toEqual({ received: true, status: 'recorded', event_id: enabled.id })
    const account = (await app.call('GET', '/api/v1/payments/account', { key: a.api_key })).body.account
    expect(account).toMatchObject({ status: 'active', charges_enabled: true, account_id: accounts.a, onboarding_url: null, next_step: null })
    expect((await deliver(request)).body).toEqual({ received: true, status: 'duplicate', event_id: enabled.id })
    expect(await processorRows(enabled.id)).toEqual([{ provider: 'stripe', company_id: a.company_id, event_type: 'account' }])

    expect((await send(accountUpdated(accounts.b, true))).body.status).toBe('recorded')
    expect((await app.call('GET', '/api/v1/payments/account', { key: b.api_key })).body.account.status).toBe('active')
  })
})

describe('paying an invoice through Stripe Checkout', () => {
  const total = 1234.56
  // 1.5% of $1,234.56 = $18.5184, half up to the cent.
  const surcharge = 1852
  let invoice: any

  it('the invoice has a payment_url, and /pay answers 303 to the Checkout URL stripe-mock returned', async () => {
    const settings = await app.call('PATCH', '/api/v1/settings/invoicing', { key: a.api_key, body: { card_acceptance_cost_percent: 1.8, card_surcharge_percent: 1.5 } })
    expect(settings.status).toBe(200)
    const made = await invoiceFor(clientA, total, { send: true })
    invoice = made.invoice
    expect(invoice.total).toBe(total)
    expect(made.generated.payment_url).toBe(`${invoice.publicUrl}/pay`)
    const direct = await fetch(`${inject('stripeMockUrl')}/v1/checkout/sessions`, {
      method: 'POST', headers: { authorization: 'Bearer sk_test_123', 'content-type': 'application/x-www-form-urlencoded', 'stripe-account': accounts.a },
      body: new URLSearchParams({ mode: 'payment', success_url: 'https://x.example' }),
    })
    const checkoutUrl = ((await direct.json()) as { url: string }).url
    expect(checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//)
    const res = await app.call('GET', new URL(made.generated.payment_url).pathname)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(checkoutUrl)
    // One session, on A's connected account: the balance and the surcharge as two lines, our ids in the metadata.
    expect(checkoutRequests).toHaveLength(1)
    const [sent] = checkoutRequests
    expect(sent!.account).toBe(accounts.a)
    expect(sent!.form.get('line_items[0][price_data][unit_amount]')).toBe('123456')
    expect(sent!.form.get('line_items[1][price_data][unit_amount]')).toBe(String(surcharge))
    expect(sent!.form.get('metadata[company_id]')).toBe(a.company_id)
    expect(sent!.form.get('metadata[invoice_id]')).toBe(invoice.id)
    expect(sent!.form.get('metadata[surcharge_cents]')).toBe(String(surcharge))
  })

  it('checkout.session.completed marks it Paid with one payment and one payment.received; replays record nothing more', async () => {
    const pi = `pi_${hex()}`
    const event = stripeEvent('checkout.session.completed', paidSession(invoice, a.company_id, 123_456 + surcharge, surcharge, pi), accounts.a)
    const request = signedRequest(event)
    const res = await deliver(request)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ received: true, status: 'recorded', event_id: event.id })
    expect(await getInvoice(a.api_key, invoice.id)).toMatchObject({ status: 'Paid', amountPaid: total, balance: 0, paymentUrl: null })
    const expectedRow = {
      company_id: a.company_id, amount_cents: '123456', surcharge_cents: String(surcharge), excess_cents: '0', method: 'card', provider: 'stripe',
      provider_payment_id: pi, reference: pi, received_at: new Date(event.created * 1000),
    }
    expect(await paymentsOf(invoice.id)).toEqual([expectedRow])
    const received = await receivedEventsOf(invoice.id)
    expect(received).toHaveLength(1)
    expect(received[0]!.payload.payment).toMatchObject({ amount: total, surcharge: 18.52, provider: 'stripe', reference: pi })
    expect(await processorRows(event.id)).toEqual([{ provider: 'stripe', company_id: a.company_id, event_type: 'payment' }])

    // The exact same delivery again, then re-signed (as Stripe's retries are): acknowledged, nothing new.
    expect((await deliver(request)).body).toEqual({ received: true, status: 'duplicate', event_id: event.id })
    expect((await send(event)).body).toEqual({ received: true, status: 'duplicate', event_id: event.id })
    // The same payment under a new event id (async_payment_succeeded after completed, say).
    const sameMoney = stripeEvent('checkout.session.async_payment_succeeded', paidSession(invoice, a.company_id, 123_456 + surcharge, surcharge, pi), accounts.a)
    expect((await send(sameMoney)).body).toMatchObject({ status: 'duplicate', event_id: sameMoney.id })

    expect(await paymentsOf(invoice.id)).toEqual([expectedRow])
    expect(await receivedEventsOf(invoice.id)).toHaveLength(1)
    expect(await getInvoice(a.api_key, invoice.id)).toMatchObject({ status: 'Paid', amountPaid: total, balance: 0 })
  })

  it('a partial amount leaves it Partially Paid with the rest still payable online', async () => {
    const { invoice: partial } = await invoiceFor(clientA, 500)
    // $200 paid plus its 1.5% surcharge ($3).
    await send(stripeEvent('checkout.session.completed', paidSession(partial, a.company_id, 20_300, 300, `pi_${hex()}`), accounts.a))
    expect(await getInvoice(a.api_key, partial.id)).toMatchObject({ status: 'Partially Paid', amountPaid: 200, balance: 300, paymentUrl: `${partial.publicUrl}/pay` })
    expect((await paymentsOf(partial.id)).map((p) => [p.amount_cents, p.surcharge_cents])).toEqual([['20000', '300']])
  })
})

describe('webhooks that are refused or ignored', () => {
  it('a bad signature is a 400 validation_error and records nothing; the same event signed properly is booked', async () => {
    const { invoice } = await invoiceFor(clientA, 330)
    const event = stripeEvent('checkout.session.completed', paidSession(invoice, a.company_id, 33_000, 0, `pi_${hex()}`), accounts.a)
    const genuine = JSON.stringify(event)
    const bad: [string, SendOptions][] = [
      ['tampered body', { body: genuine.replace('"amount_total":33000', '"amount_total":1') }],
      ['wrong secret', { secret: 'whsec_someone_else' }],
      ['missing header', { header: null }],
      ['stale timestamp', { timestamp: nowSeconds() - 10 * 60 }],
      ['malformed header', { header: 'not-a-signature' }],
    ]
    for (const [why, options] of bad) {
      const res = await send(event, options)
      expect(res.status, why).toBe(400)
      expect(res.body.error, why).toBe('validation_error')
    }
    expect(await processorRows(event.id)).toEqual([])
    expect(await paymentsOf(invoice.id)).toEqual([])
    expect(await getInvoice(a.api_key, invoice.id)).toMatchObject({ status: invoice.status, amountPaid: 0, balance: 330 })

    expect((await send(event)).body.status).toBe('recorded')
    expect(await getInvoice(a.api_key, invoice.id)).toMatchObject({ status: 'Paid', amountPaid: 330 })
  })

  it('the sandbox webhook path does not exist on a Stripe deployment', async () => {
    const { invoice } = await invoiceFor(clientA, 440)
    const event = stripeEvent('checkout.session.completed', paidSession(invoice, a.company_id, 44_000, 0, `pi_${hex()}`), accounts.a)
    const res = await send(event, { path: '/api/v1/payments/webhooks/sandbox' })
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
    expect(await processorRows(event.id)).toEqual([])
    expect(await paymentsOf(invoice.id)).toEqual([])
  })

  it('events that are not ours are acknowledged and ignored, recording no payment', async () => {
    const { invoice } = await invoiceFor(clientA, 550)
    const session = (overrides: Record<string, unknown>) => paidSession(invoice, a.company_id, 55_000, 0, `pi_${hex()}`, overrides)
    const metadata = (changes: Record<string, unknown>) => ({ metadata: { ...session({}).metadata, ...changes } })
    const before = await allPayments()
    const cases: [string, Record<string, unknown>, string | undefined][] = [
      ['unknown company', stripeEvent('checkout.session.completed', session(metadata({ company_id: randomUUID() })), accounts.a), 'unknown company'],
      ['metadata not ours', stripeEvent('checkout.session.completed', session(metadata({ company_id: 'company-3' })), accounts.a), 'metadata is not ours'],
      ['unknown invoice', stripeEvent('checkout.session.completed', session(metadata({ invoice_id: randomUUID() })), accounts.a), 'unknown invoice'],
      ['no metadata (a plan checkout)', stripeEvent('checkout.session.completed', session({ metadata: {} })), 'checkout.session.completed'],
      ['not paid yet', stripeEvent('checkout.session.completed', session({ payment_status: 'unpaid' }), accounts.a), 'checkout.session.completed'],
      ['another event type', stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }), 'customer.created'],
    ]
    for (const [why, event, detail] of cases) {
      const res = await send(event)
      expect(res.status, why).toBe(200)
      expect(res.body, why).toEqual({ received: true, status: 'ignored', event_id: event.id, detail })
    }
    expect(await allPayments()).toBe(before)
    expect(await getInvoice(a.api_key, invoice.id)).toMatchObject({ amountPaid: 0, balance: 550 })
  })

  it("a payment is never recorded against another company's invoice", async () => {
    const { invoice: ofA } = await invoiceFor(clientA, 660)
    const { invoice: ofB } = await invoiceFor(clientB, 770)
    const before = await allPayments()
    // A's company with B's invoice (from A's account), and B's company with A's invoice (from B's account).
    const crossed = [
      stripeEvent('checkout.session.completed', paidSession(ofB, a.company_id, 77_000, 0, `pi_${hex()}`), accounts.a),
      stripeEvent('checkout.session.completed', paidSession(ofA, b.company_id, 66_000, 0, `pi_${hex()}`), accounts.b),
    ]
    for (const event of crossed) expect((await send(event)).body).toMatchObject({ status: 'ignored', detail: 'unknown invoice' })
    expect(await allPayments()).toBe(before)
    expect(await getInvoice(a.api_key, ofA.id)).toMatchObject({ amountPaid: 0, balance: 660 })
    expect(await getInvoice(b.api_key, ofB.id)).toMatchObject({ amountPaid: 0, balance: 770 })
    expect((await app.call('GET', `/api/v1/invoices/${ofB.id}`, { key: a.api_key })).status).toBe(404)
  })

  // The metadata alone could name anyone's invoice (a Checkout Session A makes on its own Stripe
  // account with B's ids copied in): the money must have gone to the named company's own account.
  it("a payment taken on one company's Stripe account is not booked on another company's invoice", async () => {
    const { invoice: ofB } = await invoiceFor(clientB, 990)
    const event = stripeEvent('checkout.session.completed', paidSession(ofB, b.company_id, 99_000, 0, `pi_${hex()}`), accounts.a)
    expect((await send(event)).body).toMatchObject({ status: 'ignored' })
    expect(await paymentsOf(ofB.id)).toEqual([])
    expect(await getInvoice(b.api_key, ofB.id)).toMatchObject({ amountPaid: 0, balance: 990 })
  })
})

describe('payments.send_link once the account is active', () => {
  it("queues an SMS and an email to the client with the invoice's /pay link", async () => {
    const { job, invoice } = await invoiceFor(clientA, 880)
    const sent = await tool(clientA, 'payments.send_link', { job_id: job.id, channel: 'both' })
    const payUrl = `${invoice.publicUrl}/pay`
    expect(sent).toMatchObject({ payment_url: payUrl, amount: 880, delivery: { channels: ['sms', 'email'], skipped: [] } })
    const temporal = await connectClient(inject('temporalAddress'), 'default')
    try {
      await temporal.workflow.getHandle(sent.delivery.workflow_id).result()
    } finally {
      await temporal.connection.close()
    }
    const messages = await app.owner`select channel, message_type, body from communications where invoice_id = ${invoice.id} order by channel`
    expect(messages.map((m) => [m.channel, m.message_type])).toEqual([['email', 'payment_link'], ['sms', 'payment_link']])
    for (const m of messages) expect(m.body).toContain(payUrl)
  })
})
