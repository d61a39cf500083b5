// The leads domain over REST (and the same lead over MCP), with its events in the outbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(() => app?.stop())

const post = (body: unknown, key = company.api_key) => app.call('POST', '/api/v1/leads', { key, body })

describe('POST /api/v1/leads', () => {
  it('creates a lead (201 {lead}) with every field of the spec', async () => {
    const res = await post({
      name: 'Alex Tran', phone: '0412 555 666', email: 'alex@example.com.au', serviceType: 'Hot water system',
      message: 'No hot water since Tuesday', address: '12 King St', suburb: 'Newtown', source: 'website', priority: 'High',
    })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body)).toEqual(['lead', 'next_steps']) // the spec's {lead}, and what to do next (issue 21)
    expect(res.body.lead).toMatchObject({
      name: 'Alex Tran', phone: '+61412555666', email: 'alex@example.com.au', serviceType: 'Hot water system', status: 'New',
      priority: 'High', message: 'No hot water since Tuesday', address: '12 King St', suburb: 'Newtown', source: 'website',
    })
    expect(Object.keys(res.body.lead)).toEqual(expect.arrayContaining(['id', 'name', 'phone', 'email', 'serviceType', 'status', 'priority', 'message', 'address', 'suburb', 'source', 'createdAt']))
    expect(new Date(res.body.lead.createdAt).toISOString()).toBe(res.body.lead.createdAt)
  })

  it('defaults: priority Normal, nullable fields null, REST source null', async () => {
    const res = await post({ name: 'Minimal' })
    expect(res.body.lead).toMatchObject({ priority: 'Normal', status: 'New', phone: null, email: null, serviceType: null, source: null })
  })

  it('400 validation_error for bad input', async () => {
    for (const [body, message] of [
      [{}, /name: is required/],
      [{ name: '' }, /name: /],
      [{ name: 'X', email: 'nope' }, /email: must match format/],
      [{ name: 'X', priority: 'Critical' }, /priority: /],
      [{ name: 'X', phone: '123' }, /phone: '123' is not a valid Australian phone number/],
      [{ name: 'X', status: 'Won' }, /status: is not a known field/],
    ] as const) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe('validation_error')
      expect(res.body.messages.join('\n')).toMatch(message)
    }
  })

  it('needs write permission and the professional plan\'s REST write', async () => {
    const keyRes = await app.call('POST', '/api/v1/keys', { key: company.api_key, body: { name: 'reader', scopes: ['leads'], permission: 'read' } })
    const reader = await post({ name: 'Nope' }, keyRes.body.api_key)
    expect(reader.status).toBe(403)
    expect(reader.body.missing).toEqual({ permission: 'write' })
    const starter = await onboard(app, { plan: 'starter', stripe_payment_method_id: 'pm_card_visa' })
    const res = await post({ name: 'Nope' }, starter.api_key)
    expect(res.status).toBe(403)
    expect(res.body.missing).toEqual({ feature: 'restWrite', plan: 'professional' })
    expect((await app.call('GET', '/api/v1/leads', { key: starter.api_key })).status).toBe(200)
  })
})

