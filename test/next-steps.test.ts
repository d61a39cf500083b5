// A result that changes state says what happens next (src/core/next-steps.ts): `next_steps`, each a
// tool and why, named the caller's way (over REST each step also gives its route). Coverage comes
// from the registry: every built write tool declares it, but those NOTHING_FOLLOWS lists, each with
// the reason; a new write tool fails here until it says what follows it.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createRegistry } from '../src/domains/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { startReceiver, type Receiver } from './helpers/receiver.js'
import { tool } from './helpers/tools.js'

const registry = createRegistry()
const writes = registry.operations.filter((op) => !op.planned && op.annotations.readOnlyHint !== true)

/** Write tools after which nothing follows, and why. Only shrinks or gains a reason. */
const NOTHING_FOLLOWS: Record<string, string> = {
  'keys.create': 'What follows is outside the service: store api_key (shown once) and give it to whoever will use it.',
  'keys.revoke': 'The key is gone; calls with it get 401. Nothing is left to do with it.',
  'invoicing.update_settings': 'The settings apply to invoices and quotes made from now on; nothing waits on them.',
  'cashflow.delete_recurring_cost': 'The cost no longer falls due after today; the forecast and financials leave it out from then, and nothing else refers to it.',
  'webhooks.unsubscribe': 'Nothing more is delivered to the URL; its deliveries stay listed, and nothing else follows.',
  'workflows.team_notify': "A notice to the owner's own team; the service tracks nothing that follows it.",
  'workflows.sync_contact': 'The contact is pushed to each connection, each result with its error if any; nothing in the service waits on it.',
}

const declares = (name: string) => Boolean((registry.get(name)!.output as { properties?: Record<string, unknown> }).properties?.next_steps)

describe('which tools say what follows', () => {
  it('every built write tool declares next_steps in its output schema, unless listed with a reason', () => {
    const missing = writes.filter((op) => !declares(op.name) && !(op.name in NOTHING_FOLLOWS)).map((op) => op.name)
    expect(missing).toEqual([])
    for (const name of Object.keys(NOTHING_FOLLOWS)) expect(declares(name), `${name} declares next_steps: take it off the list`).toBe(false)
  })

  it('every tool a next step names exists (read from the next-steps sources)', () => {
    const dir = fileURLToPath(new URL('../src/domains/', import.meta.url))
    const files = (function walk(d: string): string[] {
      return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : /next-steps\.ts$/.test(n) ? [join(d, n)] : []))
    })(dir)
    expect(files.length).toBeGreaterThan(2)
    const named = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/tool: '([a-z_]+\.[a-z_]+)'/g)].map((m) => m[1]!))
    expect(named.length).toBeGreaterThan(10)
    expect(named.filter((n) => !registry.get(n))).toEqual([])
  })
})

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
let client: Client
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
  // The webhook receiver listens on 127.0.0.1.
  app = await startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true } })
  company = await onboard(app, { plan: 'business' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await receiver?.close()
})

type Step = { tool: string; route?: string; why: string }
const toolsOf = (list: Step[]) => list.map((s) => s.tool)

/** A company of its own (its payment account and review links are its own), with an MCP client. */
async function freshCompany() {
  const made = await onboard(app, { plan: 'business' })
  return { ...made, client: await connectHttp(app, made.api_key) }
}

/** A Completed job worth `amount` incl. GST for a client with the given contacts. */
async function completedJob(c: Client, amount: number, contact: { phone?: string; email?: string } = { phone: '0412 345 678', email: 'pat@example.com' }) {
  const { lead } = await tool(c, 'leads.create', { name: 'Pat Client', ...contact })
  const { job } = await tool(c, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount, scheduled_date: '2026-12-01T08:00:00+11:00' })
  await tool(c, 'jobs.complete', { job_id: job.id })
  return job as { id: string }
}

