// A PgBouncer in transaction mode in front of the test server, the pooler the README's "Postgres
// behind a pooler" describes, for tests that run the service through one. Debian's pgbouncer
// (`apt-get install pgbouncer`; .ci/run installs it). PgBouncer refuses to run as root, so when the
// tests run as root it runs as the postgres system user. Client authentication is trust, as the test server's is.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect as connectSocket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from './local-server.js'

export const PGBOUNCER_PATH = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer'

export interface PgBouncer {
  /** host:port of the pooler. */
  host: string
  /** Its log so far: a client's login shows as `login attempt: db=<database> user=<role>`. */
  log(): string
  stop(): Promise<void>
}

/** Starts PgBouncer in front of `server` (host:port of Postgres) for the given roles. */
export async function startPgBouncer(server: { host: string; port: number }, users: string[]): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER_PATH)) {
    throw new Error(`PgBouncer is not at ${PGBOUNCER_PATH}: apt-get install pgbouncer (or set PGBOUNCER_PATH)`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'pgbouncer-'))
  const port = await freePort()
  writeFileSync(join(dir, 'users.txt'), users.map((u) => `"${u}" ""`).join('\n') + '\n')
  writeFileSync(join(dir, 'pgbouncer.ini'), [
    '[databases]',
    `* = host=${server.host} port=${server.port}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    'max_client_conn = 500',
    'default_pool_size = 20',
    // postgres.js sends these at startup; PgBouncer passes on only the parameters it tracks.
    'ignore_startup_parameters = extra_float_digits,options',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
  ].join('\n') + '\n')
  const runAs = process.getuid?.() === 0 ? systemUser('postgres') : null
  if (runAs) chownSync(dir, runAs.uid, runAs.gid)
  const child: ChildProcess = spawn(PGBOUNCER_PATH, [join(dir, 'pgbouncer.ini')], { stdio: 'ignore', ...runAs })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const log = () => (existsSync(join(dir, 'pgbouncer.log')) ? readFileSync(join(dir, 'pgbouncer.log'), 'utf8') : '')
  for (const deadline = Date.now() + 10_000; ;) {
    if (child.exitCode !== null) throw new Error(`PgBouncer exited (${child.exitCode}): ${log().slice(-2000)}`)
    if (await accepts(port)) break
    if (Date.now() > deadline) throw new Error(`PgBouncer did not listen on ${port} in 10 s: ${log().slice(-2000)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    host: `127.0.0.1:${port}`,
    log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM') // PgBouncer closes its connections and exits
        await exited
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A system user's ids, for running a child as that user. */
function systemUser(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectSocket(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}