describe('GET /api/v1/leads', () => {
  let own: Awaited<ReturnType<typeof onboard>>
  beforeAll(async () => {
    own = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    for (let i = 0; i < 7; i++) {
      await post({ name: `Lead ${i}`, priority: i % 2 ? 'Urgent' : 'Low' }, own.api_key)
    }
  })

  it('returns {leads, total, limit, offset}, newest first, default limit 50', async () => {
    const res = await app.call('GET', '/api/v1/leads', { key: own.api_key })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ total: 7, limit: 50, offset: 0 })
    expect(res.body.leads.map((l: any) => l.name)).toEqual(['Lead 6', 'Lead 5', 'Lead 4', 'Lead 3', 'Lead 2', 'Lead 1', 'Lead 0'])
  })

  it('pages with limit and offset and filters by priority and status', async () => {
    const page = await app.call('GET', '/api/v1/leads?limit=3&offset=2', { key: own.api_key })
    expect(page.body).toMatchObject({ total: 7, limit: 3, offset: 2 })
    expect(page.body.leads.map((l: any) => l.name)).toEqual(['Lead 4', 'Lead 3', 'Lead 2'])
    const urgent = await app.call('GET', '/api/v1/leads?priority=Urgent', { key: own.api_key })
    expect(urgent.body.total).toBe(3)
    expect(urgent.body.leads.every((l: any) => l.priority === 'Urgent')).toBe(true)
    const won = await app.call('GET', '/api/v1/leads?status=Won', { key: own.api_key })
    expect(won.body).toMatchObject({ total: 0, leads: [] })
  })

  it('rejects limit above 100, negative offsets and unknown enum values', async () => {
    for (const query of ['limit=101', 'limit=0', 'offset=-1', 'status=Pending', 'priority=Huge', 'limit=abc']) {
      const res = await app.call('GET', `/api/v1/leads?${query}`, { key: own.api_key })
      expect(res.status, query).toBe(400)
      expect(res.body.error).toBe('validation_error')
    }
    expect((await app.call('GET', '/api/v1/leads?limit=100', { key: own.api_key })).status).toBe(200)
  })

  it('cursor pages walk every lead exactly once', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: any = await app.call('GET', `/api/v1/leads?limit=3${cursor ? `&cursor=${cursor}` : ''}`, { key: own.api_key })
      seen.push(...res.body.leads.map((l: any) => l.name))
      cursor = res.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(['Lead 6', 'Lead 5', 'Lead 4', 'Lead 3', 'Lead 2', 'Lead 1', 'Lead 0'])
  })

  it('needs the leads scope', async () => {
    const keyRes = await app.call('POST', '/api/v1/keys', { key: own.api_key, body: { name: 'jobs', scopes: ['jobs'], permission: 'read' } })
    const res = await app.call('GET', '/api/v1/leads', { key: keyRes.body.api_key })
    expect(res.status).toBe(403)
    expect(res.body.missing).toEqual({ scope: 'leads' })
  })
})

describe('REST and MCP agree', () => {
  it('return the same lead for the same id; MCP without a source gives source "mcp"', async () => {
    const created = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.create', arguments: { name: 'Sam Both', suburb: 'Glebe' } } }, { key: company.api_key })
    const mcpLead = created.body.result.structuredContent.lead
    expect(mcpLead.source).toBe('mcp')
    const rest = await app.call('GET', '/api/v1/leads?limit=100', { key: company.api_key })
    expect(rest.body.leads.find((l: any) => l.id === mcpLead.id)).toEqual(mcpLead)
    const restCreated = (await post({ name: 'Rest Made' })).body.lead
    const listed = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'leads.list', arguments: { limit: 100 } } }, { key: company.api_key })
    expect(listed.body.result.structuredContent.leads.find((l: any) => l.id === restCreated.id)).toEqual(restCreated)
  })
})

describe('event outbox', () => {
  it('records lead.created and lead.updated in the same transaction as the change', async () => {
    const lead = (await post({ name: 'Evented', email: 'ev@example.com' })).body.lead
    await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.update', arguments: { lead_id: lead.id, priority: 'High' } } }, { key: company.api_key })
    const events = await app.owner`
      select event_type, payload from event_outbox where entity_id = ${lead.id} and payload->>'by' is null order by id`
    expect(events.map((e) => e.event_type)).toEqual(['lead.created', 'lead.updated'])
    expect(events[0]!.payload.lead).toMatchObject({ id: lead.id, name: 'Evented' })
    expect(events[1]!.payload).toMatchObject({ changed: ['priority'], lead: { priority: 'High' } })
  })

  it('every lead has exactly one lead.created event', async () => {
    const rows = await app.owner`
      select l.id, count(e.id)::int as events from leads l
      left join event_outbox e on e.entity_id = l.id and e.event_type = 'lead.created'
      group by l.id`
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.filter((r) => r.events !== 1)).toEqual([])
  })
})
