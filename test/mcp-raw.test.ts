// MCP over raw HTTP: what an SDK hides (batches, notifications, headers, each JSON-RPC error code,
// authentication, DNS-rebinding checks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'

let app: TestApp
let business: Awaited<ReturnType<typeof onboard>>
let other: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  business = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(() => app?.stop())

const call = (id: number, name: string, args: unknown = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })

describe('JSON-RPC over POST /api/v1/mcp', () => {
  it('initialize negotiates the protocol version (an unsupported one gets the latest we speak)', async () => {
    for (const [asked, got] of [['2024-11-05', '2024-11-05'], ['2025-03-26', '2025-03-26'], ['2025-06-18', '2025-06-18'], ['2025-11-25', '2025-11-25'], ['1999-01-01', '2025-11-25']]) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
      expect(res.status).toBe(200)
      expect(res.body.result).toMatchObject({ protocolVersion: got, serverInfo: { name: 'tradie-ops', version: '2.3.0' } })
      expect(res.headers.get('mcp-session-id')).toBeNull()
    }
  })

  it('ping, server/discover, tools/list and resources/list need no key', async () => {
    for (const method of ['ping', 'server/discover', 'tools/list', 'resources/list']) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 7, method })
      expect(res.status, method).toBe(200)
      expect(res.body.id).toBe(7)
      expect(res.body.result, method).toBeDefined()
    }
    const resources = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'resources/list' })
    // The spec's nine resources; listed in the order of the domain list (src/domains/index.ts).
    expect(resources.body.result.resources.map((r: any) => r.uri).sort()).toEqual([
      'service://leads', 'service://quotes', 'service://jobs', 'service://clients', 'service://financials',
      'service://services', 'service://reminders', 'service://communications', 'service://billing',
    ].sort())
  })

  it('sets Mcp-Method and Mcp-Name on every response', async () => {
    let res = await rpc(app, call(1, 'leads.list'), { key: business.api_key })
    expect(res.headers.get('mcp-method')).toBe('tools/call')
    expect(res.headers.get('mcp-name')).toBe('leads.list')
    res = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'service://billing' } }, { key: business.api_key })
    expect(res.headers.get('mcp-method')).toBe('resources/read')
    expect(res.headers.get('mcp-name')).toBe('service://billing')
    res = await rpc(app, { jsonrpc: '2.0', id: 3, method: 'ping' })
    expect(res.headers.get('mcp-method')).toBe('ping')
  })

  it('400 with -32020 when the client\'s Mcp-Method or Mcp-Name header disagrees with the body', async () => {
    let res = await rpc(app, call(1, 'leads.list'), { key: business.api_key, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'leads.create' } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(-32020)
    res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'mcp-method': 'tools/list' } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(-32020)
    res = await rpc(app, call(1, 'leads.list'), { key: business.api_key, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'leads.list' } })
    expect(res.status).toBe(200)
  })

  it('answers a batch with an array of responses, in order, leaving out notifications', async () => {
    const res = await rpc(app, [
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call(2, 'leads.create', { name: 'Batch Lead' }),
      { jsonrpc: '2.0', id: 3, method: 'no/such' },
    ], { key: business.api_key })
    expect(res.status).toBe(200)
    expect(res.body.map((r: any) => r.id)).toEqual(['a', 2, 3])
    expect(res.body[1].result.structuredContent.lead.name).toBe('Batch Lead')
    expect(res.body[2].error.code).toBe(-32601)
    // Route headers describe one request; a batch has none (see mcp-hardening.test.ts).
    expect(res.headers.get('mcp-method')).toBeNull()
  })

  it('answers a notification (or a batch of them) with 204 and no body', async () => {
    let res = await rpc(app, { jsonrpc: '2.0', method: 'notifications/initialized' })
    expect(res.status).toBe(204)
    expect(res.body).toBeNull()
    res = await rpc(app, [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }])
    expect(res.status).toBe(204)
  })

  it('gives each JSON-RPC error code', async () => {
    const parse = await rpc(app, null, { raw: '{"jsonrpc": "2.0", "id": 1, "method": ' })
    expect(parse.status).toBe(400)
    expect(parse.body).toMatchObject({ id: null, error: { code: -32700 } })
    const invalid = await rpc(app, { jsonrpc: '1.0', id: 1, method: 'ping' })
    expect(invalid.body.error.code).toBe(-32600)
    const emptyBatch = await rpc(app, [])
    expect(emptyBatch.body.error.code).toBe(-32600)
    const unknownMethod = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/destroy' })
    expect(unknownMethod.body.error.code).toBe(-32601)
    const unknownTool = await rpc(app, call(1, 'leads.delete'), { key: business.api_key })
    expect(unknownTool.body.error.code).toBe(-32602)
    const badCursor = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'not-a-cursor' } })
    expect(badCursor.body.error.code).toBe(-32602)
    const badArgs = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: [1] } }, { key: business.api_key })
    expect(badArgs.body.error.code).toBe(-32602)
  })

  it('tool failures are isError results carrying {error, message}', async () => {
    const res = await rpc(app, call(1, 'leads.create', { name: 'X', phone: '12' }), { key: business.api_key })
    expect(res.status).toBe(200)
    expect(res.body.result.isError).toBe(true)
    expect(res.body.result.structuredContent).toMatchObject({ error: 'validation_error', messages: [expect.stringMatching(/phone/)] })
    expect(JSON.parse(res.body.result.content[0].text)).toEqual(res.body.result.structuredContent)
  })

  it('401 without a key or with a wrong one', async () => {
    for (const key of [undefined, `ask_${'q'.repeat(43)}`]) {
      const res = await rpc(app, call(1, 'leads.list'), { key })
      expect(res.status).toBe(401)
      expect(res.body.error).toMatchObject({ code: -32001, data: { error: 'unauthorized' } })
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    }
    const read = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'service://leads' } })
    expect(read.status).toBe(401)
  })

  it('403 for a key whose plan lacks mcpAccess, naming the business plan', async () => {
    const pro = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_visa' })
    const res = await rpc(app, call(1, 'leads.list'), { key: pro.api_key })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatchObject({ code: -32003, data: { error: 'forbidden', missing: { feature: 'mcpAccess', plan: 'business' } } })
    expect(res.body.error.message).toMatch(/business/)
  })

  it('a key lacking the leads scope gets an isError forbidden result', async () => {
    const key = (await fetch(`${app.url}/api/v1/keys`, {
      method: 'POST', headers: { authorization: `Bearer ${business.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'jobs only', scopes: ['jobs'], permission: 'write' }),
    }).then((r) => r.json()) as { api_key: string }).api_key
    const res = await rpc(app, call(1, 'leads.list'), { key })
    expect(res.body.result).toMatchObject({ isError: true, structuredContent: { error: 'forbidden', missing: { scope: 'leads' } } })
    const scoped = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'service://leads' } }, { key })
    expect(scoped.status).toBe(403)
  })

  it('a key of another company cannot see or change this company\'s lead', async () => {
    const created = await rpc(app, call(1, 'leads.create', { name: 'Private Lead' }), { key: business.api_key })
    const id = created.body.result.structuredContent.lead.id
    const update = await rpc(app, call(2, 'leads.update', { lead_id: id, name: 'Hijacked' }), { key: other.api_key })
    expect(update.body.result).toMatchObject({ isError: true, structuredContent: { error: 'not_found' } })
    const list = await rpc(app, call(3, 'leads.list'), { key: other.api_key })
    expect(list.body.result.structuredContent.leads.map((l: any) => l.id)).not.toContain(id)
    const resource = await rpc(app, { jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'service://leads' } }, { key: other.api_key })
    expect(resource.body.result.contents[0].text).not.toContain(id)
  })

  it('counts each authenticated call toward the monthly quota', async () => {
    const fresh = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    await rpc(app, [call(1, 'leads.list'), call(2, 'leads.list'), { jsonrpc: '2.0', id: 3, method: 'ping' }], { key: fresh.api_key })
    const usage = await app.call('GET', '/api/v1/usage', { key: fresh.api_key })
    expect(usage.body.usage.api_calls.used).toBe(2) // two tool calls; ping is unauthenticated and GET /usage is not counted
  })

  it('refuses a foreign Origin or Host (DNS rebinding)', async () => {
    let res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { origin: 'https://evil.example' } })
    expect(res.status).toBe(403)
    res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { origin: app.runtime.deps.urls.siteRoot } })
    expect(res.status).toBe(200)
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${app.url}/api/v1/mcp`, { method: 'POST', headers: { host: 'attacker.example:80', 'content-type': 'application/json' } }, (r) => {
        r.resume()
        resolve(r.statusCode!)
      })
      req.on('error', reject)
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))
    })
    expect(status).toBe(403)
  })

  it('lists underscore names on request, and tools/call accepts both forms', async () => {
    const listed = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { path: '/api/v1/mcp?tool_names=underscore' })
    const names = listed.body.result.tools.map((t: any) => t.name)
    expect(names).toContain('leads_create')
    expect(names.every((n: string) => !n.includes('.'))).toBe(true)
    const res = await rpc(app, call(1, 'leads_list'), { key: business.api_key })
    expect(res.body.result.isError).toBeUndefined()
  })

  it('filters by toolset and to read-only tools', async () => {
    const leads = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { path: '/api/v1/mcp?toolsets=leads,billing' })
    expect(leads.body.result.tools.map((t: any) => t.name).sort()).toEqual(['billing.create_checkout', 'billing.get_portal', 'billing.list_plans', 'billing.status', 'billing.usage', 'leads.create', 'leads.list', 'leads.update'])
    const readOnly = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { headers: { 'mcp-toolsets': 'leads', 'mcp-read-only': 'true' } })
    expect(readOnly.body.result.tools.map((t: any) => t.name)).toEqual(['leads.list'])
  })
})
