// Embedded Temporal dev server (the Temporal CLI's `server start-dev`), used when no
// TEMPORAL_ADDRESS is configured: SQLite file under the data folder, Web UI, our search attributes.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { Connection } from '@temporalio/client'
import { SEARCH_ATTRIBUTES } from './search-attributes.js'

export function findTemporalCli(explicit?: string): string | null {
  const candidates = [
    explicit,
    ...(process.env.PATH ?? '').split(':').map((dir) => dir && join(dir, 'temporal')),
    join(process.env.GOBIN ?? '', 'temporal'),
    join(process.env.GOPATH ?? join(homedir(), 'go'), 'bin', 'temporal'),
    '/usr/local/bin/temporal',
  ]
  for (const c of candidates) if (c && existsSync(c)) return c
  return null
}

export interface DevServer {
  address: string
  uiUrl: string
  /** The CLI's process id: the fault suite kills it with SIGKILL and starts another on the same file. */
  pid: number | undefined
  stop(): Promise<void>
}

export interface DevServerOptions {
  cliPath?: string
  port: number
  uiPort: number
  dataDir: string
  /** Keep Temporal's state in memory (the CLI's default) instead of the SQLite file in dataDir. */
  inMemory?: boolean
  namespace?: string
  /** Write logs here instead of discarding them. */
  logLevel?: string
}

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const cli = findTemporalCli(options.cliPath)
  if (!cli) {
    throw new Error('Temporal CLI not found. Run `npm run temporal:install` (or set TEMPORAL_ADDRESS to an existing server).')
  }
  mkdirSync(options.dataDir, { recursive: true })
  const dbFile = resolve(options.dataDir, 'temporal.sqlite')
  const args = [
    'server', 'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(options.port),
    '--ui-port', String(options.uiPort),
    // WAL with synchronous=NORMAL, SQLite's own advice for this: consistent, and durable across a
    // crash of the server process (only a power cut can lose the last commits, which a development
    // server may), with far fewer fsyncs: about twice the workflows per second on this machine.
    ...(options.inMemory ? [] : ['--db-filename', dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal']),
    '--namespace', options.namespace ?? 'default',
    '--log-level', options.logLevel ?? 'warn',
    ...Object.entries(SEARCH_ATTRIBUTES).flatMap(([name, type]) => ['--search-attribute', `${name}=${type === 'KEYWORD' ? 'Keyword' : type}`]),
  ]
  const child: ChildProcess = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))
  // Never leave an orphaned dev server behind, however this process ends.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const address = `127.0.0.1:${options.port}`

  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Temporal dev server exited (${child.exitCode}): ${stderr}`)
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 })
      await connection.workflowService.getSystemInfo({})
      await connection.close()
      break
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL')
        throw new Error(`Temporal dev server did not become ready on ${address}: ${(error as Error).message}\n${stderr}`)
      }
      await new Promise((r) => setTimeout(r, 250))
    }
  }

  return {
    address,
    uiUrl: `http://localhost:${options.uiPort}`,
    pid: child.pid,
    async stop() {
      process.off('exit', killOnExit)
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      const timeout = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timeout)
    },
  }
}
