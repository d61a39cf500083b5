// The service as production runs it, each part its own process: the Temporal dev server (its
// SQLite file store, so a restart keeps its state), the API (src/main-api.ts, with the outbox relay)
// and the worker (src/main-worker.ts, with the webhook dispatcher). Each can be killed with SIGKILL
// and started again on the same address; what a process printed is kept for the failure message.
import type { ChildProcess } from 'node:child_process'
import { startDevServer, type DevServer } from '../../src/temporal/dev-server.js'
import { spawnEntry, type Entry } from '../helpers/entry-process.js'
import { freePort } from '../helpers/local-server.js'
import { waitFor } from '../helpers/wait.js'

export interface Part {
  name: string
  /** SIGKILL, and resolves once the process is gone. */
  kill(): Promise<void>
  start(): Promise<void>
  /** The last output of every process this part ran. */
  output(): string
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

export async function temporalDevServer(dataDir: string): Promise<Part & { address: string; stop(): Promise<void> }> {
  const [port, uiPort] = [await freePort(), await freePort()]
  let server: DevServer | null = null
  const part = {
    name: 'temporal',
    address: `127.0.0.1:${port}`,
    async start() {
      server = await startDevServer({ port, uiPort, dataDir, cliPath: process.env.TEMPORAL_CLI_PATH })
    },
    async kill() {
      const pid = server?.pid
      server = null
      if (pid === undefined) return
      process.kill(pid, 'SIGKILL')
      await waitFor(async () => gone(pid), (g) => g, 10_000, 50)
    },
    output: () => '',
    stop: async () => server?.stop(),
  }
  return part
}

/**
 * A part run from one of the entry points. ready: when its output says so (the worker) or its
 * URL answers (the API).
 */
export function entryPart(name: string, entry: Entry, env: () => Record<string, string>, ready: { log: string } | { url: string }): Part & { stop(): Promise<void> } {
  let child: ChildProcess | null = null
  let output = ''
  /** What the current process printed since it started (the ready line is looked for here). */
  let current = ''
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000)
    current = (current + chunk.toString()).slice(-20_000)
  }
  const alive = (c: ChildProcess | null): c is ChildProcess => !!c && c.exitCode === null && c.signalCode === null
  const kill = async () => {
    const c = child
    child = null
    if (!alive(c)) return
    const exited = new Promise((resolve) => c.once('exit', resolve))
    c.kill('SIGKILL')
    await exited
  }
  return {
    name,
    output: () => output,
    kill,
    stop: kill,
    async start() {
      current = ''
      const c = spawnEntry(entry, env())
      child = c
      c.stdout!.on('data', keep)
      c.stderr!.on('data', keep)
      c.once('exit', (code, signal) => keep(Buffer.from(`\n[${name} exited (${code ?? signal})]\n`)))
      const up = await waitFor(async () => {
        if (!alive(c)) return 'exited'
        if ('log' in ready) return current.includes(ready.log)
        return fetch(`${ready.url}/healthz`).then((r) => r.ok, () => false)
      }, (v) => v !== false, 60_000, 100)
      if (up === 'exited') throw new Error(`${name} exited before it was ready: ${output.slice(-4000)}`)
    },
  }
}

export { freePort }
