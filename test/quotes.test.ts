// Quotes, services and the quote state moves, through the official MCP client and REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { ManualClock } from '../src/core/clock.js'

const clock = new ManualClock(new Date('2026-11-20T01:00:00Z'))
let app: TestApp
let client: Client
let company: Awaited<ReturnType<typeof onboard>>
let leadId: string
beforeAll(async () => {
  app = await startTestApp({ clock })
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', abn: '51 824 753 556', phone: '02 9000 0000' })
  client = await connectHttp(app, company.api_key)
  leadId = (await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', email: 'morgan@example.com.au', suburb: 'Marrickville' })).lead.id
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

const items = [
  { description: 'Replace 250L hot water system', quantity: 1, unitPrice: 1650 },
  { description: 'Labour', quantity: 2.5, unitPrice: 95.5, unit_cost: 40 },
]

describe('services catalogue', () => {
  it('creates, lists, updates and deactivates services; quote lines can reference them', async () => {
    const svc = (await tool(client, 'services.create', { name: 'Blocked drain clearing', price: 220, unit: 'fixed', category: 'drainage' })).service
    expect(svc).toMatchObject({ name: 'Blocked drain clearing', price: 220, unit: 'fixed', active: true, category: 'drainage' })
    const updated = (await tool(client, 'services.update', { service_id: svc.id, price: 249.95, description: 'High-pressure jetter' })).service
    expect(updated).toMatchObject({ price: 249.95, description: 'High-pressure jetter', name: 'Blocked drain clearing' })
    const quote = (await tool(client, 'quotes.create', { lead_id: leadId, line_items: [{ service_id: svc.id, quantity: 2 }] })).quote
    expect(quote.lineItems).toEqual([{ description: 'Blocked drain clearing', quantity: 2, unitPrice: 249.95, total: 499.9, serviceId: svc.id }])
    await tool(client, 'services.update', { service_id: svc.id, active: false })
    expect((await tool(client, 'services.list', { active: true })).services.map((s: any) => s.id)).not.toContain(svc.id)
    expect((await tool(client, 'services.list', { search: 'drain' })).services.map((s: any) => s.id)).toContain(svc.id)
    const refused = await toolError(client, 'quotes.create', { lead_id: leadId, line_items: [{ service_id: svc.id, quantity: 1 }] })
    expect(refused.messages).toEqual([expect.stringMatching(/inactive/)])
    const resource = await client.readResource({ uri: 'service://services' })
    expect(JSON.parse((resource.contents[0] as any).text).services[0].id).toBe(svc.id)
  })
})

describe('quotes.create and GST', () => {
  it('creates a Draft with computed subtotal, 10% GST and total, numbered per company', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: items, notes: 'Includes disposal of old unit' })
    expect(quote).toMatchObject({
      status: 'Draft', subtotal: 1888.75, gst: 188.88, total: 2077.63, clientName: 'Morgan Blake', leadId,
      validUntil: '2026-12-20', publicUrl: null, notes: 'Includes disposal of old unit',
    })
    expect(quote.quoteNumber).toMatch(/^Q-\d{5}$/)
    expect(quote.lineItems[1]).toEqual({ description: 'Labour', quantity: 2.5, unitPrice: 95.5, total: 238.75, serviceId: null })
  })

  it('rejects a missing lead, no line items, bad money and another company\'s lead', async () => {
    expect((await toolError(client, 'quotes.create', { lead_id: '00000000-0000-4000-8000-000000000000', line_items: items })).error).toBe('not_found')
    expect((await toolError(client, 'quotes.create', { lead_id: leadId, line_items: [] })).error).toBe('validation_error')
    const money = await toolError(client, 'quotes.create', { lead_id: leadId, line_items: [{ description: 'x', quantity: 1.0001, unitPrice: 10.005 }] })
    expect(money.messages).toEqual(expect.arrayContaining([expect.stringMatching(/quantity: use at most three decimals/), expect.stringMatching(/unitPrice: use at most two decimals/)]))
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      expect((await toolError(otherClient, 'quotes.create', { lead_id: leadId, line_items: items })).error).toBe('not_found')
    } finally {
      await otherClient.close()
    }
  })
})

