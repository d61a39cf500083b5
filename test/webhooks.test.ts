// Signed outbound webhooks through the real service, received by a real HTTP server on loopback:
// subscriptions (secret shown once, both event-name sets, unknown names, plan gate, other companies'
// ids), what a delivery carries and how it is signed (checked with the `standardwebhooks` package
// AND an HMAC computed here from X-Webhook-Signature), events from every source, one company never
// seeing another's data, rotation, and the subscribe-time SSRF refusals with private targets off.
// Retries, Retry-After, 410, redirects, redelivery and disabling are in webhooks-delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import net, { type AddressInfo } from 'node:net'
import { createHmac, randomBytes } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { header, startReceiver, type Hit } from './helpers/receiver.js'

// The event names the spec and the issue give, written out here rather than read from the code.
const CANONICAL = ['lead.created', 'lead.updated', 'quote.created', 'quote.sent', 'quote.accepted', 'job.created', 'job.scheduled', 'job.completed', 'invoice.sent', 'payment.received']
const ALIASES = CANONICAL.map((n) => n.replace('.', '_'))
const sorted = (xs: string[]) => [...xs].sort()

// ---------------------------------------------------------------------------------------------
// The receiver: one node:http server on 127.0.0.1; each path answers as the test tells it.

// ---------------------------------------------------------------------------------------------
// Verification, twice over: the official library, and X-Webhook-Signature recomputed here.


/** The v1= signatures of X-Webhook-Signature and its t=. */
function xSignature(hit: Hit) {
  const parts = header(hit, 'x-webhook-signature').split(',').map((p) => p.split('='))
  return { t: parts.filter(([k]) => k === 't').map(([, v]) => v!), v1: parts.filter(([k]) => k === 'v1').map(([, v]) => v!) }
}

/** hex HMAC-SHA256 of "t.body", keyed with the base64-decoded part of the secret after whsec_. */
const legacyHmac = (secret: string, t: string, body: string) => createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${t}.${body}`).digest('hex')

function standardOk(hit: Hit, secret: string): boolean {
  try {
    new Webhook(secret).verify(hit.body, { 'webhook-id': header(hit, 'webhook-id'), 'webhook-timestamp': header(hit, 'webhook-timestamp'), 'webhook-signature': header(hit, 'webhook-signature') })
    return true
  } catch {
    return false
  }
}
function legacyOk(hit: Hit, secret: string): boolean {
  const { t, v1 } = xSignature(hit)
  return t.length === 1 && t[0] === header(hit, 'webhook-timestamp') && v1.includes(legacyHmac(secret, t[0]!, hit.body))
}

/** Asserts the hit verifies with the secret both ways and that webhook-id is the body's id; returns the body. */
function verified(hit: Hit, secret: string): any {
  expect(hit.method).toBe('POST')
  expect(standardOk(hit, secret)).toBe(true)
  expect(legacyOk(hit, secret)).toBe(true)
  const body = JSON.parse(hit.body)
  expect(header(hit, 'webhook-id')).toBe(body.id)
  expect(Math.abs(Number(header(hit, 'webhook-timestamp')) - Date.now() / 1000)).toBeLessThan(120)
  return body
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`

// ---------------------------------------------------------------------------------------------

let app: TestApp
let receiver: Awaited<ReturnType<typeof startReceiver>>
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let aClient: Client
let bClient: Client

const rest = (key: string, method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key, body })
const subscribe = async (key: string, path: string, events: string[]) => {
  const res = await rest(key, 'POST', '/webhooks', { url: receiver.url(path), events })
  expect(res.status).toBe(201)
  return res.body as { subscription: { id: string; events: string[] }; secret: string }
}
const arrived = (path: string, n: number, timeoutMs = 15_000) => waitFor(async () => receiver.at(path), (hits) => hits.length >= n, timeoutMs)
const bodies = (path: string) => receiver.at(path).map((h) => JSON.parse(h.body))