describe('what a lead-to-job run is told', () => {
  it('lead -> quote -> accepted -> scheduled -> completed: each result names the next tool with the ids to pass', async () => {
    const { lead, next_steps: afterLead } = await tool(client, 'leads.create', { name: 'Jane Citizen', email: 'jane@example.com' })
    expect(afterLead[0]).toMatchObject({ tool: 'quotes.create', why: expect.stringContaining(lead.id) })
    const created = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Hot water system', quantity: 1, unitPrice: 2975 }], deposit_percent: 20 })
    expect(created.next_steps).toEqual([{ tool: 'quotes.send', why: expect.stringContaining(created.quote.id) }])
    const sent = await tool(client, 'quotes.send', { quote_id: created.quote.id, send_email: true })
    expect(sent.next_steps[0]).toMatchObject({ tool: 'quotes.list', why: expect.stringContaining('deposit invoice ($654.50)') })
    const accepted = await tool(client, 'quotes.update', { quote_id: created.quote.id, status: 'Accepted' })
    expect(accepted.next_steps).toEqual([{ tool: 'jobs.update', why: expect.stringContaining(accepted.quote.job_id) }])
    const scheduled = await tool(client, 'jobs.update', { job_id: accepted.quote.job_id, scheduled_date: '2026-12-03T09:00:00+11:00' })
    expect(scheduled.next_steps.map((s: { tool: string }) => s.tool)).toEqual(['jobs.send_eta', 'jobs.complete'])
    const done = await tool(client, 'jobs.complete', { job_id: accepted.quote.job_id })
    expect(done.next_steps.map((s: { tool: string }) => s.tool)).toEqual(['invoicing.generate', 'reviews.request'])
  })

  it('a dry run names the real call; the text summary lists the steps', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Sam Dry', email: 'sam@example.com' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Tap washer', quantity: 1, unitPrice: 90 }] })
    const res = await client.callTool({ name: 'quotes.send', arguments: { quote_id: quote.id, send_email: true, dry_run: true } })
    const out = res.structuredContent as { next_steps: { tool: string; why: string }[] }
    expect(out.next_steps).toEqual([{ tool: 'quotes.send', why: expect.stringContaining('without dry_run') }])
    const text = (res.content as { text: string }[])[0]!.text
    expect(text).toContain('Next: quotes.send (This was a dry run')
  })

  it('over REST each step also gives its route, and the why names routes', async () => {
    const lead = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Rest Caller' } })
    const quote = await app.call('POST', '/api/v1/quotes', { key: company.api_key, body: { lead_id: lead.body.lead.id, line_items: [{ description: 'Tap', quantity: 1, unitPrice: 50 }] } })
    expect(quote.status).toBe(201)
    expect(quote.body.next_steps).toEqual([{ tool: 'quotes.send', route: 'POST /api/v1/quotes/{quote_id}/send', why: expect.stringContaining(quote.body.quote.id) }])
    expect(quote.body.next_steps[0].why).not.toContain('quotes.send')
    // A dry run creates nothing: 200, not 201, and its step is the same route for real.
    const dry = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Dry Caller', phone: '0412 345 999', dry_run: true } })
    expect([dry.status, dry.body.lead]).toEqual([200, null])
    expect(dry.body.next_steps).toEqual([{ tool: 'leads.create', route: 'POST /api/v1/leads', why: expect.stringContaining('without dry_run') }])
  })
})