describe('quotes.update', () => {
  it('recomputes totals from new line items; a disagreeing total is a validation_error', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: items })
    const updated = (await tool(client, 'quotes.update', { quote_id: quote.id, line_items: [{ description: 'Call-out', quantity: 1, unitPrice: 99 }], total: 108.9 })).quote
    expect(updated).toMatchObject({ subtotal: 99, gst: 9.9, total: 108.9, lineItems: [{ description: 'Call-out', total: 99 }] })
    const wrong = await toolError(client, 'quotes.update', { quote_id: quote.id, line_items: [{ description: 'Call-out', quantity: 1, unitPrice: 99 }], total: 99 })
    expect(wrong).toMatchObject({ error: 'validation_error', messages: [expect.stringMatching(/does not match the line items \(108.9 incl. GST\)/)] })
    expect((await toolError(client, 'quotes.update', { quote_id: quote.id, total: 100 })).error).toBe('validation_error')
    expect((await tool(client, 'quotes.update', { quote_id: quote.id, notes: 'Parts on order' })).quote).toMatchObject({ notes: 'Parts on order', total: 108.9 })
  })

  it('sets any supplied status (the spec\'s "any -> supplied"), except out of Accepted', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: items })
    for (const status of ['Sent', 'Viewed', 'Declined', 'Draft', 'Expired', 'Draft', 'Accepted']) {
      expect((await tool(client, 'quotes.update', { quote_id: quote.id, status })).quote.status).toBe(status)
    }
    for (const status of ['Draft', 'Sent', 'Declined']) {
      const refused = await toolError(client, 'quotes.update', { quote_id: quote.id, status })
      expect(refused).toMatchObject({ error: 'conflict', current_status: 'Accepted' })
    }
    const lines = await toolError(client, 'quotes.update', { quote_id: quote.id, line_items: items })
    expect(lines).toMatchObject({ error: 'conflict' })
  })
})

describe('quotes.send and the lead', () => {
  it('Draft -> Sent with a public URL, SMS and email recorded, lead -> Quoted, quote.sent in the outbox', async () => {
    const lead = (await tool(client, 'leads.create', { name: 'Riley Ng', phone: '0400 123 456', email: 'riley@example.com' })).lead
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: items })
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true, send_email: true, message: 'As discussed on site.' })
    expect(sent.quote).toMatchObject({ status: 'Sent', publicUrl: sent.public_url })
    expect(sent.public_url).toMatch(new RegExp(`^${app.runtime.deps.urls.siteRoot}/q/[A-Za-z0-9_-]{32}$`))
    expect(sent.delivery.channels).toEqual(['sms', 'email'])
    const { connectClient } = await import('../src/temporal/connection.js')
    const { inject } = await import('vitest')
    const temporal = await connectClient(inject('temporalAddress'), 'default')
    try {
      await temporal.workflow.getHandle(sent.delivery.workflow_id).result()
    } finally {
      await temporal.connection.close()
    }
    const messages = await app.owner`select channel, status, body from communications where quote_id = ${quote.id} order by channel`
    expect(messages.map((m) => [m.channel, m.status])).toEqual([['email', 'recorded'], ['sms', 'recorded']])
    expect(messages[1]!.body).toContain(sent.public_url)
    expect(messages[1]!.body).toContain('As discussed on site.')
    const leadNow = (await tool(client, 'leads.list', { limit: 100 })).leads.find((l: any) => l.id === lead.id)
    expect(leadNow.status).toBe('Quoted')
    const events = await app.owner`select event_type from event_outbox where entity_id = ${quote.id} order by id`
    expect(events.map((e) => e.event_type)).toEqual(['quote.created', 'quote.sent'])
  })

  it('sending again from Sent or Viewed is allowed; from Accepted, Declined or Expired it is refused', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: items })
    await tool(client, 'quotes.send', { quote_id: quote.id })
    expect((await tool(client, 'quotes.send', { quote_id: quote.id })).quote.status).toBe('Sent')
    for (const status of ['Declined', 'Expired', 'Accepted']) {
      const q = (await tool(client, 'quotes.create', { lead_id: leadId, line_items: items })).quote
      await tool(client, 'quotes.update', { quote_id: q.id, status })
      expect(await toolError(client, 'quotes.send', { quote_id: q.id })).toMatchObject({ error: 'conflict', current_status: status })
    }
  })

  it('skips a channel the lead cannot be reached on and says why', async () => {
    const lead = (await tool(client, 'leads.create', { name: 'Landline Only', phone: '(02) 9555 1234' })).lead
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: items })
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true, send_email: true })
    expect(sent.delivery).toMatchObject({ workflow_id: null, channels: [], skipped: [expect.stringMatching(/mobile/), expect.stringMatching(/email/)] })
  })
})

