// One Temporal dev server and one stripe-mock for the whole test run (each test file uses its own
// task queue and database; stripe-mock keeps no state). Set TEMPORAL_ADDRESS or STRIPE_MOCK_URL to
// use an existing server instead. Work every test file would otherwise repeat is done here once:
// migrating a template database (each file's database is a copy of it) and bundling the workflows.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startDevServer } from '../../src/temporal/dev-server.js'
import { bundleWorkflows } from '../../src/temporal/workflow-bundle.js'
import { createTemplateDatabase, newRunId, startDatabaseReaper } from './databases.js'
import { freePort, startLocalServer, type LocalServer } from './local-server.js'

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string
    /** Base URL of stripe-mock, e.g. http://127.0.0.1:12111. */
    stripeMockUrl: string
    /** Names this run's databases (test/helpers/databases.ts): the template each test app's database is copied from. */
    databaseRun: string
    /** File holding the workflow bundle every worker of the run uses. */
    workflowBundlePath: string
  }
}

function goBin(): string | null {
  try {
    return join(execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim(), 'bin')
  } catch {
    return null
  }
}

function findStripeMock(): string | null {
  const explicit = process.env.STRIPE_MOCK_PATH
  if (explicit) return existsSync(explicit) ? explicit : null
  const goBinDir = goBin()
  const candidates = [
    join(homedir(), 'go', 'bin', 'stripe-mock'),
    goBinDir && join(goBinDir, 'stripe-mock'),
    ...(process.env.PATH ?? '').split(':').map((dir) => dir && join(dir, 'stripe-mock')),
  ]
  for (const c of candidates) if (c && existsSync(c)) return c
  return null
}

async function startStripeMock(): Promise<LocalServer> {
  const bin = findStripeMock()
  if (!bin) {
    const looked = process.env.STRIPE_MOCK_PATH ? `STRIPE_MOCK_PATH=${process.env.STRIPE_MOCK_PATH} does not exist` : 'not in ~/go/bin, `go env GOPATH`/bin or PATH'
    throw new Error(`stripe-mock not found (${looked}). Run \`bash scripts/install-stripe-mock.sh\` (it prints the path to put in STRIPE_MOCK_PATH), or set STRIPE_MOCK_URL to a running stripe-mock.`)
  }
  return startLocalServer({
    name: 'stripe-mock',
    bin,
    // Bound to loopback only (-http-port would listen on every interface).
    args: (port) => ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:0'],
    // Any HTTP answer (even an error body) means it is listening and routing.
    answers: (url) => fetch(`${url}/v1/balance`, { headers: { authorization: 'Bearer sk_test_ready' }, signal: AbortSignal.timeout(1000) }).then(() => true),
  })
}

/** Bundles workflows/ as the worker would (the same function) into a file; rebuilt on watch reruns. */
export async function buildWorkflowBundle(): Promise<{ path: string; rebuild(): Promise<void>; remove(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'tradie-workflow-bundle-'))
  const path = join(dir, 'workflows.js')
  const rebuild = async () => writeFileSync(path, (await bundleWorkflows()).code)
  await rebuild()
  return { path, rebuild, remove: async () => rmSync(dir, { recursive: true, force: true }) }
}

export default async function setup(project: TestProject) {
  const stops: (() => Promise<void>)[] = []
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop()
  }
  // Migrating and bundling take seconds each; they run while the servers below start. Each registers
  // its own clean-up as soon as it exists, and is awaited even when a server fails to start, so a
  // failure never leaves a template database or bundle behind.
  const run = newRunId()
  const template = createTemplateDatabase(run).then((db) => {
    stops.push(() => db.drop())
    // Test files retire their databases; this drops them off the files' critical path.
    const reaper = startDatabaseReaper(run)
    stops.push(() => reaper.stop())
    project.provide('databaseRun', run)
    return db
  })
  const bundle = buildWorkflowBundle().then((built) => {
    stops.push(() => built.remove())
    project.provide('workflowBundlePath', built.path)
    return built
  })
  const prepared = Promise.allSettled([template, bundle])
  try {
    if (process.env.STRIPE_MOCK_URL) {
      project.provide('stripeMockUrl', process.env.STRIPE_MOCK_URL)
    } else {
      const stripeMock = await startStripeMock()
      stops.push(() => stripeMock.stop())
      project.provide('stripeMockUrl', stripeMock.url)
    }

    if (process.env.TEMPORAL_ADDRESS) {
      project.provide('temporalAddress', process.env.TEMPORAL_ADDRESS)
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'tradie-temporal-'))
      stops.push(async () => rmSync(dataDir, { recursive: true, force: true }))
      const server = await startDevServer({ port: await freePort(), uiPort: await freePort(), dataDir, cliPath: process.env.TEMPORAL_CLI_PATH })
      stops.push(() => server.stop())
      project.provide('temporalAddress', server.address)
    }
    const [db, built] = await Promise.all([template, bundle])
    // vitest watch mode reruns files without a new global setup: bring both up to date first.
    project.onTestsRerun(async () => {
      await Promise.all([db.refresh(), built.rebuild()])
    })
  } catch (error) {
    // Whatever started before the failure must not outlive it.
    await prepared
    await teardown()
    throw error
  }
  return teardown
}