describe('what invoicing and payments say next', () => {
  it('an unsent invoice is to be sent; with no payment account connecting one is offered, and a dry run names the real call', async () => {
    const own = await freshCompany()
    try {
      const job = await completedJob(own.client, 110)
      const dry = await tool(own.client, 'invoicing.generate', { job_id: job.id, send_email: true, dry_run: true })
      expect(dry.next_steps).toEqual([{ tool: 'invoicing.generate', why: expect.stringContaining('without dry_run') }])
      const draft = await tool(own.client, 'invoicing.generate', { job_id: job.id })
      expect(draft.invoice.status).toBe('Draft')
      expect(draft.payment_url).toBeNull()
      expect(toolsOf(draft.next_steps)).toEqual(['invoicing.send', 'payments.connect_account'])
      expect(draft.next_steps[0].why).toContain(draft.invoice.id)
      // Asked to text a client with no mobile: nothing went, so it is still to be sent, and says why.
      const noMobile = await completedJob(own.client, 55, { email: 'only-email@example.com' })
      const skipped = await tool(own.client, 'invoicing.generate', { job_id: noMobile.id, send_sms: true })
      expect(skipped.invoice.status).toBe('Draft')
      expect(skipped.next_steps[0]).toEqual({ tool: 'invoicing.send', why: expect.stringContaining('Not sent: sms: the client has no Australian mobile number') })
    } finally {
      await own.client.close()
    }
  })

  it('connecting the sandbox account, then: the pay link is offered, a sent link waits for payment, a paid final invoice asks for the review', async () => {
    const own = await freshCompany()
    try {
      const connected = await tool(own.client, 'payments.connect_account', {})
      expect(connected.account.status).toBe('active')
      expect(connected.next_steps).toEqual([{ tool: 'payments.send_link', why: expect.stringContaining('Clients can pay online now') }])

      const job = await completedJob(own.client, 110)
      const draft = await tool(own.client, 'invoicing.generate', { job_id: job.id })
      expect(draft.payment_url).not.toBeNull()
      expect(toolsOf(draft.next_steps)).toEqual(['invoicing.send', 'payments.send_link'])
      expect(draft.next_steps[1].why).toContain(job.id)

      const dry = await tool(own.client, 'payments.send_link', { job_id: job.id, dry_run: true })
      expect(dry.next_steps).toEqual([{ tool: 'payments.send_link', why: expect.stringContaining('without dry_run') }])
      const sent = await tool(own.client, 'payments.send_link', { job_id: job.id })
      expect(sent.delivery.channels).toEqual(['sms'])
      expect(toolsOf(sent.next_steps)).toEqual(['invoicing.get', 'invoicing.record_payment'])
      expect(sent.next_steps[0].why).toContain('$110.00')
      expect(sent.next_steps[0].why).toContain(draft.invoice.id)

      // Part paid by bank transfer: the rest is asked for; paid in full: the review.
      const part = await tool(own.client, 'invoicing.record_payment', { id: draft.invoice.id, amount: 50, method: 'bank_transfer', reference: 'part-1' })
      expect(part.invoice.status).toBe('Partially Paid')
      expect(part.next_steps).toEqual([{ tool: 'invoicing.send', why: expect.stringContaining('$60.00 is still owed') }])
      const paid = await tool(own.client, 'invoicing.record_payment', { id: draft.invoice.id, amount: 60, method: 'bank_transfer', reference: 'part-2' })
      expect(paid.invoice.status).toBe('Paid')
      expect(paid.next_steps).toEqual([{ tool: 'reviews.request', why: expect.stringContaining(job.id) }])
    } finally {
      await own.client.close()
    }
  })

  it('a sent invoice waits for payment; over REST each step carries its route', async () => {
    const job = await completedJob(client, 220)
    const res = await app.call('POST', '/api/v1/invoices', { key: company.api_key, body: { job_id: job.id, send_email: true } })
    expect(res.status).toBe(201)
    expect(res.body.invoice.status).toBe('Sent')
    expect(res.body.next_steps).toEqual([
      { tool: 'invoicing.get', route: 'GET /api/v1/invoices/{id}', why: expect.stringContaining('$220.00') },
      { tool: 'invoicing.record_payment', route: 'POST /api/v1/invoices/{id}/payments', why: expect.stringContaining(res.body.invoice.id) },
    ])
    // The why names the webhook route to subscribe with, not the tool.
    expect(res.body.next_steps[0].why).toContain('POST /api/v1/webhooks')
  })
})

