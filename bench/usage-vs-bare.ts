// GET /api/v1/usage with a valid key (auth, rate limit, quota count, tenant-scoped reads, logging)
// against a bare Koa route returning the same bytes from memory, on the same machine.
// Run: npm run bench   (env: BENCH_SECONDS, BENCH_CONNECTIONS)
import Koa from 'koa'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
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
  body: JSON.stringify({ business_name: 'Bench Electrical', email: `bench+${Date.now()}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
})
const { api_key: key, company_id: companyId } = (await onboard.json()) as { api_key: string; company_id: string }
// The benchmark makes far more calls than a month's quota; an operator override keeps every call
// counted (the same atomic increment) without refusing them.
const owner = connect(service.runtime.deps.config.DATABASE_URL, { max: 1 })
await owner`update companies set api_call_limit_override = 2000000000 where id = ${companyId}`

const sample = await fetch(`${base}/api/v1/usage`, { headers: { authorization: `Bearer ${key}` } })
const bytes = Buffer.from(await sample.arrayBuffer())

const bare = new Koa()
bare.use((ctx) => {
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = bytes
})
const bareServer: Server = await new Promise((resolve) => {
  const s = bare.listen(0, '127.0.0.1', () => resolve(s))
})
const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/api/v1/usage`

const warm = { connections, seconds: 2 }
await autocannon(bareUrl, warm)
await autocannon(`${base}/api/v1/usage`, { ...warm, headers: { authorization: `Bearer ${key}` } })
const bareResult = await autocannon(bareUrl, { connections, seconds })
const usageResult = await autocannon(`${base}/api/v1/usage`, { connections, seconds, headers: { authorization: `Bearer ${key}` } })

const [counter] = await owner`select count from usage_counters where company_id = ${companyId} and metric = 'api_calls'`
const report = {
  date: new Date().toISOString(),
  machine: `${process.platform} ${process.arch}, node ${process.version}`,
  connections,
  seconds,
  response_bytes: bytes.length,
  usage_endpoint: usageResult,
  bare_koa: bareResult,
  ratio_rps_usage_over_bare: Math.round((usageResult.requestsPerSecond / bareResult.requestsPerSecond) * 1000) / 1000,
  ratio_p99_usage_over_bare: Math.round((usageResult.p99 / Math.max(bareResult.p99, 0.001)) * 100) / 100,
  api_calls_counted: counter?.count,
}
console.log(JSON.stringify(report, null, 2))
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/usage-vs-bare.json', JSON.stringify(report, null, 2) + '\n')

bareServer.close()
await owner.unsafe(`select 1`)
await owner.end()
await service.stop()
const admin = connect(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', { max: 1 })
await admin.unsafe(`drop database if exists "${database}" with (force)`)
await admin.end()