beforeAll(async () => {
  receiver = await startReceiver()
  app = await startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400', WEBHOOK_TIMEOUT_MS: 5000 } })
  a = await onboard(app, { business_name: 'Harbour City Plumbing', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { business_name: 'Other Trades Pty Ltd' })
  aClient = await connectHttp(app, a.api_key)
  bClient = await connectHttp(app, b.api_key)
})
afterAll(async () => {
  await aClient?.close()
  await bClient?.close()
  await app?.stop()
  await receiver?.close()
})

describe('subscriptions', () => {
  it('POST /webhooks answers 201 with the subscription and a whsec_ secret, which GET /webhooks and webhooks.list never show', async () => {
    const res = await rest(a.api_key, 'POST', '/webhooks', { url: receiver.url('/shown-once'), events: ['lead.created'], description: 'CRM sync' })
    expect(res.status).toBe(201)
    const { subscription, secret } = res.body
    expect(subscription).toMatchObject({ url: receiver.url('/shown-once'), events: ['lead.created'], description: 'CRM sync', status: 'active', disabledReason: null })
    expect(subscription.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24)

    const listed = await rest(a.api_key, 'GET', '/webhooks')
    expect(listed.status).toBe(200)
    expect(listed.body.webhooks.map((w: { id: string }) => w.id)).toContain(subscription.id)
    const viaMcp = await tool(aClient, 'webhooks.list')
    expect(viaMcp.webhooks.map((w: { id: string }) => w.id)).toContain(subscription.id)
    for (const text of [JSON.stringify(listed.body), JSON.stringify(viaMcp)]) {
      expect(text).not.toContain(secret.slice(6))
      expect(text).not.toContain('whsec_')
    }
    // A second subscription gets a different secret.
    expect((await subscribe(a.api_key, '/shown-once-2', ['lead.created'])).secret).not.toBe(secret)
  })

  it('accepts the dotted names and the underscore aliases; aliases are stored as the dotted names', async () => {
    const viaAliases = await tool(aClient, 'webhooks.subscribe', { url: receiver.url('/aliases'), events: ALIASES })
    expect(sorted(viaAliases.subscription.events)).toEqual(sorted(CANONICAL))
    expect(viaAliases.secret).toMatch(/^whsec_/)
    const mixed = await subscribe(a.api_key, '/mixed', ['job_completed', 'job.completed', 'invoice.sent', 'payment_received'])
    expect(sorted(mixed.subscription.events)).toEqual(['invoice.sent', 'job.completed', 'payment.received'])
    const dotted = await subscribe(a.api_key, '/dotted', CANONICAL)
    expect(sorted(dotted.subscription.events)).toEqual(sorted(CANONICAL))
  })

  it('unknown event names are a validation_error naming them and listing every valid name; nothing is stored', async () => {
    const before = (await rest(a.api_key, 'GET', '/webhooks')).body.webhooks.length
    const res = await rest(a.api_key, 'POST', '/webhooks', { url: receiver.url('/unknown'), events: ['lead.created', 'lead.deleted', 'invoice_paid'] })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('validation_error')
    const text = res.body.messages.join(' ')
    for (const name of ['lead.deleted', 'invoice_paid', ...CANONICAL, ...ALIASES]) expect(text).toContain(name)
    const err = await toolError(aClient, 'webhooks.subscribe', { url: receiver.url('/unknown'), events: ['quote.rejected'] })
    expect(err.error).toBe('validation_error')
    expect(JSON.stringify(err)).toContain('quote.rejected')
    for (const name of CANONICAL) expect(JSON.stringify(err)).toContain(name)
    expect((await rest(a.api_key, 'GET', '/webhooks')).body.webhooks).toHaveLength(before)
  })

  it('a plan without webhookInbound (professional) gets 403 forbidden', async () => {
    const pro = await onboard(app, { plan: 'professional' })
    for (const [method, path, body] of [['POST', '/webhooks', { url: receiver.url('/pro'), events: ['lead.created'] }], ['GET', '/webhooks', undefined]] as const) {
      const res = await rest(pro.api_key, method, path, body)
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('forbidden')
    }
  })

  it("another company's subscription and delivery ids are not_found, and stay untouched", async () => {
    const { subscription } = await subscribe(a.api_key, '/a-only', ['lead.created'])
    await tool(aClient, 'leads.create', { name: 'Dana Ng' })
    await arrived('/a-only', 1)
    const delivery = await waitFor(async () => (await rest(a.api_key, 'GET', `/webhooks/${subscription.id}/deliveries`)).body.deliveries, (d: any[]) => d[0]?.status === 'delivered')
    const since = new Date(Date.now() - 3_600_000).toISOString()
    for (const [method, path, body] of [
      ['DELETE', `/webhooks/${subscription.id}`, undefined],
      ['GET', `/webhooks/${subscription.id}/deliveries`, undefined],
      ['POST', `/webhooks/${subscription.id}/rotate-secret`, undefined],
      ['POST', `/webhooks/${subscription.id}/recover`, { since }],
      ['POST', `/webhooks/deliveries/${delivery[0].id}/redeliver`, undefined],
    ] as const) {
      const res = await rest(b.api_key, method, path, body)
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 404, 'not_found'])
    }
    expect((await toolError(bClient, 'webhooks.unsubscribe', { subscription_id: subscription.id })).error).toBe('not_found')
    expect((await tool(bClient, 'webhooks.list')).webhooks).toEqual([])
    const mine = (await rest(a.api_key, 'GET', '/webhooks')).body.webhooks.find((w: { id: string }) => w.id === subscription.id)
    expect(mine).toMatchObject({ status: 'active', secretRotatedUntil: null })
    expect(receiver.at('/a-only')).toHaveLength(1) // nothing was redelivered
  })

  it('webhooks.unsubscribe stops deliveries to that subscription and removes it from the list', async () => {
    const gone = await tool(aClient, 'webhooks.subscribe', { url: receiver.url('/unsub'), events: ['lead.created'] })
    const control = await subscribe(a.api_key, '/unsub-control', ['lead.created'])
    await tool(aClient, 'leads.create', { name: 'First Lead' })
    await arrived('/unsub', 1)
    await arrived('/unsub-control', 1)

    expect(await tool(aClient, 'webhooks.unsubscribe', { subscription_id: gone.subscription.id })).toEqual({ removed: true, subscription_id: gone.subscription.id })
    const ids = (await tool(aClient, 'webhooks.list')).webhooks.map((w: { id: string }) => w.id)
    expect(ids).not.toContain(gone.subscription.id)
    expect(ids).toContain(control.subscription.id)

    const { lead } = await tool(aClient, 'leads.create', { name: 'Second Lead' })
    await arrived('/unsub-control', 2)
    expect(verified(receiver.at('/unsub-control')[1]!, control.secret).data.lead.id).toBe(lead.id)
    // Deliveries are written with the event, in its transaction: none was for the removed subscription.
    expect((await rest(a.api_key, 'GET', `/webhooks/${gone.subscription.id}/deliveries`)).body.deliveries).toHaveLength(1)
    await new Promise((r) => setTimeout(r, 300))
    expect(receiver.at('/unsub')).toHaveLength(1)
    expect((await toolError(aClient, 'webhooks.unsubscribe', { subscription_id: gone.subscription.id })).error).toBe('not_found')
  })
})

