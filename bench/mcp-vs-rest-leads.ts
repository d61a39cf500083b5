// The same read two ways on the same data: MCP tools/call leads.list vs REST GET /leads (50 leads
// per page out of 200). Run: npx tsx bench/mcp-vs-rest-leads.ts
import { autocannon, reportResult, startBenchService } from './harness.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const service = await startBenchService('Bench Plumbing')
const base = service.base
const auth = { authorization: `Bearer ${service.key}` }
for (let i = 0; i < 200; i++) {
  // No phone or email: this benchmark is about reads, not the instant-response automation.
  await fetch(`${base}/api/v1/leads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Lead ${i}`, suburb: 'Parramatta', priority: i % 4 ? 'Normal' : 'Urgent' }) })
}

const restUrl = `${base}/api/v1/leads?limit=50`
const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: { limit: 50 } } })
const mcpOptions = { method: 'POST', body: mcpBody, headers: { ...auth, 'content-type': 'application/json' } }
// Same data either way: check before measuring.
const restIds = ((await (await fetch(restUrl, { headers: auth })).json()) as { leads: { id: string }[] }).leads.map((l) => l.id)
const mcpIds = ((await (await fetch(`${base}/api/v1/mcp`, mcpOptions)).json()) as any).result.structuredContent.leads.map((l: { id: string }) => l.id)
if (JSON.stringify(restIds) !== JSON.stringify(mcpIds)) throw new Error('REST and MCP returned different pages')

await autocannon(restUrl, { connections, seconds: 2, headers: auth })
await autocannon(`${base}/api/v1/mcp`, { connections, seconds: 2, ...mcpOptions })
const rest = await autocannon(restUrl, { connections, seconds, headers: auth })
const mcp = await autocannon(`${base}/api/v1/mcp`, { connections, seconds, ...mcpOptions })

const ratio = Math.round((mcp.requestsPerSecond / rest.requestsPerSecond) * 1000) / 1000
reportResult('mcp-vs-rest-leads', {
  headline: {
    ratio_of: 'MCP tools/call leads.list ÷ REST GET /leads (50 of 200), requests/s', ratio, better: 'higher',
    figures: { 'MCP req/s': Math.round(mcp.requestsPerSecond), 'REST req/s': Math.round(rest.requestsPerSecond), 'MCP p99 ms': mcp.p99, 'REST p99 ms': rest.p99 },
  },
  connections, seconds, leads: 200, page_size: 50,
  rest_get_leads: rest,
  mcp_tools_call_leads_list: mcp,
  ratio_rps_mcp_over_rest: ratio,
  ratio_p99_mcp_over_rest: Math.round((mcp.p99 / Math.max(rest.p99, 1)) * 100) / 100,
})
await service.stop()
