// Starts the real service (migrated database, API, worker, relay) against its own database and
// task queue, on a random port. Tests talk to it over HTTP. The database is a copy of the run's
// migrated template and the worker runs the run's workflow bundle (both made once, in global setup).
import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { inject } from 'vitest'
import { pino } from 'pino'
import { loadConfig, type Config } from '../../src/config.js'
import { connect, type Sql } from '../../src/db/sql.js'
import { systemClock, type Clock } from '../../src/core/clock.js'
import type { AnyOperation } from '../../src/core/operation.js'
import { startRuntime, type Runtime } from '../../src/runtime.js'
import { traceFields } from '../../src/tracing.js'
import { OWNER_BASE, createDatabaseFromTemplate, databaseNames, retireDatabase } from './databases.js'

export interface TestApp {
  url: string
  runtime: Runtime
  /** Superuser connection to this test's database, for inspecting what was stored. */
  owner: Sql
  config: Config
  clock: Clock
  logs: Record<string, unknown>[]
  call(method: string, path: string, options?: { key?: string; body?: unknown; headers?: Record<string, string>; raw?: string }): Promise<Reply>
  stop(): Promise<void>
}

export interface Reply {
  status: number
  body: any
  headers: Headers
}

export interface TestAppOptions {
  /** Run as a second instance on another app's database (that app creates and drops it). */
  shareDatabaseOf?: TestApp
  /** Run the outbox relay on its timer (default true); tests that drive it by hand turn it off. */
  relay?: boolean
  /** Run the Temporal worker in this process (default true); crash tests run it as a child process. */
  worker?: boolean
  config?: Partial<Config>
  clock?: Clock
  extraOperations?: AnyOperation[]
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const suffix = randomBytes(5).toString('hex')
  const databases = databaseNames(inject('databaseRun'))
  const dbUrl = new URL(options.shareDatabaseOf?.config.DATABASE_URL ?? OWNER_BASE)
  if (!options.shareDatabaseOf) dbUrl.pathname = `/${databases.test(suffix)}`
  const config = loadConfig(
    {},
    {
      PORT: 0,
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl.toString(),
      LOG_LEVEL: 'info',
      TEMPORAL_TASK_QUEUE: options.shareDatabaseOf?.config.TEMPORAL_TASK_QUEUE ?? `test-${suffix}`,
      ONBOARD_LIMIT_PER_HOUR: 10_000,
      RATE_LIMIT_PER_MINUTE: 10_000,
      OUTBOX_RELAY_INTERVAL_MS: 500,
      // One retention schedule per test app would pile up in the shared dev server; its test turns it on.
      RETENTION_SCHEDULE: false,
      // Tests make thousands of tool calls per company (the fuzz test alone); the wallet's own tests
      // set the production default (500 cents) or their own.
      WALLET_STARTING_CREDIT_CENTS: 100_000_000,
      ...options.config,
    },
  )
  const logs: Record<string, unknown>[] = []
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line))
      done()
    },
  })
  // The service's mixin (src/logger.ts): a line logged inside a trace carries its ids.
  const logger = pino({ level: config.LOG_LEVEL, mixin: traceFields }, sink)
  const clock = options.clock ?? systemClock
  if (!options.shareDatabaseOf) await createDatabaseFromTemplate(databases.test(suffix), databases.template)
  // The runtime still runs its migrate step, as in production: on the copy it has nothing to apply.
  const runtime = await startRuntime({
    config,
    temporalAddress: inject('temporalAddress'),
    logger,
    clock,
    extraOperations: options.extraOperations,
    relay: options.relay ?? true,
    worker: options.worker ?? true,
    workflowBundle: { codePath: inject('workflowBundlePath') },
  })
  const owner = connect(dbUrl.toString(), { max: 2 })
  const url = runtime.url!

  return {
    url,
    runtime,
    owner,
    config,
    clock,
    logs,
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers }
      if (opts.key) headers.authorization = `Bearer ${opts.key}`
      let body: string | undefined = opts.raw
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body)
        headers['content-type'] = 'application/json'
      } else if (opts.raw !== undefined) headers['content-type'] ??= 'application/json'
      const res = await fetch(url + path, { method, headers, body, redirect: 'manual' })
      const text = await res.text()
      let parsed: unknown = text
      try {
        parsed = text ? JSON.parse(text) : null
      } catch {
        /* HTML pages */
      }
      return { status: res.status, body: parsed, headers: res.headers }
    },
    async stop() {
      await runtime.stop()
      await owner.end()
      if (options.shareDatabaseOf) return
      await retireDatabase(databases.test(suffix), databases.retired(suffix))
    },
  }
}

let counter = 0
export function uniqueEmail(tag = 'owner'): string {
  return `${tag}+${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}@example.com.au`
}

export async function onboard(app: TestApp, overrides: Record<string, unknown> = {}) {
  const res = await app.call('POST', '/api/v1/onboard', {
    body: { business_name: 'Sparky Bros Electrical', email: uniqueEmail(), plan: 'business', ...overrides },
  })
  if (res.status !== 201) throw new Error(`onboard failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { company_id: string; user_id: string; api_key: string; email: string; [k: string]: any }
}
