// A real S3-compatible server for the documents store's tests: gofakes3 (built by
// scripts/install-gofakes3.sh, which this runs when the binary is missing), in memory, on a free
// loopback port, buckets created on first use.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { startLocalServer, type LocalServer } from './local-server.js'

function gofakes3Path(): string {
  const explicit = process.env.GOFAKES3_PATH
  if (explicit && existsSync(explicit)) return explicit
  // The install script finds an installed binary or builds one, and prints its path.
  return execFileSync('bash', ['scripts/install-gofakes3.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 }).trim()
}

export type S3Server = LocalServer

export function startS3Server(): Promise<S3Server> {
  return startLocalServer({
    name: 'gofakes3',
    bin: gofakes3Path(),
    args: (port) => ['-backend', 'memory', '-autobucket', '-host', `127.0.0.1:${port}`],
    answers: (url) => fetch(`${url}/`, { signal: AbortSignal.timeout(1000) }).then(() => true),
    keepStdout: true,
  })
}
