// Creates 200 leads with mobile numbers at a steady rate through REST and measures, per lead, the
// time from the lead's commit (created_at) to its SMS being handed to the SMS provider
// (handed_to_provider_at): outbox, workflow start, Temporal scheduling, activities.
// Run: npx tsx bench/lead-to-sms.ts   (env: LEADS=200, RATE_PER_SECOND=10)
import { reportResult, startBenchService } from './harness.js'

const total = Number(process.env.LEADS ?? 200)
const rate = Number(process.env.RATE_PER_SECOND ?? 10)
const service = await startBenchService('Bench Electrical')
const { base, key, owner } = service

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
reportResult('lead-to-sms', {
  headline: {
    ratio_of: 'no baseline: lead commit -> SMS handed to the provider', ratio: null, better: 'lower',
    goal: 'every SMS within 30 s', met: ms.filter((v) => v <= 30_000).length === total,
    figures: { 'p50 ms': pct(50), 'p99 ms': pct(99), 'max ms': Math.round(ms[ms.length - 1]! * 10) / 10, handed: ms.length },
  },
  leads: total,
  rate_per_second: rate,
  sms_handed_to_provider: ms.length,
  latency_ms: { p50: pct(50), p90: pct(90), p99: pct(99), max: Math.round(ms[ms.length - 1]! * 10) / 10 },
  within_30_seconds: ms.filter((v) => v <= 30_000).length,
})
await service.stop()
