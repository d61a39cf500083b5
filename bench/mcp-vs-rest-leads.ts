// The same read two ways on the same data: MCP tools/call leads.list vs REST GET /leads (50 leads
// per page out of 200). Run: npx tsx bench/mcp-vs-rest-leads.ts
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect } from '../src/db/sql.js'
import { autocannon, startBenchService } from './harness.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const database = `tradie_bench_${Date.now()}`
const service = await startBenchService(database)
const base = service.runtime.url!
const onboard = await fetch(`${base}/api/v1/onboard`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ business_name: 'Bench Plumbing', email: `bench+${Date.now()}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
})
const { api_key: key, company_id: companyId } = (await onboard.json()) as { api_key: string; company_id: string }
const owner = connect(service.runtime.deps.config.DATABASE_URL, { max: 1 })
await owner`update companies set api_call_limit_override = 2000000000 where id = ${companyId}`
const auth = { authorization: `Bearer ${key}` }
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

const report = {
  date: new Date().toISOString(),
  machine: `${process.platform} ${process.arch}, node ${process.version}`,
  connections, seconds, leads: 200, page_size: 50,
  rest_get_leads: rest,
  mcp_tools_call_leads_list: mcp,
  ratio_rps_mcp_over_rest: Math.round((mcp.requestsPerSecond / rest.requestsPerSecond) * 1000) / 1000,
  ratio_p99_mcp_over_rest: Math.round((mcp.p99 / Math.max(rest.p99, 0.001)) * 100) / 100,
}
console.log(JSON.stringify(report, null, 2))
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/mcp-vs-rest-leads.json', JSON.stringify(report, null, 2) + '\n')
await owner.end()
await service.stop()
const admin = connect(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', { max: 1 })
await admin.unsafe(`drop database if exists "${database}" with (force)`)
await admin.end()
