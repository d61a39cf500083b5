// What charging every MCP tool call to the wallet costs: MCP tools/call leads.list (50 of 200 leads)
// with the credit meter on against the same service with it off, in the same run, rounds
// interleaved (off, on, off, on) so drift on a shared machine falls on both. Goal (issue 22): the
// ratio of requests per second, on over off, at least 0.9. Run: npx tsx bench/wallet-charging.ts
import { autocannon, reportResult, startBenchService } from './harness.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
// Enough credit that no call is refused: every call of the run is charged a cent.
const service = await startBenchService('Bench Wallet Plumbing', { WALLET_STARTING_CREDIT_CENTS: 1_000_000_000 })
const base = service.base
const auth = { authorization: `Bearer ${service.key}` }
for (let i = 0; i < 200; i++) {
  await fetch(`${base}/api/v1/leads`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Lead ${i}`, suburb: 'Parramatta' }) })
}
const mcpOptions = {
  method: 'POST',
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: { limit: 50 } } }),
  headers: { ...auth, 'content-type': 'application/json' },
}
const meter = service.runtime.deps.credits!
const balance = async () => Number((await service.owner`select balance_cents from wallet_balances where company_id = ${service.companyId}`)[0]!.balance_cents)

await autocannon(`${base}/api/v1/mcp`, { connections, seconds: 2, ...mcpOptions }) // warm-up
const off: number[] = []
const on: number[] = []
let charged = 0
for (let round = 0; round < rounds; round++) {
  service.runtime.deps.credits = undefined
  off.push((await autocannon(`${base}/api/v1/mcp`, { connections, seconds, ...mcpOptions })).requestsPerSecond)
  service.runtime.deps.credits = meter
  const before = await balance()
  const run = await autocannon(`${base}/api/v1/mcp`, { connections, seconds, ...mcpOptions })
  charged += before - (await balance())
  on.push(run.requestsPerSecond)
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
const ratio = Math.round((mean(on) / mean(off)) * 1000) / 1000
reportResult('wallet-charging', {
  headline: {
    ratio_of: `MCP leads.list with every call charged ÷ with the meter off, requests/s, ${rounds} interleaved rounds`,
    ratio, better: 'higher', goal: '>= 0.9', met: ratio >= 0.9,
    figures: { 'charged req/s': Math.round(mean(on)), 'uncharged req/s': Math.round(mean(off)), 'cents charged': charged },
  },
  connections, seconds, rounds, leads: 200, page_size: 50,
  rps_charging_off: off.map(Math.round),
  rps_charging_on: on.map(Math.round),
  cents_charged_while_on: charged,
  ratio_rps_on_over_off: ratio,
  goal: 'at least 0.9',
})
await service.stop()
