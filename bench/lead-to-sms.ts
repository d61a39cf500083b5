// Creates 200 leads with mobile numbers at a steady rate through REST and measures, per lead, the
// time from the lead's commit (created_at) to its SMS being handed to the SMS provider
// (handed_to_provider_at): outbox, workflow start, Temporal scheduling, activities.
// Run: npx tsx bench/lead-to-sms.ts   (env: LEADS=200, RATE_PER_SECOND=10)
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect } from '../src/db/sql.js'
import { startBenchService } from './harness.js'

const total = Number(process.env.LEADS ?? 200)
const rate = Number(process.env.RATE_PER_SECOND ?? 10)
const database = `tradie_bench_${Date.now()}`
const service = await startBenchService(database)
const base = service.runtime.url!
const onboard = await fetch(`${base}/api/v1/onboard`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ business_name: 'Bench Electrical', email: `bench+${Date.now()}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
})
const { api_key: key, company_id: companyId } = (await onboard.json()) as { api_key: string; company_id: string }
const owner = connect(service.runtime.deps.config.DATABASE_URL, { max: 2 })
await owner`update companies set api_call_limit_override = 2000000000 where id = ${companyId}`

const started = Date.now()
const creations: Promise<Response>[] = []
for (let i = 0; i < total; i++) {
  const due = started + (i * 1000) / rate
  const wait = due - Date.now()
  if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  creations.push(fetch(`${base}/api/v1/leads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Customer ${i}`, phone: `04${String(10_000_000 + i).padStart(8, '0')}`, serviceType: 'Blocked drain' }),
  }))
}
const statuses = (await Promise.all(creations)).map((r) => r.status)
if (statuses.some((s) => s !== 201)) throw new Error(`lead creation failed: ${statuses.filter((s) => s !== 201).length}`)

// Wait until every lead's SMS has been handed over.
const deadline = Date.now() + 120_000
let handed = 0
while (Date.now() < deadline) {
  ;[{ handed }] = (await owner`select count(*)::int as handed from communications where channel = 'sms' and handed_to_provider_at is not null`) as any
  if (handed >= total) break
  await new Promise((r) => setTimeout(r, 250))
}
const rows = await owner<{ ms: number }[]>`
  select extract(epoch from (c.handed_to_provider_at - l.created_at)) * 1000 as ms
  from leads l join communications c on c.lead_id = l.id and c.channel = 'sms'
  where c.handed_to_provider_at is not null order by ms`
const ms = rows.map((r) => Number(r.ms))
const pct = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]! * 10) / 10
const report = {
  date: new Date().toISOString(),
  machine: `${process.platform} ${process.arch}, node ${process.version}`,
  leads: total,
  rate_per_second: rate,
  sms_handed_to_provider: ms.length,
  latency_ms: { p50: pct(50), p90: pct(90), p99: pct(99), max: Math.round(ms[ms.length - 1]! * 10) / 10 },
  within_30_seconds: ms.filter((v) => v <= 30_000).length,
}
console.log(JSON.stringify(report, null, 2))
mkdirSync('bench/results', { recursive: true })
writeFileSync('bench/results/lead-to-sms.json', JSON.stringify(report, null, 2) + '\n')
await owner.end()
await service.stop()
const admin = connect(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', { max: 1 })
await admin.unsafe(`drop database if exists "${database}" with (force)`)
await admin.end()
