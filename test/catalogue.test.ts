// The MCP tool catalogue is a public contract: any change to a name, description, input schema or
// annotation shows up in review as a change to test/__snapshots__/tool-catalogue.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRegistry } from '../src/domains/index.js'
import { describeTool } from '../src/transports/mcp/catalogue.js'
import { startTestApp, type TestApp } from './helpers/app.js'
import { SPEC_TOOL_NAMES } from './helpers/spec-data.js'

const registry = createRegistry()

describe('tool catalogue', () => {
  it('matches the reviewed snapshot', async () => {
    const catalogue = registry.mcpTools().map((op) => {
      const { name, description, inputSchema, outputSchema, annotations } = describeTool(op, { underscoreNames: false })
      return { name, description, inputSchema, outputSchema, annotations, cost: op.cost, access: op.access, available: !op.planned }
    })
    await expect(JSON.stringify(catalogue, null, 2) + '\n').toMatchFileSnapshot('./__snapshots__/tool-catalogue.json')
  })

  it('is exactly the spec\'s tools, each with a description and an object input schema', () => {
    const tools = registry.mcpTools()
    expect(tools.map((t) => t.name).sort()).toEqual([...SPEC_TOOL_NAMES].sort())
    for (const t of tools) {
      expect(t.description.length, t.name).toBeGreaterThan(20)
      expect((t.input as { type?: string }).type, t.name).toBe('object')
      expect(t.name).toMatch(/^[a-z]+\.[a-z_]+$/)
      if (t.annotations.readOnlyHint) expect(t.annotations.idempotentHint, `${t.name} is read-only so idempotent`).toBe(true)
    }
  })

  it('keeps underscore names unique and reversible', () => {
    const names = registry.mcpTools().map((t) => t.name.replace('.', '_'))
    expect(new Set(names).size).toBe(SPEC_TOOL_NAMES.length)
  })
})

describe('GET /api/v1/mcp and the documents', () => {
  let app: TestApp
  beforeAll(async () => {
    app = await startTestApp()
  })
  afterAll(() => app?.stop())

  it('GET /mcp lists every tool and resource without a key', async () => {
    const res = await app.call('GET', '/api/v1/mcp')
    expect(res.status).toBe(200)
    expect(res.body.server).toMatchObject({ name: 'tradie-ops', version: '2.3.0', protocolVersion: '2024-11-05' })
    expect(res.body.tools).toHaveLength(SPEC_TOOL_NAMES.length)
    expect(res.body.tool_count).toBe(SPEC_TOOL_NAMES.length)
    expect(res.body.resources).toHaveLength(registry.resources.length)
  })

  it('/openapi.json and /docs include the leads endpoints', async () => {
    const doc = (await app.call('GET', '/api/v1/openapi.json')).body
    expect(doc.paths['/leads'].get.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['status', 'priority', 'limit', 'offset']))
    const limit = doc.paths['/leads'].get.parameters.find((p: any) => p.name === 'limit')
    expect(limit.schema).toMatchObject({ default: 50, maximum: 100 })
    expect(doc.paths['/leads'].post.responses['201'].content['application/json'].schema.properties.lead).toBeDefined()
    expect(doc.paths['/leads'].post['x-required-feature']).toBe('restWrite')
    const docs = (await app.call('GET', '/api/v1/docs')).body
    const paths = docs.endpoints.map((e: any) => `${e.method} ${e.path}`)
    expect(paths).toEqual(expect.arrayContaining(['GET /api/v1/leads', 'POST /api/v1/leads']))
    const mcpCard = (await app.call('GET', '/.well-known/mcp-server.json')).body
    expect(mcpCard._meta['io.modelcontextprotocol.registry/publisher-provided'].catalogue).toBe(`${app.runtime.deps.urls.apiBase}/mcp`) // the tool listing above
  })
})
