// What the catalogue and tool results cost an agent's context (issue 21): the listing of every
// tool, the core toolset and a named listing, measured from the live server; schemas compacted
// without changing what they accept; tool results whose text is a summary unless the whole JSON is asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp, rpc } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { createRegistry } from '../src/domains/index.js'
import { describeTool, reviewedTool } from '../src/transports/mcp/catalogue.js'
import { collapseNullable, compactSchema, expandRefs } from '../src/transports/mcp/compact-schema.js'

const registry = createRegistry()
/** The estimate the issue budgets with: JSON characters / 4. */
const tokens = (value: unknown) => JSON.stringify(value).length / 4

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(() => app?.stop())

/** Every page of a tools/list, as the raw results. */
async function listAll(params: Record<string, unknown> = {}, path = '/api/v1/mcp') {
  const pages: any[] = []
  let cursor: string | undefined
  do {
    const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { ...params, ...(cursor ? { cursor } : {}) } }, { path })
    expect(res.body.error, JSON.stringify(res.body.error)).toBeUndefined()
    pages.push(res.body.result)
    cursor = res.body.result.nextCursor
  } while (cursor)
  return { pages, tools: pages.flatMap((p) => p.tools) }
}

describe('tools/list size', () => {
  it('lists every tool in at most 40,000 tokens, across its pages', async () => {
    const { pages, tools } = await listAll()
    expect(tools.map((t: any) => t.name).sort()).toEqual(registry.mcpTools().map((t) => t.name).sort())
    expect(pages.reduce((sum, p) => sum + tokens(p), 0)).toBeLessThanOrEqual(40_000)
    // Left out here, they would be more than the rest of the listing: asked for, they come back.
    expect(tools.some((t: any) => t.outputSchema)).toBe(false)
    const withOutputs = await listAll({ output_schemas: true })
    const planned = registry.mcpTools().filter((op) => op.planned).map((op) => op.name)
    expect(withOutputs.tools.filter((t: any) => !t.outputSchema).map((t: any) => t.name).sort()).toEqual(planned.sort())
  })

  it('the core toolset takes one job from lead to review in at most 8,000 tokens; its output schemas come when asked', async () => {
    const { pages, tools } = await listAll({ toolsets: ['core'] })
    expect(pages).toHaveLength(1)
    expect(tokens(pages[0])).toBeLessThanOrEqual(8_000)
    const names = tools.map((t: any) => t.name)
    for (const step of ['leads.create', 'quotes.create', 'quotes.send', 'jobs.complete', 'invoicing.generate', 'reviews.request']) expect(names).toContain(step)
    expect(tools.some((t: any) => t.outputSchema)).toBe(false)
    const withOutputs = await listAll({ toolsets: ['core'], output_schemas: true })
    expect(withOutputs.tools.every((t: any) => t.outputSchema)).toBe(true)
    // The same toolset by URL query, as a client configured with a URL would ask.
    const byQuery = await listAll({}, '/api/v1/mcp?toolsets=core')
    expect(byQuery.tools.map((t: any) => t.name)).toEqual(names)
  })

  it('a named listing returns exactly the tools asked, in that order, underscore names included', async () => {
    const asked = ['quotes.send', 'leads_create', 'jobs.complete']
    const { tools } = await listAll({ names: asked })
    expect(tools.map((t: any) => t.name)).toEqual(['quotes.send', 'leads.create', 'jobs.complete'])
    expect(tools.every((t: any) => t.outputSchema && t.inputSchema)).toBe(true)
    // Combined with read_only, only the read tools among them.
    const readOnly = await listAll({ names: ['leads.list', 'leads.create'], read_only: true })
    expect(readOnly.tools.map((t: any) => t.name)).toEqual(['leads.list'])
    // By URL, as GET /mcp shows it.
    const card = await app.call('GET', '/api/v1/mcp?tools=leads.list,quotes.send')
    expect(card.body.tools.map((t: any) => t.name)).toEqual(['leads.list', 'quotes.send'])
  })

  it('an unknown name is an invalid-params error that names it', async () => {
    const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { names: ['quotes.send', 'leads.destroy'] } })
    expect(res.body.error.code).toBe(-32602)
    expect(res.body.error.message).toContain('leads.destroy')
    expect(res.body.error.message).not.toContain('quotes.send')
    const notAList = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { names: [42] } })
    expect(notAList.body.error.code).toBe(-32602)
    const byUrl = await app.call('GET', '/api/v1/mcp?tools=nope.tool')
    expect(byUrl.status).toBe(400)
    expect(byUrl.body).toMatchObject({ error: 'validation_error', message: expect.stringContaining('nope.tool') })
  })

  it('pages a narrowed listing with its cursor, and refuses that cursor for another listing', async () => {
    const readTools = registry.mcpTools().filter((op) => op.annotations.readOnlyHint).map((op) => op.name)
    const { tools } = await listAll({ names: readTools.slice(0, 60) })
    expect(tools.map((t: any) => t.name)).toEqual(readTools.slice(0, 60))
    const first = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { names: readTools.slice(0, 60) } })
    const other = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: first.body.result.nextCursor } })
    expect(other.body.error.code).toBe(-32602)
  })

  it('the filters are advertised in initialize, server/discover and /docs', async () => {
    const init = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
    for (const phrase of ['"toolsets": ["core"]', '"names"', 'full_text']) expect(init.body.result.instructions).toContain(phrase)
    const discover = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'server/discover' })
    expect(discover.body.result.filters).toMatchObject({ tools: { params: 'names' }, toolsets: { values: expect.arrayContaining([expect.objectContaining({ name: 'core' })]) } })
    const docs = (await app.call('GET', '/api/v1/docs')).body
    expect(docs.mcp.filters.tools).toMatchObject({ query: 'tools', header: 'Mcp-Tools' })
    expect(docs.mcp.tool_results).toContain('full_text')
  })
})

