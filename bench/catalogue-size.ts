// What the MCP catalogue and common tool results cost an agent's context: bytes and tokens
// (JSON characters / 4) of tools/list (all pages; the core toolset; one toolset; a named listing)
// and of five common tool results, text part and structuredContent separately. Not a load test.
// Run: npx tsx bench/catalogue-size.ts
import { reportResult, startBenchService } from './harness.js'

const service = await startBenchService('Bench Catalogue Plumbing')
// As a current client sends it after initialize (older revisions have no structuredContent).
const auth = { authorization: `Bearer ${service.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' }
let id = 0

async function rpc(method: string, params: Record<string, unknown>, query = ''): Promise<{ raw: string; body: any }> {
  const res = await fetch(`${service.base}/api/v1/mcp${query}`, { method: 'POST', headers: auth, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
  const raw = await res.text()
  const body = JSON.parse(raw)
  if (body.error) throw new Error(`${method} failed: ${raw}`)
  return { raw, body }
}

const size = (bytes: number) => ({ bytes, tokens: Math.round(bytes / 4) })

/** Every page of a listing; the size is the sum of the JSON-RPC result objects. */
async function listing(params: Record<string, unknown> = {}, query = '') {
  let bytes = 0
  let tools = 0
  let pages = 0
  let cursor: string | undefined
  do {
    const { body } = await rpc('tools/list', { ...params, ...(cursor ? { cursor } : {}) }, query)
    bytes += Buffer.byteLength(JSON.stringify(body.result))
    tools += body.result.tools.length
    pages++
    cursor = body.result.nextCursor
  } while (cursor)
  return { tools, pages, ...size(bytes) }
}

async function call(name: string, args: Record<string, unknown>) {
  const { body } = await rpc('tools/call', { name, arguments: args })
  if (body.result.isError) throw new Error(`${name} failed: ${JSON.stringify(body.result.structuredContent)}`)
  const text = body.result.content.map((c: { text: string }) => c.text).join('')
  return {
    output: body.result.structuredContent,
    sizes: { result: size(Buffer.byteLength(JSON.stringify(body.result))), text: size(Buffer.byteLength(text)), structuredContent: size(Buffer.byteLength(JSON.stringify(body.result.structuredContent))) },
  }
}

const NAMED = ['leads.create', 'quotes.create', 'quotes.send', 'jobs.complete', 'invoicing.generate']
const tryListing = async (params: Record<string, unknown>, query = '') => listing(params, query).catch((e: Error) => ({ unsupported: e.message.slice(0, 200) }))
const lists = {
  full: await listing(),
  full_with_output_schemas: await listing({ output_schemas: true }),
  core_toolset: await tryListing({}, '?toolsets=core'),
  leads_toolset: await listing({}, '?toolsets=leads'),
  named_tools: { names: NAMED, ...(await tryListing({ names: NAMED })) },
}

const service_ = await call('services.create', { name: 'Hot water system install', price: 1800, unit: 'fixed' }).catch(() => null)
const lead = await call('leads.create', { name: 'Jordan Bench', phone: '0412 345 678', email: 'jordan@example.com.au', suburb: 'Parramatta', serviceType: 'plumbing', message: 'Hot water system leaking' })
const leadId = lead.output.lead.id
const lineItems = service_ ? [{ service_id: service_.output.service.id, quantity: 1 }] : [{ description: 'Hot water system install', quantity: 1, unitPrice: 1800 }]
const quote = await call('quotes.create', { lead_id: leadId, line_items: lineItems, notes: 'Includes removal of the old unit' })
const sent = await call('quotes.send', { quote_id: quote.output.quote.id, send_sms: true, send_email: true })
const job = await call('jobs.create', { lead_id: leadId, quote_id: quote.output.quote.id, title: 'Hot water system install', technician: 'Sam' })
const completed = await call('jobs.complete', { job_id: job.output.job.id, satisfaction_rating: 5, completion_notes: 'Installed and tested' })
const dashboard = await call('analytics.dashboard', {})

reportResult('catalogue-size', {
  headline: {
    ratio_of: 'no baseline: MCP tools/list of every tool, tokens (JSON characters / 4)', ratio: null, better: 'lower',
    goal: 'at most 40,000 tokens', met: lists.full.tokens <= 40_000,
    figures: { 'tools': lists.full.tools, 'full listing tokens': lists.full.tokens, 'core toolset tokens': 'tokens' in lists.core_toolset ? lists.core_toolset.tokens : null },
  },
  token_estimate: 'JSON characters / 4',
  tools_list: lists,
  tool_results: {
    'leads.create': lead.sizes,
    'quotes.create': quote.sizes,
    'quotes.send': sent.sizes,
    'jobs.complete': completed.sizes,
    'analytics.dashboard': dashboard.sizes,
  },
})
await service.stop()
