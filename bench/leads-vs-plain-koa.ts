// GET /api/v1/leads?limit=50 with a key (the whole service: auth, quota count, RLS transaction,
// validation, logging) against a plain Koa + postgres.js handler in the same process doing the
// least the same answer needs: one key lookup by hash, then the leads list query and its count
// (the service's listPage and lead columns, bench/plain-leads.ts, so it follows changes to them). The ratio is the target:
// the service should serve at least 0.8 of the plain handler's requests per second.
// Run: npm run bench:leads-plain   (env: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS)
import { readFileSync } from 'node:fs'
import { autocannon, reportResult, startBenchService, type LoadResult } from './harness.js'
import { seedOtherCompanies, startPlainLeads } from './plain-leads.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
// Six alternating rounds by default: on a shared two-core machine single rounds swing by +-0.15.
const rounds = Number(process.env.BENCH_ROUNDS ?? 6)
const LEADS = 200
// The service is multi-tenant: other companies' leads share the table, as they do in production,
// so both sides must scope to the key's company and neither can lean on a table holding one.
const OTHER_COMPANIES = Number(process.env.BENCH_OTHER_COMPANIES ?? 19)

const service = await startBenchService('Bench Roofing')
const auth = { authorization: `Bearer ${service.key}` }
for (let i = 0; i < LEADS; i++) {
  // No phone or email: this benchmark is about reads, not the instant-response automation.
  await fetch(`${service.base}/api/v1/leads`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Lead ${i}`, suburb: 'Penrith', priority: i % 4 ? 'Normal' : 'Urgent' }),
  })
}

await seedOtherCompanies(service.owner, OTHER_COMPANIES, LEADS)

// Statistics, as autovacuum would gather within its first minute: without them the first rounds
// measure Postgres planning against a table it knows nothing about, and the later ones whatever
// autovacuum had done by then (as bench/lists-at-scale.ts does).
await service.owner.unsafe('vacuum analyze')

const plain = await startPlainLeads(service.runtime.deps.config.DATABASE_URL, service.runtime.deps.config.DB_POOL_MAX)

const serviceUrl = `${service.base}/api/v1/leads?limit=50`
const plainUrl = plain.url

// Same answer either way: check before measuring.
const pageOf = async (url: string) => (await (await fetch(url, { headers: auth })).json()) as { leads: { id: string }[]; total: number }
const [servicePage, plainPage] = [await pageOf(serviceUrl), await pageOf(plainUrl)]
if (servicePage.total !== LEADS || JSON.stringify(servicePage) !== JSON.stringify(plainPage)) {
  throw new Error(`the service and the plain handler answered differently: ${servicePage.total} vs ${plainPage.total} leads`)
}

await autocannon(plainUrl, { connections, seconds: 2, headers: auth })
const serviceWarmUp = await autocannon(serviceUrl, { connections, seconds: 2, headers: auth })
// Alternating rounds, so load from elsewhere on the machine falls on both sides alike.
const plainRuns: LoadResult[] = []
const serviceRuns: LoadResult[] = []
// CPU time per answered request, of this process and of the database backends serving this
// database (read from /proc, so only with a local Postgres): steadier than requests/s when other
// work shares the machine, and it shows which side of the wire a difference is on.
const cpuMicros: { plain: number[]; service: number[] } = { plain: [], service: [] }
const dbCpuMicros: { plain: number[]; service: number[] } = { plain: [], service: [] }
async function databaseCpuMicros(): Promise<number | null> {
  const rows = await service.owner<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`
  let ticks = 0
  for (const { pid } of rows) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 per second).
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      return null
    }
  }
  return ticks * 10_000
}
async function measured(side: 'plain' | 'service', url: string): Promise<LoadResult> {
  const dbBefore = await databaseCpuMicros()
  const before = process.cpuUsage()
  const result = await autocannon(url, { connections, seconds, headers: auth })
  const used = process.cpuUsage(before)
  const dbAfter = await databaseCpuMicros()
  const answered = Math.max(result.total, 1)
  cpuMicros[side].push(Math.round((used.user + used.system) / answered))
  // Backends that closed meanwhile take their time with them: a lower bound, good enough to compare.
  if (dbBefore !== null && dbAfter !== null) dbCpuMicros[side].push(Math.round((dbAfter - dbBefore) / answered))
  return result
}
for (let r = 0; r < rounds; r++) {
  plainRuns.push(await measured('plain', plainUrl))
  serviceRuns.push(await measured('service', serviceUrl))
}

const mean = (runs: LoadResult[], pick: (r: LoadResult) => number) => runs.reduce((s, r) => s + pick(r), 0) / runs.length
const rps = { service: mean(serviceRuns, (r) => r.requestsPerSecond), plain: mean(plainRuns, (r) => r.requestsPerSecond) }
const p99 = { service: mean(serviceRuns, (r) => r.p99), plain: mean(plainRuns, (r) => r.p99) }
const roundRatios = serviceRuns.map((run, i) => Math.round((run.requestsPerSecond / plainRuns[i]!.requestsPerSecond) * 1000) / 1000)
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const [counter] = await service.owner`select count from usage_counters where company_id = ${service.companyId} and metric = 'api_calls'`
const ratio = Math.round((rps.service / rps.plain) * 1000) / 1000
reportResult('leads-vs-plain-koa', {
  headline: {
    ratio_of: `GET /api/v1/leads?limit=50 ÷ plain Koa + postgres.js (key lookup, list, count), requests/s, mean of ${rounds} alternating rounds`,
    ratio, better: 'higher', goal: '>= 0.8', met: ratio >= 0.8,
    figures: {
      'service req/s': Math.round(rps.service), 'plain req/s': Math.round(rps.plain), 'median round ratio': Math.round(median(roundRatios) * 1000) / 1000,
      'service p99 ms': Math.round(p99.service), 'plain p99 ms': Math.round(p99.plain),
    },
  },
  connections,
  seconds,
  rounds,
  leads: LEADS,
  other_companies: OTHER_COMPANIES,
  other_companies_leads_each: LEADS,
  page_size: 50,
  service_get_leads: serviceRuns,
  plain_koa: plainRuns,
  mean_rps: { service: Math.round(rps.service), plain: Math.round(rps.plain) },
  ratio_rps_service_over_plain: ratio,
  ratio_rps_by_round: roundRatios,
  // The median round is less swayed by a burst of other work on the machine than the mean.
  median_ratio_rps_by_round: Math.round(median(roundRatios) * 1000) / 1000,
  server_cpu_microseconds_per_request: cpuMicros,
  ratio_cpu_plain_over_service: Math.round((median(cpuMicros.plain) / median(cpuMicros.service)) * 1000) / 1000,
  database_cpu_microseconds_per_request: dbCpuMicros,
  // autocannon reports whole milliseconds; a plain p99 under 1 ms counts as 1 ms.
  ratio_p99_service_over_plain: Math.round((p99.service / Math.max(p99.plain, 1)) * 100) / 100,
  // Every service call counts: seeding, the check above, warm-up and measured runs (autocannon does
  // not see answers still in flight when a run stops, so the counter may be a few higher).
  api_calls_counted: counter?.count,
  service_answers_seen: LEADS + 1 + serviceWarmUp.total + serviceRuns.reduce((s, r) => s + r.total, 0),
})
await plain.stop()
await service.stop()
