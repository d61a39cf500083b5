// The API service as a separate process (src/main-api.ts, as in production), on a test app's
// database and task queue: for tests that kill it, or terminate its database connections, and
// watch what the process itself does.
import type { ChildProcess } from 'node:child_process'
import { inject } from 'vitest'
import type { TestApp } from './app.js'
import { waitFor } from './wait.js'
import { spawnEntry } from './entry-process.js'

export interface ApiProcess {
  child: ChildProcess
  /** http://127.0.0.1:<port> */
  base: string
  /** Everything it wrote to stdout and stderr so far. */
  output(): string
  /** How it ended, once it has: 'exited (<code or signal>)'. */
  exits: string[]
}

/**
 * Starts it and resolves once /healthz answers. env: settings beyond the app's (pool size, a failpoint...).
 * upWithinMs: how long it may take (a test starting several processes at once on a busy machine gives more).
 */
export async function startApiProcess(app: Pick<TestApp, 'config'>, env: Record<string, string> = {}, upWithinMs = 60_000): Promise<ApiProcess> {
  const port = env.PORT ? Number(env.PORT) : 20_000 + Math.floor(Math.random() * 20_000)
  const child = spawnEntry('main-api', {
    DATABASE_URL: app.config.DATABASE_URL,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: app.config.TEMPORAL_TASK_QUEUE,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The relay stays out of the way unless a test asks for it.
    OUTBOX_RELAY_INTERVAL_MS: '600000',
    ...env,
  })
  let output = ''
  const collect = (chunk: Buffer) => (output += chunk.toString())
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  const exits: string[] = []
  child.once('exit', (code, signal) => exits.push(`exited (${code ?? signal})`))
  const base = `http://127.0.0.1:${port}`
  const up = await waitFor(async (): Promise<boolean | 'exited'> => (exits.length ? 'exited' : fetch(`${base}/healthz`).then((r) => r.ok, () => false)), (ok) => ok !== false, upWithinMs)
    .catch(() => 'timed out' as const)
  // Not left running when it did not come up in time: nothing else holds it to kill it later.
  if (up === 'timed out') child.kill('SIGKILL')
  if (up !== true) throw new Error(`the API process did not come up (${exits.join(', ') || 'no answer on /healthz'}): ${output.slice(-4000)}`)
  return { child, base, output: () => output, exits }
}

/** Kills it unless it has ended (afterAll). */
export function killApiProcess(api: ApiProcess | undefined): void {
  if (api && api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGKILL')
}