describe('compacted schemas', () => {
  it('only nullable unions and repeats change: expanding the $refs gives back the plain schema with nullable types', () => {
    for (const op of registry.mcpTools()) {
      const listed = describeTool(op, { underscoreNames: false, outputSchemas: true })
      const plain = reviewedTool(op)
      expect(expandRefs(listed.inputSchema), op.name).toEqual(collapseNullable(plain.inputSchema))
      if (plain.outputSchema) expect(expandRefs(listed.outputSchema!), op.name).toEqual(collapseNullable(plain.outputSchema))
    }
  })

  it('a nullable union accepts null and its type only, as before', () => {
    const schema = { type: 'object', properties: { x: { anyOf: [{ type: 'string', enum: ['a'], description: 'd' }, { type: 'null' }], description: 'd' } } }
    expect(compactSchema(schema)).toEqual({ type: 'object', properties: { x: { type: ['string', 'null'], enum: ['a', null], description: 'd' } } })
    // Different outer and inner keywords are not merged.
    const kept = { anyOf: [{ type: 'string', description: 'inner' }, { type: 'null' }], description: 'outer' }
    expect(collapseNullable(kept)).toEqual(kept)
  })
})

describe('tool result text', () => {
  let client: Client
  beforeAll(async () => {
    client = await connectHttp(app, company.api_key)
  })
  afterAll(() => client?.close())

  it('is a short summary with the ids for a large result, and the whole JSON when asked', async () => {
    const lead = (await tool(client, 'leads.create', { name: 'Summary Client', email: 'summary@example.com.au' })).lead
    const quote = (await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Hot water unit', quantity: 1, unitPrice: 1800 }] })).quote
    const sent = await client.callTool({ name: 'quotes.send', arguments: { quote_id: quote.id, send_email: true } })
    const text = (sent.content as any)[0].text as string
    expect(text.length).toBeLessThan(JSON.stringify(sent.structuredContent).length / 2)
    expect(text).toContain(quote.id)
    expect(text).toContain('status=Sent')
    expect(text).toContain('structuredContent')

    const full = await client.callTool({ name: 'quotes.send', arguments: { quote_id: quote.id }, _meta: { full_text: true } })
    expect(JSON.parse((full.content as any)[0].text)).toEqual(full.structuredContent)

    const fullByUrl = await connectHttp(app, company.api_key, '?full_text=true')
    const listed = await fullByUrl.callTool({ name: 'leads.list', arguments: { limit: 5 } })
    expect(JSON.parse((listed.content as any)[0].text)).toEqual(listed.structuredContent)
    await fullByUrl.close()
  })

  it('is the whole JSON for a client older than structuredContent (no MCP-Protocol-Version, or before 2025-06-18)', async () => {
    for (const headers of [{}, { 'mcp-protocol-version': '2025-03-26' }] as Record<string, string>[]) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: { limit: 2 } } }, { key: company.api_key, headers })
      expect(JSON.parse(res.body.result.content[0].text)).toEqual(res.body.result.structuredContent)
    }
    const summary = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: { limit: 2 } } }, { key: company.api_key, headers: { 'mcp-protocol-version': '2025-06-18' } })
    expect(summary.body.result.content[0].text).toMatch(/^List leads: done\. leads: \d+ items?/)
  })

  it('errors keep the {error, message} body as text', async () => {
    const res = await client.callTool({ name: 'leads.update', arguments: { lead_id: '00000000-0000-4000-8000-000000000000', name: 'x' } })
    expect(res.isError).toBe(true)
    expect(JSON.parse((res.content as any)[0].text)).toEqual(res.structuredContent)
  })
})
