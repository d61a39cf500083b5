// A third party's API served by a local binary for the tests (stripe-mock, gofakes3): started on a
// free loopback port, ready once it answers, its last output kept for the error when it does not,
// and killed with the test process if nobody stops it.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

export interface LocalServer { url: string; stop(): Promise<void> }

/**
 * Starts `bin` with the args for its port and waits (up to 30 s) until `answers(url)` is true.
 * name: for the errors; the binary's stderr (and stdout when `keepStdout`) is quoted in them.
 */
export async function startLocalServer(options: {
  name: string
  bin: string
  args: (port: number) => string[]
  answers: (url: string) => Promise<boolean>
  keepStdout?: boolean
}): Promise<LocalServer> {
  const port = await freePort()
  const child = spawn(options.bin, options.args(port), { stdio: ['ignore', options.keepStdout ? 'pipe' : 'ignore', 'pipe'] })
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
    if (child.exitCode !== null) throw new Error(`${options.name} exited (${child.exitCode}): ${output}`)
    if (await options.answers(url).then((ok) => ok, () => false)) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`${options.name} did not answer on ${url}: ${output}`)
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