describe('what a review request says next', () => {
  it('a review link set names reviews.request; a dry run the real call; a request the booster; asking again needs force', async () => {
    const own = await freshCompany()
    try {
      const settings = await tool(own.client, 'reviews.update_settings', { links: { google: 'https://g.page/r/sparky-bros/review' } })
      expect(settings.next_steps).toEqual([{ tool: 'reviews.request', why: expect.stringContaining('Google Business Profile') }])
      const job = await completedJob(own.client, 110)
      const dry = await tool(own.client, 'reviews.request', { job_id: job.id, dry_run: true })
      expect(dry.next_steps).toEqual([{ tool: 'reviews.request', why: expect.stringContaining('without dry_run') }])
      const sent = await tool(own.client, 'reviews.request', { job_id: job.id })
      expect(sent.sent).toBe(true)
      expect(sent.next_steps).toEqual([{ tool: 'workflows.toggle', why: expect.stringContaining('review_booster') }])
      const again = await tool(own.client, 'reviews.request', { job_id: job.id })
      expect(again).toMatchObject({ sent: false, already_requested: true })
      expect(again.next_steps).toEqual([{ tool: 'reviews.request', why: expect.stringContaining('force: true') }])
      expect(again.next_steps[0].why).toContain(job.id)
    } finally {
      await own.client.close()
    }
  })
})

describe('what a webhook subscription says next', () => {
  it('names its deliveries, with the subscription id; over REST with the route', async () => {
    const viaTool = await tool(client, 'webhooks.subscribe', { url: receiver.url('/next-steps'), events: ['job.completed'] })
    expect(viaTool.next_steps).toEqual([{ tool: 'webhooks.deliveries', why: expect.stringContaining(viaTool.subscription.id) }])
    expect(viaTool.next_steps[0].why).toContain('shown once')
    const viaRest = await app.call('POST', '/api/v1/webhooks', { key: company.api_key, body: { url: receiver.url('/next-steps-rest'), events: ['job.completed'] } })
    expect(viaRest.status).toBe(201)
    expect(viaRest.body.next_steps).toEqual([{ tool: 'webhooks.deliveries', route: 'GET /api/v1/webhooks/{id}/deliveries', why: expect.stringContaining(viaRest.body.subscription.id) }])
  })
})

describe('what sign-up says next (REST only)', () => {
  it('asks for what was not given (state, time zone, review link), then the first work, each with its route', async () => {
    const res = await app.call('POST', '/api/v1/onboard', { body: { business_name: 'Next Step Plumbing', email: `next.${Date.now()}@example.com.au`, plan: 'business' } })
    expect(res.status).toBe(201)
    expect(res.body.plan.subscription.status).toBe('trialing')
    const steps = res.body.next_steps as Step[]
    expect(toolsOf(steps)).toEqual(['company.update_profile', 'payments.connect_account', 'reviews.update_settings', 'services.create', 'leads.create', 'billing.create_checkout'])
    // Every step is also a route; onboard has no MCP tool, so the caller is a REST caller.
    for (const step of steps) expect(step.route, step.tool).toBe(routeOf(step.tool))
    expect(steps[0]!.why).toContain('state')
    expect(steps[0]!.why).toContain('Australia/Sydney')
  })

  it('leaves out what sign-up was given', async () => {
    const res = await app.call('POST', '/api/v1/onboard', {
      body: {
        business_name: 'Westside Electrical', email: `west.${Date.now()}@example.com.au`, plan: 'free',
        state: 'WA', time_zone: 'Australia/Perth', review_link: 'https://g.page/r/westside/review',
      },
    })
    expect(res.status).toBe(201)
    expect(toolsOf(res.body.next_steps)).toEqual(['payments.connect_account', 'services.create', 'leads.create'])
  })
})

/** The route a tool is served at, as a REST caller writes it, from the registry. */
function routeOf(name: string): string {
  const rest = registry.get(name)!.rest!
  return `${rest.method} /api/v1${rest.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`
}
