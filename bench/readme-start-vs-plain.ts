// The service as the README starts it (issue 27 item 9): `npm start` runs `npm run build` and then
// `node dist/src/main.js`, one box with the API, the worker, the outbox relay and an embedded
// Temporal dev server, logging every request to stdout. This starts exactly that command as a child
// process, its stdout piped to this process and written to a file (as a terminal or a log shipper
// would consume it), on a fresh database, and measures the authenticated GET /api/v1/leads?limit=50
// against a plain Koa + postgres.js handler in this process doing the key lookup and the same list
// query (no count: a plain handler has no `total` to give), three alternating rounds.
// The one setting changed from the README's start: the per-key burst limit (300 a minute), which a
// load test would hit in its first second.
// Run: npm run bench:start   (env: BENCH_SECONDS 10, BENCH_CONNECTIONS 20, BENCH_ROUNDS 3,
//   BENCH_PLAIN=tenant for a plain handler that reads as the service does (readLeadPage as the app
//   role, under row level security: the read's share of the difference; reported as
//   readme-start-vs-tenant-plain, not as the headline); BENCH_PLAIN=count for the plain handler
//   with the count and without the tenant transaction (readme-start-vs-count-plain);
//   BENCH_START=tsx to start the sources under tsx instead, as `npm start` did before the build;
//   BENCH_SERVICE_DIR=<checkout> to start another checkout of the service, e.g. an earlier commit;
//   BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" extra node flags for the service, e.g. a V8
//   CPU profile of each of its processes, written when it stops)
import { execFileSync, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { autocannon, freePort, reportResult, type LoadResult } from './harness.js'
import { seedOtherCompanies, startPlainLeads } from './plain-leads.js'
import { connect } from '../src/db/sql.js'
import { appDatabaseUrl, loadConfig } from '../src/config.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const start = process.env.BENCH_START === 'tsx' ? 'tsx' : 'built'
const tenantPlain = process.env.BENCH_PLAIN === 'tenant'
const countPlain = process.env.BENCH_PLAIN === 'count'
const serviceDir = process.env.BENCH_SERVICE_DIR ?? process.cwd()
const LEADS = 200
const OTHER_COMPANIES = 19
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

const database = `tradie_bench_start_${Date.now()}`
const dbUrl = new URL(ADMIN_URL)
dbUrl.pathname = `/${database}`
const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'))
const logFile = join(dataDir, 'service.log')

if (start === 'built') execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit', cwd: serviceDir })
const port = await freePort()
const { NODE_OPTIONS: _, ...env } = process.env
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
const child = spawn(process.execPath, [...nodeArgs, ...(start === 'built' ? ['dist/src/main.js'] : ['--import', 'tsx', 'src/main.ts'])], {
  env: {
    ...env,
    DATABASE_URL: dbUrl.toString(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    TEMPORAL_ADDRESS: '',
    RATE_LIMIT_PER_MINUTE: '100000000',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
  cwd: serviceDir,
})
const log = createWriteStream(logFile)
child.stdout!.pipe(log)
child.stderr!.pipe(log)
const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
process.once('exit', () => child.kill('SIGKILL'))

const base = `http://127.0.0.1:${port}`
const deadline = Date.now() + 120_000
for (;;) {
  if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}): ${readFileSync(logFile, 'utf8').slice(-3000)}`)
  if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break
  if (Date.now() > deadline) throw new Error('the service did not become ready in 120 s')
  await new Promise((r) => setTimeout(r, 250))
}

const onboard = await fetch(`${base}/api/v1/onboard`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ business_name: 'Bench Roofing', email: `bench+${Date.now()}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
})
const { api_key: key, company_id: companyId } = (await onboard.json()) as { api_key: string; company_id: string }
const owner = connect(dbUrl.toString(), { max: 2 })
// An operator override: every call is still counted (the same atomic increment), none refused.
await owner`update companies set api_call_limit_override = 2000000000 where id = ${companyId}`
const auth = { authorization: `Bearer ${key}` }
for (let i = 0; i < LEADS; i++) {
  await fetch(`${base}/api/v1/leads`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Lead ${i}`, suburb: 'Penrith', priority: i % 4 ? 'Normal' : 'Urgent' }),
  })
}
// Other companies' leads share the table, as in production (bench/leads-vs-plain-koa.ts does the same).
await seedOtherCompanies(owner, OTHER_COMPANIES, LEADS)
await owner.unsafe('vacuum analyze')

// The same pool size as the service's default.
const plain = await startPlainLeads(dbUrl.toString(), loadConfig({}).DB_POOL_MAX, tenantPlain
  ? { tenantUrl: appDatabaseUrl(loadConfig({ ...process.env, DATABASE_URL: dbUrl.toString() })) }
  : { count: countPlain })
const serviceUrl = `${base}/api/v1/leads?limit=50`
const pageOf = async (url: string) => (await (await fetch(url, { headers: auth })).json()) as { leads: { id: string }[]; total?: number }
const [servicePage, plainPage] = [await pageOf(serviceUrl), await pageOf(plain.url)]
if (servicePage.total !== LEADS || JSON.stringify(servicePage.leads) !== JSON.stringify(plainPage.leads)) {
  throw new Error(`the service and the plain handler answered differently (${servicePage.total} leads in total)`)
}

// CPU time per answered request, read from /proc: on a machine other work shares, requests per
// second swing with the neighbours; CPU spent per request does not, and it is what bounds the
// requests per second of a box that is only serving. Counted for each side: its process(es) (the
// service's whole tree: API, worker, dev server; the plain handler is this process) and the
// Postgres backends connected to the database.
const TICK_MICROS = 10_000 // /proc/<pid>/stat counts clock ticks, 100 a second
function processCpuMicros(pid: number): number {
  try {
    // Fields 14 and 15 (utime, stime), after the parenthesised command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS
  } catch {
    return 0 // ended meanwhile
  }
}
function treePids(root: number): number[] {
  const parents = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1])
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)])
    } catch {
      // ended meanwhile
    }
  }
  const pids = [root]
  for (let i = 0; i < pids.length; i++) pids.push(...(parents.get(pids[i]!) ?? []))
  return pids
}
async function databaseCpuMicros(): Promise<number> {
  const rows = await owner<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`
  return rows.reduce((sum, { pid }) => sum + processCpuMicros(pid), 0)
}
interface Measured extends LoadResult { appCpuPerRequest: number; dbCpuPerRequest: number }
async function measured(url: string, appCpu: () => number, duration = seconds): Promise<Measured> {
  const [app0, db0] = [appCpu(), await databaseCpuMicros()]
  const result = await autocannon(url, { connections, seconds: duration, headers: auth })
  const [app1, db1] = [appCpu(), await databaseCpuMicros()]
  const answered = Math.max(result.total, 1)
  return { ...result, appCpuPerRequest: Math.round((app1 - app0) / answered), dbCpuPerRequest: Math.round((db1 - db0) / answered) }
}
const ownCpu = () => { const u = process.cpuUsage(); return u.user + u.system }
const serviceCpu = () => treePids(child.pid!).reduce((sum, pid) => sum + processCpuMicros(pid), 0)

// Seeding started a workflow per lead; the worker runs them for a while after the last POST. Reads
// are measured once the service's processes are quiet (under 5% of a core for 2 s; at most 90 s),
// so neither side's rounds carry that backlog.
for (const settleBy = Date.now() + 90_000; Date.now() < settleBy;) {
  const before = serviceCpu()
  await new Promise((r) => setTimeout(r, 2000))
  if (serviceCpu() - before < 0.05 * 2_000_000) break
}

const warmUps = [await measured(plain.url, ownCpu, 2), await measured(serviceUrl, serviceCpu, 2)]
const runs: { service: Measured; plain: Measured; ratio: number; cpuRatio: number }[] = []
for (let r = 0; r < rounds; r++) {
  const plainRun = await measured(plain.url, ownCpu)
  const serviceRun = await measured(serviceUrl, serviceCpu)
  const ratio = Math.round((serviceRun.requestsPerSecond / plainRun.requestsPerSecond) * 1000) / 1000
  const total = (m: Measured) => m.appCpuPerRequest + m.dbCpuPerRequest
  const cpuRatio = Math.round((total(plainRun) / total(serviceRun)) * 1000) / 1000
  runs.push({ service: serviceRun, plain: plainRun, ratio, cpuRatio })
  console.log(`run ${r + 1}: service ${Math.round(serviceRun.requestsPerSecond)} req/s, plain ${Math.round(plainRun.requestsPerSecond)} req/s, ratio ${ratio}; ` +
    `CPU per request (process + database) service ${serviceRun.appCpuPerRequest} + ${serviceRun.dbCpuPerRequest} us, plain ${plainRun.appCpuPerRequest} + ${plainRun.dbCpuPerRequest} us, ratio ${cpuRatio}`)
}
const loadAtEnd = loadavg()[0]!

// A clean stop (SIGTERM, as Ctrl-C or a container stop): every request answered must be in the log.
await plain.stop()
await owner.end()
child.kill('SIGTERM')
const code = await exited
await new Promise<void>((resolve) => log.end(resolve))
const lines = readFileSync(logFile, 'utf8').split('\n')
const requestLines = lines.filter((line) => line.includes('"msg":"request"')).length
const served = LEADS + 2 + warmUps[1]!.total + runs.reduce((s, r) => s + r.service.total, 0)

const report = {
  date: new Date().toISOString(),
  machine: `${process.platform} ${process.arch}, node ${process.version}, load average at end ${loadAtEnd.toFixed(1)}`,
  start: start === 'built' ? 'node dist/src/main.js (npm start)' : 'node --import tsx src/main.ts (npm start before the build)',
  service_dir: serviceDir,
  connections,
  seconds,
  page_size: 50,
  leads: LEADS,
  runs: runs.map((r) => ({
    service_rps: Math.round(r.service.requestsPerSecond), plain_rps: Math.round(r.plain.requestsPerSecond), ratio: r.ratio,
    service_p99_ms: r.service.p99, plain_p99_ms: r.plain.p99, service_non2xx: r.service.non2xx,
    service_cpu_us_per_request: { process: r.service.appCpuPerRequest, database: r.service.dbCpuPerRequest },
    plain_cpu_us_per_request: { process: r.plain.appCpuPerRequest, database: r.plain.dbCpuPerRequest },
    cpu_ratio_plain_over_service: r.cpuRatio,
  })),
  ratios: runs.map((r) => r.ratio),
  cpu_ratios: runs.map((r) => r.cpuRatio),
  exit_code: code,
  log_bytes: lines.join('\n').length,
  // autocannon does not count answers still in flight when a run stops: the log may hold a few more.
  request_lines_logged: requestLines,
  service_answers_seen: served,
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
const overall = Math.round((sum(runs.map((r) => r.service.requestsPerSecond)) / sum(runs.map((r) => r.plain.requestsPerSecond))) * 1000) / 1000
const plainKind = tenantPlain ? 'tenant-' : countPlain ? 'count-' : ''
reportResult(`readme-start-vs-${plainKind}plain${start === 'tsx' ? '-tsx' : ''}`, {
  headline: {
    ratio_of: `GET /api/v1/leads?limit=50 of the service as npm start runs it ÷ plain Koa key lookup + ${
      tenantPlain ? 'the service\'s own lead read (readLeadPage)' : countPlain ? 'list and count' : 'list'}, requests/s`,
    ratio: overall, better: 'higher', ...(plainKind ? {} : { goal: '>= 0.8', met: overall >= 0.8 }),
    figures: {
      'service req/s': Math.round(sum(runs.map((r) => r.service.requestsPerSecond)) / runs.length),
      'plain req/s': Math.round(sum(runs.map((r) => r.plain.requestsPerSecond)) / runs.length),
      'CPU/request ratio': Math.round((sum(runs.map((r) => r.cpuRatio)) / runs.length) * 1000) / 1000,
    },
  },
  ...report,
})

rmSync(dataDir, { recursive: true, force: true })
const admin = connect(ADMIN_URL, { max: 1 })
await admin.unsafe(`drop database if exists "${database}" with (force)`)
await admin.end()
