// The MCP tool catalogue is a public contract: any change to a name, description, input schema or
// annotation shows up in review as a change to its domain's snapshot, tools.snapshot.json in the
// domain's own folder (so a new domain brings its snapshot with it).
import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { composition, createRegistry } from '../src/domains/index.js'
import type { DomainDefinition } from '../src/core/domain.js'
import { reviewedTool } from '../src/transports/mcp/catalogue.js'
import { startTestApp, type TestApp } from './helpers/app.js'
import { SPEC_TOOL_NAMES } from './helpers/spec-data.js'

const registry = createRegistry()

describe('tool catalogue', () => {
  it('matches each domain\'s reviewed snapshot', async () => {
    // Each domain's folder is the one whose index.ts exports it.
    const folders = new Map<DomainDefinition, string>()
    const root = new URL('../src/domains/', import.meta.url)
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue
      const module = await import(new URL(`${entry.name}/index.ts`, root).href).catch(() => ({}))
      for (const value of Object.values(module)) if (composition.domains.includes(value as never)) folders.set(value as DomainDefinition, entry.name)
    }
    for (const domain of composition.domains) {
      const tools = domain.operations.filter((op) => op.mcp !== false)
      if (!tools.length) continue
      expect(folders.get(domain), `the folder of domain ${domain.name}`).toBeDefined()
      const catalogue = tools.map((op) => {
        const { name, description, inputSchema, outputSchema, annotations } = reviewedTool(op)
        return { name, description, inputSchema, outputSchema, annotations, cost: op.cost, access: op.access, available: !op.planned }
      })
      await expect(JSON.stringify(catalogue, null, 2) + '\n').toMatchFileSnapshot(`../src/domains/${folders.get(domain)}/tools.snapshot.json`)
    }
  })

  it('is exactly the spec\'s tools (and tools that say why they go beyond it), each with a description and an object input schema', () => {
    const tools = registry.mcpTools()
    expect(tools.filter((t) => !t.beyondSpec).map((t) => t.name).sort()).toEqual([...SPEC_TOOL_NAMES].sort())
    for (const t of tools.filter((t) => t.beyondSpec)) {
      expect(SPEC_TOOL_NAMES, `${t.name} is a spec tool: drop beyondSpec`).not.toContain(t.name)
      expect(t.beyondSpec!.length, `${t.name}: why it goes beyond the spec`).toBeGreaterThan(20)
    }
    for (const t of tools) {
      expect(t.description.length, t.name).toBeGreaterThan(20)
      expect((t.input as { type?: string }).type, t.name).toBe('object')
      expect(t.name).toMatch(/^[a-z]+\.[a-z_]+$/)
      if (t.annotations.readOnlyHint) expect(t.annotations.idempotentHint, `${t.name} is read-only so idempotent`).toBe(true)
    }
  })

  it('keeps underscore names unique and reversible', () => {
    const names = registry.mcpTools().map((t) => t.name.replace('.', '_'))
    expect(new Set(names).size).toBe(names.length)
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
    expect(res.body.tools.map((t: { name: string }) => t.name).sort()).toEqual(registry.mcpTools().map((t) => t.name).sort())
    expect(res.body.tool_count).toBe(registry.mcpTools().length)
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
