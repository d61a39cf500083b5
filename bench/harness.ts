// Shared benchmark plumbing: a real service (its own database, an embedded or given Temporal) and
// autocannon run as a separate process so the load generator does not share the server's event loop.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { pino } from 'pino'
import { loadConfig, type Config } from '../src/config.js'
import { connect, type Sql } from '../src/db/sql.js'
import { startRuntime, type Runtime } from '../src/runtime.js'
import { startDevServer, type DevServer } from '../src/temporal/dev-server.js'

// BENCH_QUICK=1 (`npm run bench:quick`): short runs that check the suite works end to end; their
// figures are marked quick and are not for comparing. The knobs are the ones the benches already
// read, set here because a bench's own body runs after its imports (this module), so every bench
// honours quick mode without code of its own; a knob set explicitly still wins.
export const QUICK = process.env.BENCH_QUICK === '1'
const QUICK_KNOBS: Record<string, string> = {
  BENCH_SECONDS: '3', BENCH_ROUNDS: '1', LEADS: '50', WEBHOOK_EVENTS: '100', CHASES: '100', FOLLOW_UPS: '100',
}
if (QUICK) for (const [knob, value] of Object.entries(QUICK_KNOBS)) process.env[knob] ??= value

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

/** Where an embedded dev server keeps its state: 'file' (default, as npm start) or 'memory'. */
export function devStore(): 'file' | 'memory' {
  return process.env.TEMPORAL_DEV_STORE === 'memory' ? 'memory' : 'file'
}

export interface BenchService {
  runtime: Runtime
  /** API base URL of the running service, e.g. http://127.0.0.1:1234 */
  base: string
  /** A business-plan company's key; its monthly quota is lifted so long runs are never refused. */
  key: string
  companyId: string
  /** Superuser connection to the benchmark database. */
  owner: Sql
  /** The same as reportResult, without requiring a headline (kept for benches written before it). */
  report(name: string, report: Record<string, unknown>): void
  /** Stops the service and drops its database. */
  stop(): Promise<void>
}

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/**
 * Starts the whole service as `npm start` would (its own database, logging at info to /dev/null:
 * the cost stays, the noise goes) and onboards one business company.
 */
export async function startBenchService(businessName: string, configOverrides: Partial<Config> = {}): Promise<BenchService> {
  const database = `tradie_bench_${Date.now()}`
  let dev: DevServer | null = null
  let address = process.env.TEMPORAL_ADDRESS
  if (!address) {
    // As `npm start` runs it (a SQLite file), or with TEMPORAL_DEV_STORE=memory its state in memory,
    // which takes the dev server's own disk writes out of what a benchmark measures.
    dev = await startDevServer({
      port: await freePort(), uiPort: await freePort(), dataDir: mkdtempSync(join(tmpdir(), 'bench-temporal-')),
      inMemory: devStore() === 'memory',
    })
    address = dev.address
  }
  const dbUrl = new URL(ADMIN_URL)
  dbUrl.pathname = `/${database}`
  // Production defaults, except what a run is asked to compare (TEMPORAL_EAGER_START=false).
  const config = loadConfig({ TEMPORAL_EAGER_START: process.env.TEMPORAL_EAGER_START }, {
    PORT: 0, HOST: '127.0.0.1', DATABASE_URL: dbUrl.toString(), LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: 100_000_000, TEMPORAL_TASK_QUEUE: `bench-${Date.now()}`, ...configOverrides,
  })
  const logger = pino({ level: 'info' }, pino.destination('/dev/null'))
  const runtime = await startRuntime({ config, temporalAddress: address, logger })
  const base = runtime.url!
  const res = await fetch(`${base}/api/v1/onboard`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ business_name: businessName, email: `bench+${Date.now()}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
  })
  const { api_key: key, company_id: companyId } = (await res.json()) as { api_key: string; company_id: string }
  const owner = connect(dbUrl.toString(), { max: 2 })
  // An operator override: every call is still counted (the same atomic increment), none refused.
  await owner`update companies set api_call_limit_override = 2000000000 where id = ${companyId}`
  return {
    runtime,
    base,
    key,
    companyId,
    owner,
    report: writeResult,
    async stop() {
      await owner.end()
      await runtime.stop()
      await dev?.stop()
      const admin = connect(ADMIN_URL, { max: 1 })
      await admin.unsafe(`drop database if exists "${database}" with (force)`)
      await admin.end()
    },
  }
}

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  total: number
}

export async function autocannon(url: string, options: { connections: number; seconds: number; headers?: Record<string, string>; method?: string; body?: string }): Promise<LoadResult> {
  const args = ['-c', String(options.connections), '-d', String(options.seconds), '-j']
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`)
  if (options.method) args.push('-m', options.method)
  if (options.body) args.push('-b', options.body)
  args.push(url)
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(join(process.cwd(), 'node_modules/.bin/autocannon'), args, { stdio: ['ignore', 'pipe', 'ignore'] })
    let text = ''
    child.stdout.on('data', (c: Buffer) => (text += c))
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`autocannon exited ${code}`))))
  })
  const r = JSON.parse(out)
  return {
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    total: r.requests.total,
  }
}

/**
 * The figure a bench is read by. Where the bench has a plain baseline measured in the same process
 * (a bare handler, the activity alone, the meter off), the ratio to it: absolute figures on a shared
 * two-core machine swing with the neighbours, a ratio of two rounds taken side by side much less.
 */
export interface Headline {
  /** What is divided by what, e.g. 'GET /api/v1/usage ÷ bare Koa route, requests/s'. */
  ratio_of: string
  /** measured / baseline; null when the bench has no baseline (a latency, a size). */
  ratio: number | null
  /** Which way is better: throughput ratios 'higher', latency and growth ratios 'lower'. */
  better: 'higher' | 'lower'
  /** The goal set for it, as a ratio bound ('>= 0.8', drawn on the chart) or in words. */
  goal?: string
  met?: boolean
  /** The absolute figures behind the ratio (and the bench's other key ones), labelled with units. */
  figures: Record<string, number | null>
}

/**
 * Writes bench/results/<name>.json (what the runner's summary reads) and prints it: the bench's
 * figures with when, on what code and on what machine they were taken.
 */
export function reportResult(name: string, figures: { headline: Headline } & Record<string, unknown>): void {
  writeResult(name, figures)
}

function writeResult(name: string, figures: Record<string, unknown>): void {
  const full = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    node: process.version,
    machine: { platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpu_model: cpus()[0]?.model ?? null, load_average: loadavg().map((v) => Math.round(v * 100) / 100) },
    script: basename(process.argv[1] ?? ''),
    quick: QUICK,
    // Set by bench/run-all.ts: tells the summary which results this run wrote and which are older.
    run_id: process.env.BENCH_RUN_ID ?? null,
    ...figures,
  }
  console.log(JSON.stringify(full, null, 2))
  mkdirSync('bench/results', { recursive: true })
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(full, null, 2) + '\n')
}

/**
 * The short commit, with -dirty when tracked files differ from it (bar the results a run itself
 * rewrites); null outside a git checkout.
 */
function gitCommit(): string | null {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short=10', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results', ':(exclude)bench/README.md'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return dirty ? `${sha}-dirty` : sha
  } catch {
    return null
  }
}