describe('what a delivery carries', () => {
  it('{id, type, created_at, company_id, data} with the resource after the change, as GET /leads shows it', async () => {
    const { secret } = await subscribe(a.api_key, '/body', ['lead.created', 'lead.updated'])
    const started = Date.now()
    // No phone or email: no instant response, so the lead changes only when this test changes it.
    const created = await rest(a.api_key, 'POST', '/leads', { name: 'Jordan Pike', suburb: 'Glebe', serviceType: 'Blocked drain', priority: 'High' })
    expect(created.status).toBe(201)
    const [hit] = await arrived('/body', 1)
    const body = verified(hit!, secret)
    expect(Object.keys(body).sort()).toEqual(['company_id', 'created_at', 'data', 'id', 'type'])
    expect(body).toMatchObject({ type: 'lead.created', company_id: a.company_id })
    expect(body.id).toMatch(/^evt_\S+$/)
    const createdAt = Date.parse(body.created_at)
    expect(new Date(createdAt).toISOString()).toBe(body.created_at)
    expect(createdAt).toBeGreaterThanOrEqual(started - 1000)
    expect(createdAt).toBeLessThanOrEqual(Date.now())
    const listedLead = async () => (await rest(a.api_key, 'GET', '/leads')).body.leads.find((l: { id: string }) => l.id === created.body.lead.id)
    expect(body.data.lead).toEqual(await listedLead())
    expect(body.data.lead).toMatchObject({ name: 'Jordan Pike', suburb: 'Glebe', serviceType: 'Blocked drain', priority: 'High', status: 'New' })

    await tool(aClient, 'leads.update', { lead_id: created.body.lead.id, suburb: 'Newtown', status: 'Qualified' })
    const [, second] = await arrived('/body', 2)
    const updated = verified(second!, secret)
    expect(updated.type).toBe('lead.updated')
    expect(updated.id).not.toBe(body.id)
    expect(updated.data.lead).toEqual(await listedLead())
    expect(updated.data.lead).toMatchObject({ suburb: 'Newtown', status: 'Qualified' })
    expect(sorted(updated.data.changed)).toEqual(['status', 'suburb'])
  })

  it('events from leads, quotes, jobs, invoices and payments all arrive at one subscription, each once and verified', async () => {
    const { subscription, secret } = await subscribe(a.api_key, '/everything', CANONICAL)
    expect(sorted(subscription.events)).toEqual(sorted(CANONICAL))
    const ofType = (type: string) => bodies('/everything').filter((x) => x.type === type)
    const got = (type: string, n = 1) => waitFor(async () => ofType(type), (xs) => xs.length >= n, 15_000)

    expect((await rest(a.api_key, 'POST', '/payments/account')).body.account).toMatchObject({ status: 'active' })
    const { lead } = await tool(aClient, 'leads.create', { name: 'Morgan Blake', email: 'morgan@example.com', suburb: 'Marrickville' })
    await got('lead.created')
    // The instant response (it has an email) moves the lead New -> Contacted on its own: let it land.
    expect((await got('lead.updated')).map((x) => x.data.by)).toEqual(['instant_response'])
    await tool(aClient, 'leads.update', { lead_id: lead.id, address: '4 Illawarra Rd' })
    const { quote } = await tool(aClient, 'quotes.create', { lead_id: lead.id, deposit_percent: 0, line_items: [{ description: 'Replace hot water system', quantity: 1, unitPrice: 1800 }] })
    const sent = await tool(aClient, 'quotes.send', { quote_id: quote.id })
    const token = new URL(sent.public_url).pathname.split('/').pop()!
    const accepted = await fetch(`${app.url}/q/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Morgan+Blake', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    // Accepting opened the job (job.created); scheduling it is job.scheduled.
    const scheduledDate = new Date(Date.now() + 3 * 86_400_000).toISOString()
    const jobId = (await tool(aClient, 'quotes.list', { lead_id: lead.id })).quotes[0].job_id as string
    const { job } = await tool(aClient, 'jobs.update', { job_id: jobId, scheduled_date: scheduledDate })
    await tool(aClient, 'jobs.complete', { job_id: job.id })
    const { invoice } = await tool(aClient, 'invoicing.generate', { job_id: job.id, send_email: true })
    const paid = await rest(a.api_key, 'POST', `/invoices/${invoice.id}/payments`, { amount: 500, method: 'bank_transfer', reference: 'NAB-7781' })
    expect(paid.status).toBe(201)

    // Deliveries run independently, so they arrive in any order: wait for all, then a little longer
    // for anything extra (a duplicate) to show up.
    const expected = {
      'lead.created': 1, 'lead.updated': 4, 'quote.created': 1, 'quote.sent': 1, 'quote.accepted': 1,
      'job.created': 1, 'job.scheduled': 1, 'job.completed': 1, 'invoice.sent': 1, 'payment.received': 1,
    }
    const counts = () => Object.fromEntries(CANONICAL.map((type) => [type, ofType(type).length]))
    await waitFor(async () => counts(), (c) => CANONICAL.every((type) => c[type]! >= expected[type as keyof typeof expected]), 20_000)
    await new Promise((r) => setTimeout(r, 500))
    expect(counts()).toEqual(expected)
    const all = receiver.at('/everything').map((h) => verified(h, secret))
    expect(new Set(all.map((x) => x.id)).size).toBe(all.length) // distinct webhook-ids: no event twice
    expect(all.every((x) => x.company_id === a.company_id)).toBe(true)

    const one = (type: string) => ofType(type)[0].data
    expect(one('lead.created').lead).toMatchObject({ id: lead.id, name: 'Morgan Blake', status: 'New' })
    // Who moved the lead, in event order (deliveries run independently, so arrival order is not it):
    // the instant response, the update, the quote sent, the quote accepted.
    const byEventTime = ofType('lead.updated').sort((x, y) => Date.parse(x.created_at) - Date.parse(y.created_at))
    expect(byEventTime.map((x) => [x.data.by ?? null, x.data.lead.status])).toEqual([
      ['instant_response', 'Contacted'], [null, 'Contacted'], ['quote', 'Quoted'], ['quote', 'Won'],
    ])
    expect(byEventTime[1].data).toMatchObject({ changed: ['address'], lead: { address: '4 Illawarra Rd' } })
    expect(one('quote.created').quote).toMatchObject({ id: quote.id, status: 'Draft' })
    expect(one('quote.sent').quote).toMatchObject({ id: quote.id, status: 'Sent' })
    expect(one('quote.accepted').quote).toMatchObject({ id: quote.id, status: 'Accepted' })
    expect(one('job.created').job).toMatchObject({ id: job.id })
    expect(one('job.scheduled').job).toMatchObject({ id: job.id, status: 'Scheduled' })
    expect(Date.parse(one('job.scheduled').job.scheduledDate)).toBe(Date.parse(scheduledDate))
    expect(one('job.completed').job).toMatchObject({ id: job.id, status: 'Completed' })
    expect(one('invoice.sent')).toMatchObject({ invoice: { id: invoice.id, jobId: job.id, status: 'Sent', total: invoice.total, amountPaid: 0 }, via: ['email'] })
    expect(one('payment.received')).toMatchObject({
      payment: { amount: 500, method: 'bank_transfer', reference: 'NAB-7781', invoiceId: invoice.id },
      invoice: { id: invoice.id, amountPaid: 500, balance: Math.round(invoice.total * 100 - 50_000) / 100 },
    })
  })

  it("two companies on one receiver: each delivery carries only its own company's id and resources", async () => {
    const path = '/shared'
    const subA = await subscribe(a.api_key, path, ['lead.created'])
    const subB = await subscribe(b.api_key, path, ['lead_created'])
    const aLeads = [(await tool(aClient, 'leads.create', { name: 'A One' })).lead.id, (await tool(aClient, 'leads.create', { name: 'A Two' })).lead.id]
    const bLeads = [(await tool(bClient, 'leads.create', { name: 'B One' })).lead.id]
    await arrived(path, 3)
    await new Promise((r) => setTimeout(r, 500))
    const hits = receiver.at(path)
    expect(hits).toHaveLength(3)
    const seen: Record<string, string[]> = { [a.company_id]: [], [b.company_id]: [] }
    for (const hit of hits) {
      const byA = standardOk(hit, subA.secret)
      const byB = standardOk(hit, subB.secret)
      expect(byA !== byB).toBe(true) // signed by exactly one company's secret
      const body = verified(hit, byA ? subA.secret : subB.secret)
      expect(body.company_id).toBe(byA ? a.company_id : b.company_id)
      seen[body.company_id]!.push(body.data.lead.id)
    }
    expect(sorted(seen[a.company_id]!)).toEqual(sorted(aLeads))
    expect(seen[b.company_id]).toEqual(bLeads)
    // Nothing of company A appears anywhere in what B received, and the other way round.
    for (const hit of hits) {
      const body = JSON.parse(hit.body)
      const other = body.company_id === a.company_id ? [b.company_id, ...bLeads] : [a.company_id, ...aLeads]
      for (const id of other) expect(hit.body).not.toContain(id)
    }
  })

  it('rotate-secret answers the new secret; deliveries then verify with both the old and the new one', async () => {
    const path = '/rotate'
    const { subscription, secret: oldSecret } = await subscribe(a.api_key, path, ['lead.created'])
    await tool(aClient, 'leads.create', { name: 'Before Rotation' })
    const [first] = await arrived(path, 1)
    verified(first!, oldSecret)
    expect(header(first!, 'webhook-signature').split(' ')).toHaveLength(1)
    expect(xSignature(first!).v1).toHaveLength(1)

    const rotated = await rest(a.api_key, 'POST', `/webhooks/${subscription.id}/rotate-secret`)
    expect(rotated.status).toBe(200)
    const newSecret_ = rotated.body.secret as string
    expect(newSecret_).toMatch(/^whsec_/)
    expect(newSecret_).not.toBe(oldSecret)
    expect(rotated.body.subscription.id).toBe(subscription.id)
    expect(Date.parse(rotated.body.subscription.secretRotatedUntil)).toBeGreaterThan(Date.now())

    await tool(aClient, 'leads.create', { name: 'After Rotation' })
    const [, second] = await arrived(path, 2)
    const entries = header(second!, 'webhook-signature').split(' ')
    expect(entries).toHaveLength(2)
    expect(entries.every((e) => e.startsWith('v1,'))).toBe(true)
    const { v1 } = xSignature(second!)
    expect(v1).toHaveLength(2)
    const body = verified(second!, newSecret_)
    expect(verified(second!, oldSecret)).toEqual(body)
    const t = xSignature(second!).t[0]!
    expect(sorted(v1)).toEqual(sorted([legacyHmac(newSecret_, t, second!.body), legacyHmac(oldSecret, t, second!.body)]))

    // The checks can fail: an unrelated secret, or one changed byte of the body.
    const stranger = newSecret()
    expect([standardOk(second!, stranger), legacyOk(second!, stranger)]).toEqual([false, false])
    const tampered = { ...second!, body: second!.body.replace('After Rotation', 'After Rotatiom') }
    expect([standardOk(tampered, newSecret_), legacyOk(tampered, newSecret_), standardOk(tampered, oldSecret), legacyOk(tampered, oldSecret)]).toEqual([false, false, false, false])
  })
})

describe('SSRF at subscribe time, with private targets not allowed (the default)', () => {
  let strict: TestApp
  let key: string
  let client: Client
  beforeAll(async () => {
    strict = await startTestApp({ config: { WEBHOOK_RETRY_SCHEDULE_MS: '0,50', WEBHOOK_TIMEOUT_MS: 3000 } })
    expect(strict.config.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false)
    key = (await onboard(strict)).api_key
    client = await connectHttp(strict, key)
  })
  afterAll(async () => {
    await client?.close()
    await strict?.stop()
  })

  const refused = [
    'https://127.0.0.1/hooks',
    'https://127.0.0.1:8443/hooks',
    'https://10.0.0.7/hooks',
    'https://10.255.1.2:9000/hooks',
    'https://169.254.169.254/latest/meta-data/iam',
    'https://[::1]/hooks',
    'https://[::1]:8443/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
    'https://[::ffff:a9fe:a9fe]/hooks', // 169.254.169.254, IPv4-mapped
    'https://[::ffff:10.0.0.1]/hooks',
    'https://2130706433/hooks', // 127.0.0.1 as one decimal number
    'https://localhost/hooks',
    'https://localhost./hooks',
    'https://api.localhost/hooks',
    'http://hooks.example.com/tradie', // plain http
  ]

  it.each(refused)('POST /webhooks and webhooks.subscribe refuse %s with a validation_error naming url', async (url) => {
    const res = await strict.call('POST', '/api/v1/webhooks', { key, body: { url, events: ['lead.created'] } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('validation_error')
    expect(res.body.messages.some((m: string) => m.startsWith('url'))).toBe(true)
    const err = await toolError(client, 'webhooks.subscribe', { url, events: ['lead_created'] })
    expect(err.error).toBe('validation_error')
    expect(err.messages.some((m: string) => m.startsWith('url'))).toBe(true)
  })

  it('a public https URL is accepted (the refusals above are about the address), and nothing refused was stored', async () => {
    const ok = await strict.call('POST', '/api/v1/webhooks', { key, body: { url: 'https://hooks.example.com/tradie', events: ['lead.created'] } })
    expect(ok.status).toBe(201)
    const listed = (await strict.call('GET', '/api/v1/webhooks', { key })).body.webhooks
    expect(listed.map((w: { url: string }) => w.url)).toEqual(['https://hooks.example.com/tradie'])
    // Not delivered anywhere in this test: remove it so no event of this company goes out.
    expect((await strict.call('DELETE', `/api/v1/webhooks/${ok.body.subscription.id}`, { key })).status).toBe(200)
  })

  it('a loopback URL stored while private targets were allowed is still not connected to at delivery', async () => {
    let connections = 0
    const tcp = net.createServer((s) => { connections++; s.destroy() })
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
    try {
      const url = `https://127.0.0.1:${(tcp.address() as AddressInfo).port}/hooks`
      const ok = await strict.call('POST', '/api/v1/webhooks', { key, body: { url: 'https://hooks.example.net/x', events: ['lead.created'] } })
      const id = ok.body.subscription.id as string
      await strict.owner`update webhook_subscriptions set url = ${url} where id = ${id}`
      await tool(client, 'leads.create', { name: 'Kept Inside' })
      const deliveries = await waitFor(async () => (await strict.call('GET', `/api/v1/webhooks/${id}/deliveries`, { key })).body.deliveries,
        (d: any[]) => d[0]?.status === 'failed', 15_000)
      expect(deliveries).toHaveLength(1)
      expect(deliveries[0].status).toBe('failed')
      expect(deliveries[0].attempts).toHaveLength(2)
      for (const attempt of deliveries[0].attempts) {
        expect(attempt).toMatchObject({ ok: false, responseStatus: null })
        expect(attempt.error).toMatch(/private|loopback/i)
      }
      expect(connections).toBe(0)
    } finally {
      await new Promise<void>((resolve) => tcp.close(() => resolve()))
    }
  })
})
