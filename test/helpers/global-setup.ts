// One Temporal dev server for the whole test run (each test file uses its own task queue and
// database). Set TEMPORAL_ADDRESS to use an existing server instead.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startDevServer } from '../../src/temporal/dev-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

export default async function setup(project: TestProject) {
  if (process.env.TEMPORAL_ADDRESS) {
    project.provide('temporalAddress', process.env.TEMPORAL_ADDRESS)
    return
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'tradie-temporal-'))
  const server = await startDevServer({ port: await freePort(), uiPort: await freePort(), dataDir, cliPath: process.env.TEMPORAL_CLI_PATH })
  project.provide('temporalAddress', server.address)
  return async () => {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
