// The discovery documents against the formats generic clients read (the MCP registry's server.json
// schema, the A2A v1.0 Agent Card; see test/fixtures/schemas/README.md), and what they claim
// against what the service really answers. GET /api/v1/docs must describe the same tool filters
// GET /api/v1/mcp publishes, and those filters must do what it says.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Ajv, type ErrorObject } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import formats from 'ajv-formats'
import { startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { createRegistry } from '../src/domains/index.js'
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '../src/transports/mcp/protocol.js'
import { LEGACY_SSE_REVISION, registryNamespace } from '../src/transports/wellknown.js'

const schema = (file: string) => JSON.parse(readFileSync(new URL(`./fixtures/schemas/${file}`, import.meta.url), 'utf8'))
const serverJsonSchema = schema('mcp-server-json-2025-12-11.schema.json')
const agentCardSchema = schema('a2a-v1.0.1-agent-card.schema.json')
// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = ((formats as unknown as { default?: typeof formats }).default ?? formats) as unknown as (ajv: Ajv | Ajv2020) => void

// The vendored schemas carry OpenAPI's "example" keyword, which strict mode would refuse.
const draft07 = new Ajv({ strict: false, allErrors: true })
addFormats(draft07)
const validateServerJson = draft07.compile(serverJsonSchema)
const draft2020 = new Ajv2020({ strict: false, allErrors: true })
addFormats(draft2020)
const validateAgentCard = draft2020.compile(agentCardSchema)

const problems = (errors: ErrorObject[] | null | undefined) => (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`)

const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided'
const A2A_CORE_BINDINGS = ['JSONRPC', 'GRPC', 'HTTP+JSON']

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.stop())
const registry = createRegistry()

async function getJson(url: string) {
  const res = await fetch(url)
  return { status: res.status, body: (await res.json()) as any }
}

describe('GET /.well-known/mcp-server.json', () => {
  it('is a valid server.json (schema 2025-12-11) naming itself namespace/name', async () => {
    const { status, body } = await getJson(`${app.url}/.well-known/mcp-server.json`)
    expect(status).toBe(200)
    expect(problems(validateServerJson(body) ? [] : validateServerJson.errors)).toEqual([])
    expect(body.$schema).toBe(serverJsonSchema.$id)
    // The test app's site root is http://localhost:<port>, a one-label name.
    expect(new URL(app.runtime.deps.urls.siteRoot).hostname).toBe('localhost')
    expect(body.name).toBe('localhost/tradie-ops')
    // The validator is live: the name this document had before (no namespace) is refused.
    expect(validateServerJson({ ...body, name: 'tradie-ops' })).toBe(false)
  })

  it('names a domain in reverse-DNS form', () => {
    expect(registryNamespace('https://app.tradie.example.com.au')).toBe('au.com.example.tradie.app')
    expect(registryNamespace('http://127.0.0.1:3000')).toBe('127.0.0.1') // an IP address has no reverse-DNS form
    expect(registryNamespace('http://[::1]:3000')).toBe('localhost')
  })

  it('lists remotes that answer, and the protocol revisions initialize really negotiates', async () => {
    const { body } = await getJson(`${app.url}/.well-known/mcp-server.json`)
    const apiBase = app.runtime.deps.urls.apiBase
    expect(body.remotes.map((r: any) => [r.type, r.url])).toEqual([['streamable-http', `${apiBase}/mcp`], ['sse', `${apiBase}/mcp/sse`]])
    for (const remote of body.remotes) expect(remote.headers[0]).toMatchObject({ name: 'Authorization', isRequired: true, isSecret: true })

    const ping = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'ping' }, { path: new URL(body.remotes[0].url).pathname })
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} })
    const sse = await fetch(body.remotes[1].url)
    expect(sse.status).toBe(401) // there, and asking for the key the document says it needs
    await sse.body?.cancel()

    const meta = body._meta[PUBLISHER_META]
    expect(Buffer.byteLength(JSON.stringify(meta))).toBeLessThanOrEqual(4096) // the registry's limit
    expect(meta.protocolVersions).toEqual(SUPPORTED_PROTOCOL_VERSIONS)
    expect(meta.latestProtocolVersion).toBe(LATEST_PROTOCOL_VERSION)
    expect(meta.latestProtocolVersion).toBe(SUPPORTED_PROTOCOL_VERSIONS[SUPPORTED_PROTOCOL_VERSIONS.length - 1])
    for (const version of meta.protocolVersions) {
      const init = await rpc(app, { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } } })
      expect(init.body.result.protocolVersion, version).toBe(version)
    }
  })
})

describe('GET /.well-known/agent-card.json', () => {
  it('is a valid A2A v1.0 Agent Card', async () => {
    const { status, body } = await getJson(`${app.url}/.well-known/agent-card.json`)
    expect(status).toBe(200)
    expect(problems(validateAgentCard(body) ? [] : validateAgentCard.errors)).toEqual([])
    // The validator is live: the v0.3-style top-level url this card had before is refused.
    expect(validateAgentCard({ ...body, url: app.runtime.deps.urls.apiBase })).toBe(false)
  })

  it('claims no capability the service lacks and no A2A binding it does not speak', async () => {
    const { body } = await getJson(`${app.url}/.well-known/agent-card.json`)
    expect(body.capabilities.streaming).not.toBe(true)
    expect(body.capabilities.pushNotifications).not.toBe(true)
    expect(body.capabilities.extendedAgentCard).not.toBe(true)
    for (const entry of body.supportedInterfaces) {
      expect(A2A_CORE_BINDINGS).not.toContain(entry.protocolBinding)
      expect(() => new URL(entry.protocolBinding)).not.toThrow() // custom bindings are URIs (A2A 1.0 §5.8)
    }
  })

  it('each interface URL speaks what its binding names', async () => {
    const { body } = await getJson(`${app.url}/.well-known/agent-card.json`)
    const apiBase = app.runtime.deps.urls.apiBase
    const [mcp, rest, sse] = body.supportedInterfaces
    expect(mcp).toMatchObject({ url: `${apiBase}/mcp`, protocolBinding: `https://modelcontextprotocol.io/specification/${LATEST_PROTOCOL_VERSION}/basic/transports#streamable-http` })
    const ping = await rpc(app, { jsonrpc: '2.0', id: 7, method: 'ping' }, { path: new URL(mcp.url).pathname })
    expect(ping.body.result).toEqual({})

    const openapi = await getJson(rest.protocolBinding)
    expect(openapi.body.openapi).toBe('3.1.0')
    expect(openapi.body.servers[0].url).toBe(rest.url)

    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(LEGACY_SSE_REVISION)
    expect(sse).toMatchObject({ url: `${apiBase}/mcp/sse`, protocolBinding: `https://modelcontextprotocol.io/specification/${LEGACY_SSE_REVISION}/basic/transports#http-with-sse` })
  })

  it('has one skill per domain with MCP tools, naming its tools', async () => {
    const { body } = await getJson(`${app.url}/.well-known/agent-card.json`)
    const tools = registry.mcpTools()
    const domains = [...new Set(tools.map((op) => op.domain))]
    expect(body.skills.map((s: any) => s.id)).toEqual(domains)
    for (const skill of body.skills) {
      for (const op of tools.filter((t) => t.domain === skill.id)) expect(skill.description).toContain(op.name)
    }
  })
})

