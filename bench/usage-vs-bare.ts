// GET /api/v1/usage with a valid key (auth, rate limit, quota count, tenant-scoped reads, logging)
// against a bare Koa route returning the same bytes from memory, on the same machine.
// Run: npm run bench:usage   (env: BENCH_SECONDS, BENCH_CONNECTIONS)
import Koa from 'koa'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { autocannon, reportResult, startBenchService } from './harness.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)

const service = await startBenchService('Bench Electrical')
const usageUrl = `${service.base}/api/v1/usage`
const auth = { authorization: `Bearer ${service.key}` }
const bytes = Buffer.from(await (await fetch(usageUrl, { headers: auth })).arrayBuffer())

const bare = new Koa()
bare.use((ctx) => {
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = bytes
})
const bareServer: Server = await new Promise((resolve) => {
  const s = bare.listen(0, '127.0.0.1', () => resolve(s))
})
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/v1/usage`

await autocannon(bareUrl, { connections, seconds: 2 })
await autocannon(usageUrl, { connections, seconds: 2, headers: auth })
const bareResult = await autocannon(bareUrl, { connections, seconds })
const usageResult = await autocannon(usageUrl, { connections, seconds, headers: auth })

const [counter] = await service.owner`select count from usage_counters where company_id = ${service.companyId} and metric = 'api_calls'`
const ratio = Math.round((usageResult.requestsPerSecond / bareResult.requestsPerSecond) * 1000) / 1000
reportResult('usage-vs-bare', {
  headline: {
    ratio_of: 'GET /api/v1/usage ÷ bare Koa route (same bytes from memory), requests/s', ratio, better: 'higher',
    figures: { 'usage req/s': Math.round(usageResult.requestsPerSecond), 'bare req/s': Math.round(bareResult.requestsPerSecond), 'usage p99 ms': usageResult.p99, 'bare p99 ms': bareResult.p99 },
  },
  connections,
  seconds,
  response_bytes: bytes.length,
  usage_endpoint: usageResult,
  bare_koa: bareResult,
  ratio_rps_usage_over_bare: ratio,
  // autocannon reports whole milliseconds; a bare p99 under 1 ms counts as 1 ms.
  ratio_p99_usage_over_bare: Math.round((usageResult.p99 / Math.max(bareResult.p99, 1)) * 100) / 100,
  api_calls_counted: counter?.count,
})
bareServer.close()
await service.stop()
