// Shared benchmark plumbing: a real service (its own database, an embedded or given Temporal) and
// autocannon run as a separate process so the load generator does not share the server's event loop.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pino } from 'pino'
import { loadConfig } from '../src/config.js'
import { startRuntime, type Runtime } from '../src/runtime.js'
import { startDevServer, type DevServer } from '../src/temporal/dev-server.js'

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

export interface BenchService {
  runtime: Runtime
  stop(): Promise<void>
}

/** Starts the whole service as `npm start` would, logging at info to /dev/null (the cost stays, the noise goes). */
export async function startBenchService(database: string): Promise<BenchService> {
  let dev: DevServer | null = null
  let address = process.env.TEMPORAL_ADDRESS
  if (!address) {
    dev = await startDevServer({ port: await freePort(), uiPort: await freePort(), dataDir: mkdtempSync(join(tmpdir(), 'bench-temporal-')) })
    address = dev.address
  }
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')
  base.pathname = `/${database}`
  const config = loadConfig({}, {
    PORT: 0, HOST: '127.0.0.1', DATABASE_URL: base.toString(), LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: 100_000_000, TEMPORAL_TASK_QUEUE: `bench-${Date.now()}`,
  })
  const logger = pino({ level: 'info' }, pino.destination('/dev/null'))
  const runtime = await startRuntime({ config, temporalAddress: address, logger })
  return {
    runtime,
    async stop() {
      await runtime.stop()
      await dev?.stop()
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