describe('GET /api/v1/docs: keeping an agent context small', () => {
  it('describes the toolsets, read_only and underscore-name filters exactly as GET /api/v1/mcp does', async () => {
    const docs = (await app.call('GET', '/api/v1/docs')).body
    const server = (await app.call('GET', '/api/v1/mcp')).body
    expect(docs.mcp.filters).toEqual(server.filters)
    expect(docs.mcp.protocol_versions).toEqual(SUPPORTED_PROTOCOL_VERSIONS)
    expect(docs.mcp.latest_protocol_version).toBe(LATEST_PROTOCOL_VERSION)
    const { toolsets, read_only: readOnly, tool_names: toolNames } = docs.mcp.filters
    expect([toolsets.query, toolsets.header, readOnly.query, readOnly.header, toolNames.query, toolNames.header]).toEqual(['toolsets', 'Mcp-Toolsets', 'read_only', 'Mcp-Read-Only', 'tool_names', 'Mcp-Tool-Names'])
    const withTools = new Set(registry.mcpTools().map((op) => op.domain))
    // One toolset per domain with tools, and core, drawn from several of them.
    expect(toolsets.values.map((t: any) => t.name).sort()).toEqual([...registry.toolsets.map((t) => t.name).filter((n) => withTools.has(n)), 'core'].sort())
  })

  it('the filters it documents narrow the list as documented', async () => {
    const docs = (await app.call('GET', '/api/v1/docs')).body
    const { toolsets, read_only: readOnly, tool_names: toolNames } = docs.mcp.filters
    const query = `${toolsets.query}=leads&${readOnly.query}=${readOnly.values[0]}&${toolNames.query}=${toolNames.values[0]}`
    const narrowed = (await app.call('GET', `/api/v1/mcp?${query}`)).body
    const expected = registry.mcpTools().filter((op) => op.domain === 'leads' && op.annotations.readOnlyHint === true).map((op) => op.name.replace('.', '_'))
    expect(expected.length).toBeGreaterThan(0)
    expect(narrowed.tools.map((t: any) => t.name)).toEqual(expected)
    const byHeader = await fetch(`${app.url}/api/v1/mcp`, { headers: { [toolsets.header]: 'leads', [readOnly.header]: 'true', [toolNames.header]: 'underscore' } })
    expect(((await byHeader.json()) as any).tools.map((t: any) => t.name)).toEqual(expected)
  })
})
