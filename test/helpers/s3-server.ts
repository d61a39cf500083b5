// A real S3-compatible server for the documents store's tests: gofakes3 (built by
// scripts/install-gofakes3.sh, which this runs when the binary is missing), in memory, on a free
// loopback port, buckets created on first use.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'

function gofakes3Path(): string {
  const explicit = process.env.GOFAKES3_PATH
  if (explicit && existsSync(explicit)) return explicit
  // The install script finds an installed binary or builds one, and prints its path.
  return execFileSync('bash', ['scripts/install-gofakes3.sh'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 }).trim()
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

export interface S3Server { url: string; stop(): Promise<void> }

export async function startS3Server(): Promise<S3Server> {
  const bin = gofakes3Path()
  const port = await freePort()
  const child = spawn(bin, ['-backend', 'memory', '-autobucket', '-host', `127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((res) => child.once('exit', () => res()))
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gofakes3 exited (${child.exitCode}): ${output}`)
    if (await fetch(`${url}/`, { signal: AbortSignal.timeout(1000) }).then(() => true, () => false)) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`gofakes3 did not answer on ${url}: ${output}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    url,
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
