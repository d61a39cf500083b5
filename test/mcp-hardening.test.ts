// MCP under hostile input, each case seen in an attack run: raw input in response headers, junk
// SSE session ids, SSE streams anyone could post into, unbounded batches, protocol-version
// headers, and the catalogue filters an agent needs to keep its context small.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { openStream, type OpenStream } from './helpers/sse-stream.js'

let app: TestApp
let owner: Awaited<ReturnType<typeof onboard>>
let other: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  owner = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(() => app?.stop())

const call = (id: number | string, name: string, args: unknown = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
const read = (id: number | string, uri: string) => ({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } })
const unique = (tag: string) => `${tag} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`

/** Names of the leads a key's company can see. */
async function leadNames(key: string): Promise<string[]> {
  const res = await rpc(app, call(1, 'leads.list', { limit: 100 }), { key })
  return res.body.result.structuredContent.leads.map((l: { name: string }) => l.name)
}

async function postTo(target: TestApp, path: string, body: unknown, key?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key) headers.authorization = `Bearer ${key}`
  const res = await fetch(`${target.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  const text = await res.text()
  let parsed: any = text
  try {
    parsed = JSON.parse(text)
  } catch {
    /* "Accepted" */
  }
  return { status: res.status, body: parsed, headers: res.headers }
}

async function newKey(admin: string): Promise<{ id: string; api_key: string }> {
  const res = await app.call('POST', '/api/v1/keys', { key: admin, body: { name: 'second agent', scopes: ['leads'], permission: 'write' } })
  expect(res.status).toBe(201)
  return { id: res.body.key.id, api_key: res.body.api_key }
}

// An emoji (not Latin-1), CR/LF (header injection) and NUL: Node refuses all three in a header.
const HOSTILE = ['leads.list\u{1F4A5}', 'leads.list\r\nX-Injected: yes', 'leads.list\u0000']

describe('Mcp-Method / Mcp-Name never carry raw input', () => {
  it('tools/call naming a tool with an emoji, CR/LF or NUL gets a JSON-RPC error, not a 5xx', async () => {
    for (const name of HOSTILE) {
      const res = await rpc(app, call(1, name), { key: owner.api_key })
      expect(res.status, JSON.stringify(name)).toBe(200)
      expect(res.body.error.code).toBe(-32602)
      expect(res.headers.get('mcp-method')).toBe('tools/call')
      expect(res.headers.get('mcp-name')).toBeNull()
      expect(res.headers.get('x-injected')).toBeNull()
    }
  })

  it('resources/read of such a URI gets a JSON-RPC error, not a 5xx', async () => {
    for (const uri of HOSTILE.map((h) => h.replace('leads.list', 'service://leads'))) {
      const res = await rpc(app, read(1, uri), { key: owner.api_key })
      expect(res.status, JSON.stringify(uri)).toBe(200)
      expect(res.body.error.code).toBe(-32602)
      expect(res.headers.get('mcp-method')).toBe('resources/read')
      expect(res.headers.get('mcp-name')).toBeNull()
    }
  })

  it('a batch mixing a write with such items answers every item once, and the write happened once', async () => {
    const name = unique('Batch Hostile')
    const res = await rpc(app, [
      call('create', 'leads.create', { name }),
      ...HOSTILE.map((h, i) => call(`tool${i}`, h)),
      ...HOSTILE.map((h, i) => read(`res${i}`, h.replace('leads.list', 'service://leads'))),
      { jsonrpc: '2.0', id: 'ping', method: 'ping' },
    ], { key: owner.api_key })
    expect(res.status).toBe(200)
    expect(res.body.map((r: any) => r.id)).toEqual(['create', 'tool0', 'tool1', 'tool2', 'res0', 'res1', 'res2', 'ping'])
    expect(res.body[0].result.structuredContent.lead.name).toBe(name)
    for (const r of res.body.slice(1, 7)) expect(r.error.code).toBe(-32602)
    expect(res.headers.get('mcp-method')).toBeNull()
    expect((await leadNames(owner.api_key)).filter((n) => n === name)).toHaveLength(1)
  })

  it('the header-mismatch answer does not echo a hostile body either', async () => {
    const res = await rpc(app, call(1, 'leads.list\r\nX-Injected: yes'), { key: owner.api_key, headers: { 'mcp-method': 'tools/call', 'mcp-name': 'leads.list' } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(-32020)
    expect(res.headers.get('mcp-method')).toBe('tools/call')
    expect(res.headers.get('mcp-name')).toBeNull()
  })

  it('leaves out a plain value that is too long, and both headers for an invalid request', async () => {
    const long = await rpc(app, call(1, `leads.${'x'.repeat(300)}`), { key: owner.api_key })
    expect(long.body.error.code).toBe(-32602)
    expect(long.headers.get('mcp-method')).toBe('tools/call')
    expect(long.headers.get('mcp-name')).toBeNull()
    const invalid = await rpc(app, { jsonrpc: '1.0', id: 1, method: 'ping' })
    expect(invalid.body.error.code).toBe(-32600)
    expect(invalid.headers.get('mcp-method')).toBeNull()
  })
})

describe('legacy SSE session_id', () => {
  it('a NUL byte, junk or a repeated session_id gets 400 with a JSON error, never a 5xx', async () => {
    const nul = `${'A'.repeat(21)}%00`
    for (const query of [`session_id=${nul}`, 'session_id=%00', 'session_id=%F0%9F%92%A5', 'session_id=../../etc', 'session_id=a&session_id=b', '']) {
      const res = await postTo(app, `/api/v1/mcp/sse/messages?${query}`, { jsonrpc: '2.0', id: 1, method: 'ping' }, owner.api_key)
      expect(res.status, query).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(res.body.error).toMatchObject({ code: -32600, data: { error: 'validation_error' } })
    }
  })
})

describe('legacy SSE streams belong to the key that opened them', () => {
  it('opening needs a key: 401 without one or with a wrong one', async () => {
    for (const key of [undefined, `ask_${'q'.repeat(43)}`]) {
      const res = await fetch(`${app.url}/api/v1/mcp/sse`, { headers: key ? { authorization: `Bearer ${key}` } : {} })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
      expect(await res.json()).toMatchObject({ error: 'unauthorized', message: expect.stringMatching(/Authorization|Invalid/) })
    }
  })

  it('opening needs the mcpAccess feature, as POST /mcp does', async () => {
    const pro = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_visa' })
    const res = await fetch(`${app.url}/api/v1/mcp/sse`, { headers: { authorization: `Bearer ${pro.api_key}` } })
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: 'forbidden', missing: { feature: 'mcpAccess', plan: 'business' } })
  })

  it('opening is not counted as an API call', async () => {
    const fresh = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const stream = await openStream(app, fresh.api_key)
    stream.close()
    const usage = await app.call('GET', '/api/v1/usage', { key: fresh.api_key })
    expect(usage.body.usage.api_calls.used).toBe(0) // GET /usage is not counted either (a way out of a used-up quota)
  })

  it('records the opening key with the session (the key fixes the company)', async () => {
    const stream = await openStream(app, owner.api_key)
    try {
      const keys = (await app.call('GET', '/api/v1/keys', { key: owner.api_key })).body.keys
      const [row] = await app.owner`select key_id from mcp_sse_sessions where id = ${stream.sessionId}`
      const opener = keys.find((k: any) => owner.api_key.startsWith(k.prefix))
      expect(row).toEqual({ key_id: opener.id })
      const [apiKey] = await app.owner`select company_id from api_keys where id = ${opener.id}`
      expect(apiKey!.company_id).toBe(owner.company_id)
    } finally {
      stream.close()
    }
  })

  it('another company\'s key cannot post into a stream: 404 like an unknown session, and nothing runs or arrives', async () => {
    const stream = await openStream(app, owner.api_key)
    try {
      const name = unique('Foreign Post')
      const foreign = await postTo(app, stream.path, call('foreign', 'leads.create', { name }), other.api_key)
      const unknown = await postTo(app, `/api/v1/mcp/sse/messages?session_id=${'Z'.repeat(22)}`, call('x', 'leads.create', { name }), other.api_key)
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual(unknown.body)
      expect(foreign.body.error.data).toMatchObject({ error: 'not_found' })
      expect(await leadNames(other.api_key)).not.toContain(name)
      expect(await leadNames(owner.api_key)).not.toContain(name)

      const mine = await postTo(app, stream.path, { jsonrpc: '2.0', id: 'mine', method: 'ping' }, owner.api_key)
      expect(mine.status).toBe(202)
      // The first message on the stream is the owner's: the foreign POST left no trace there.
      expect(JSON.parse((await stream.nextEvent())!.data)).toEqual({ jsonrpc: '2.0', id: 'mine', result: {} })
    } finally {
      stream.close()
    }
  })

  it('the same company\'s other key, or no key, is refused the same way', async () => {
    const second = await newKey(owner.api_key)
    const stream = await openStream(app, owner.api_key)
    try {
      for (const key of [second.api_key, undefined]) {
        const res = await postTo(app, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' }, key)
        expect(res.status).toBe(404)
        expect(res.body.error.data.error).toBe('not_found')
      }
    } finally {
      stream.close()
    }
  })

  it('a stream opened with a key that is then revoked takes no more POSTs', async () => {
    const second = await newKey(owner.api_key)
    const stream = await openStream(app, second.api_key)
    try {
      expect((await postTo(app, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' }, second.api_key)).status).toBe(202)
      expect((await app.call('DELETE', `/api/v1/keys/${second.id}`, { key: owner.api_key })).status).toBe(200)
      expect((await postTo(app, stream.path, { jsonrpc: '2.0', id: 2, method: 'ping' }, second.api_key)).status).toBe(404)
    } finally {
      stream.close()
    }
  })

  it('another company cannot read a stream: asking for its session id opens a separate, empty stream', async () => {
    const mine = await openStream(app, owner.api_key)
    const theirs = await openStream(app, other.api_key, `?session_id=${mine.sessionId}`)
    try {
      expect(theirs.sessionId).not.toBe(mine.sessionId)
      expect((await postTo(app, mine.path, { jsonrpc: '2.0', id: 'secret', method: 'ping' }, owner.api_key)).status).toBe(202)
      expect(JSON.parse((await mine.nextEvent())!.data).id).toBe('secret')
      expect(await theirs.nextEvent(500)).toBeNull()
    } finally {
      mine.close()
      theirs.close()
    }
  })

  describe('across two API instances', () => {
    let second: TestApp
    beforeAll(async () => {
      second = await startTestApp({ shareDatabaseOf: app })
    })
    afterAll(() => second?.stop())

    it('only the opening key\'s POSTs reach the stream, whichever instance they land on', async () => {
      const extraKey = await newKey(owner.api_key)
      const stream: OpenStream = await openStream(app, owner.api_key)
      try {
        for (const key of [other.api_key, extraKey.api_key]) {
          const refused = await postTo(second, stream.path, { jsonrpc: '2.0', id: 'intruder', method: 'ping' }, key)
          expect(refused.status).toBe(404)
          expect(refused.body.error.data.error).toBe('not_found')
        }
        const accepted = await postTo(second, stream.path, { jsonrpc: '2.0', id: 'routed', method: 'ping' }, owner.api_key)
        expect(accepted.status).toBe(202)
        expect(JSON.parse((await stream.nextEvent())!.data)).toEqual({ jsonrpc: '2.0', id: 'routed', result: {} })
      } finally {
        stream.close()
      }
    })
  })
})

describe('bounded batches', () => {
  it('GET /api/v1/mcp publishes the limits', async () => {
    const res = await app.call('GET', '/api/v1/mcp')
    expect(res.body.limits).toEqual({ max_request_body_bytes: 1024 * 1024, max_batch_items: 20, max_batch_response_bytes: 1024 * 1024 })
    const discover = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'server/discover' })
    expect(discover.body.result.limits).toEqual(res.body.limits)
  })

  it('a batch over max_batch_items is refused whole with -32600 and HTTP 400, nothing run', async () => {
    const names = Array.from({ length: 21 }, (_, i) => unique(`Oversized ${i}`))
    const res = await rpc(app, names.map((name, i) => call(i, 'leads.create', { name })), { key: owner.api_key })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ id: null, error: { code: -32600, data: { max_batch_items: 20, received: 21 } } })
    const listed = await leadNames(owner.api_key)
    expect(names.filter((n) => listed.includes(n))).toEqual([])
  })

  it('1,000 tools/list calls in 55 KB do not come back as tens of megabytes', async () => {
    const body = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })))
    const res = await fetch(`${app.url}/api/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(res.status).toBe(400)
    expect((await res.text()).length).toBeLessThan(1000)
  })

  it('past max_batch_response_bytes the remaining items are not run, and each says so', async () => {
    const single = await rpc(app, { jsonrpc: '2.0', id: 10, method: 'tools/list' })
    const pageBytes = Buffer.byteLength(JSON.stringify(single.body))
    const limit = 1024 * 1024
    // Items run while the responses so far are within the limit: the first one past it is the last to run.
    const expectedRun = Math.floor(limit / pageBytes) + 1
    expect(expectedRun).toBeLessThan(19) // otherwise this test would not reach the limit

    const name = unique('Past The Limit')
    const batch = [
      ...Array.from({ length: expectedRun }, (_, i) => ({ jsonrpc: '2.0', id: 10 + i, method: 'tools/list' })),
      call('write', 'leads.create', { name }),
      { jsonrpc: '2.0', id: 'last', method: 'ping' },
    ]
    const res = await fetch(`${app.url}/api/v1/mcp`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.api_key}` }, body: JSON.stringify(batch),
    })
    const text = await res.text()
    const body = JSON.parse(text)
    expect(res.status).toBe(200)
    expect(body.map((r: any) => r.id)).toEqual(batch.map((b) => b.id))
    expect(body.slice(0, expectedRun).every((r: any) => r.result?.tools?.length === 50)).toBe(true)
    for (const r of body.slice(expectedRun)) {
      expect(r.error).toMatchObject({ code: -32010, data: { not_run: true, max_batch_response_bytes: limit } })
      expect(r.error.message).toMatch(/again in a new request/)
    }
    expect(Buffer.byteLength(text)).toBeLessThan(limit + 2 * pageBytes)
    expect(await leadNames(owner.api_key)).not.toContain(name)
  })
})

describe('protocol versions', () => {
  const SPOKEN = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']

  it('an unsupported MCP-Protocol-Version header gets 400 with a JSON-RPC error; a supported or absent one is served', async () => {
    for (const version of ['2099-01-01', '1999-01-01', 'not-a-version']) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'mcp-protocol-version': version } })
      expect(res.status, version).toBe(400)
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { error: 'validation_error', supported_versions: SPOKEN } } })
    }
    for (const version of SPOKEN) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'mcp-protocol-version': version } })
      expect(res.status, version).toBe(200)
    }
    expect((await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(200)
  })

  it('the unsupported header is refused before anything runs, and on the SSE endpoints too', async () => {
    const name = unique('Wrong Version')
    const res = await rpc(app, call(1, 'leads.create', { name }), { key: owner.api_key, headers: { 'mcp-protocol-version': '2099-01-01' } })
    expect(res.status).toBe(400)
    expect(await leadNames(owner.api_key)).not.toContain(name)
    const open = await fetch(`${app.url}/api/v1/mcp/sse`, { headers: { authorization: `Bearer ${owner.api_key}`, 'mcp-protocol-version': '2099-01-01' } })
    expect(open.status).toBe(400)
    const stream = await openStream(app, owner.api_key)
    try {
      const post = await fetch(`${app.url}${stream.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.api_key}`, 'mcp-protocol-version': '2099-01-01' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
      expect(post.status).toBe(400)
    } finally {
      stream.close()
    }
  })

  it('initialize answers an unsupported version with the latest one; initialize, server/discover and GET /mcp agree', async () => {
    const init = (protocolVersion?: string) => rpc(app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
    expect((await init('2099-01-01')).body.result.protocolVersion).toBe('2025-11-25')
    for (const version of SPOKEN) expect((await init(version)).body.result.protocolVersion).toBe(version)
    expect((await init(undefined)).body.result.protocolVersion).toBe('2024-11-05')

    const discover = (await rpc(app, { jsonrpc: '2.0', id: 1, method: 'server/discover' })).body.result
    const info = (await app.call('GET', '/api/v1/mcp')).body.server
    for (const reported of [discover, info]) {
      expect(reported).toMatchObject({ protocolVersion: '2024-11-05', latestProtocolVersion: '2025-11-25', supportedVersions: SPOKEN })
    }
  })
})

describe('GET /api/v1/mcp describes the catalogue filters', () => {
  it('names each filter\'s query parameter and header, and the valid toolsets', async () => {
    const res = await app.call('GET', '/api/v1/mcp')
    const { filters, tools } = res.body
    expect(filters.toolsets).toMatchObject({ query: 'toolsets', header: 'Mcp-Toolsets' })
    expect(filters.read_only).toMatchObject({ query: 'read_only', header: 'Mcp-Read-Only', values: ['true'] })
    expect(filters.tool_names).toMatchObject({ query: 'tool_names', header: 'Mcp-Tool-Names', values: ['underscore'] })
    // Every toolset a tool belongs to is listed once, with how many tools it holds; besides them
    // core, drawn from several toolsets, with its tools named.
    const counts = new Map<string, number>()
    for (const t of tools) counts.set(t._meta.toolset, (counts.get(t._meta.toolset) ?? 0) + 1)
    const [core, ...domains] = filters.toolsets.values
    expect(domains.map((t: any) => t.name).sort()).toEqual([...counts.keys()].sort())
    for (const t of domains) expect(t.tool_count, t.name).toBe(counts.get(t.name))
    expect(core).toMatchObject({ name: 'core', tool_count: core.tools.length })
    const coreListing = (await app.call('GET', `/api/v1/mcp?${filters.toolsets.query}=core`)).body
    expect(coreListing.tools.map((t: any) => t.name)).toEqual(core.tools)
    expect(new Set(coreListing.tools.map((t: any) => t._meta.toolset)).size).toBeGreaterThan(3)
  })

  it('each described filter works as described, by query parameter and by header', async () => {
    const { filters } = (await app.call('GET', '/api/v1/mcp')).body
    const leads = filters.toolsets.values.find((t: any) => t.name === 'leads')
    const quotes = filters.toolsets.values.find((t: any) => t.name === 'quotes')
    const byQuery = (await app.call('GET', `/api/v1/mcp?${filters.toolsets.query}=leads,quotes`)).body
    const byHeader = (await app.call('GET', '/api/v1/mcp', { headers: { [filters.toolsets.header]: 'leads,quotes' } })).body
    for (const body of [byQuery, byHeader]) {
      expect(body.tool_count).toBe(leads.tool_count + quotes.tool_count)
      expect(new Set(body.tools.map((t: any) => t._meta.toolset))).toEqual(new Set(['leads', 'quotes']))
    }
    const readOnly = (await app.call('GET', `/api/v1/mcp?${filters.read_only.query}=true`)).body
    expect(readOnly.tool_count).toBeGreaterThan(0)
    expect(readOnly.tools.every((t: any) => t.annotations.readOnlyHint === true)).toBe(true)
    const underscore = (await app.call('GET', '/api/v1/mcp', { headers: { [filters.tool_names.header]: 'underscore' } })).body
    expect(underscore.tools.every((t: any) => !t.name.includes('.'))).toBe(true)
  })
})