describe('quote validity', () => {
  it('a Sent quote past valid_until reads as Expired (filterable), Sydney calendar days', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: items, valid_until: '2026-11-21' })
    await tool(client, 'quotes.send', { quote_id: quote.id })
    try {
      clock.set(new Date('2026-11-21T12:59:00Z')) // 23:59 on the 21st in Sydney
      expect((await tool(client, 'quotes.list', { status: 'Sent', limit: 100 })).quotes.map((q: any) => q.id)).toContain(quote.id)
      clock.set(new Date('2026-11-21T13:00:00Z')) // midnight: the 22nd
      const expired = (await tool(client, 'quotes.list', { status: 'Expired', limit: 100 })).quotes.find((q: any) => q.id === quote.id)
      expect(expired.status).toBe('Expired')
    } finally {
      clock.set(new Date('2026-11-20T01:00:00Z'))
    }
  })
})

describe('quote numbering', () => {
  it('20 concurrent creations get Q-numbers with no gaps or duplicates', async () => {
    const fresh = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const freshClient = await connectHttp(app, fresh.api_key)
    try {
      const lead = (await tool(freshClient, 'leads.create', { name: 'Concurrent' })).lead
      // One bad creation in the middle rolls back and must not leave a gap.
      const calls = Array.from({ length: 21 }, (_, i) =>
        freshClient.callTool({ name: 'quotes.create', arguments: { lead_id: lead.id, line_items: i === 10 ? [{ description: 'bad', quantity: 1, service_id: '00000000-0000-4000-8000-000000000000' }] : items } }))
      const results = await Promise.all(calls)
      const numbers = results.filter((r) => !r.isError).map((r: any) => r.structuredContent.quote.quoteNumber).sort()
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `Q-${String(i + 1).padStart(5, '0')}`))
    } finally {
      await freshClient.close()
    }
  })
})

describe('tenancy', () => {
  it('another company\'s quote ids give not_found on every quote tool', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: items })
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      expect((await toolError(otherClient, 'quotes.update', { quote_id: quote.id, notes: 'x' })).error).toBe('not_found')
      expect((await toolError(otherClient, 'quotes.send', { quote_id: quote.id })).error).toBe('not_found')
      expect((await tool(otherClient, 'quotes.list', {})).total).toBe(0)
      expect((await tool(otherClient, 'quotes.list', { lead_id: leadId })).total).toBe(0)
      const svc = (await tool(client, 'services.create', { name: 'Mine', price: 1 })).service
      expect((await toolError(otherClient, 'services.update', { service_id: svc.id, price: 2 })).error).toBe('not_found')
      expect((await toolError(otherClient, 'quotes.create', { lead_id: leadId, line_items: [{ service_id: svc.id, quantity: 1 }] })).error).toBe('not_found')
    } finally {
      await otherClient.close()
    }
  })
})

describe('GET /api/v1/quotes', () => {
  it('matches the spec\'s query parameters and defaults', async () => {
    const res = await app.call('GET', '/api/v1/quotes', { key: company.api_key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ limit: 50, offset: 0 })
    expect(res.body.total).toBeGreaterThan(5)
    const drafts = await app.call('GET', '/api/v1/quotes?status=Draft&limit=2&offset=1', { key: company.api_key })
    expect(drafts.body).toMatchObject({ limit: 2, offset: 1 })
    expect(drafts.body.quotes.every((q: any) => q.status === 'Draft')).toBe(true)
    expect((await app.call('GET', '/api/v1/quotes?status=Pending', { key: company.api_key })).status).toBe(400)
  })
})
