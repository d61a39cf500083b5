// The service as production runs it: compiled by `npm run build` (scripts/build.mjs) and started by
// `node` alone, no tsx. Built here into a folder of its own under dist/ (so node_modules resolve as
// they do for dist/), emitted without type checking to keep the file quick (`npm run typecheck`
// checks types); the API process then migrates a fresh database (the migrations are files the
// build copies) and answers /readyz against the run's Temporal. The worker's half: the compiled
// workflow-bundle module loads the bundle the build wrote instead of running webpack.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest'
import { databaseUrl, dropDatabase } from './helpers/databases.js'
import { freePort } from './helpers/local-server.js'
import { waitFor } from './helpers/wait.js'

mkdirSync('dist', { recursive: true })
const out = resolve(mkdtempSync(join('dist', '.test-')))
const database = `tradie_built_${process.pid}_${Date.now()}`
let api: ChildProcess | undefined
let output = ''

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--out', out, '--no-check'], { stdio: 'pipe' })
})

afterAll(async () => {
  if (api && api.exitCode === null && api.signalCode === null) {
    api.kill('SIGTERM')
    await new Promise((r) => api!.once('exit', r))
  }
  rmSync(out, { recursive: true, force: true })
  await dropDatabase(database)
})

describe('the built service', () => {
  it('starts with node alone, migrates a fresh database and is ready', async () => {
    const port = await freePort()
    const { NODE_OPTIONS: _, ...env } = process.env
    api = spawn(process.execPath, [join(out, 'src/main-api.js')], {
      env: { ...env, DATABASE_URL: databaseUrl(database), TEMPORAL_ADDRESS: inject('temporalAddress'), TEMPORAL_TASK_QUEUE: `built-${process.pid}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    api.stdout!.on('data', (c: Buffer) => (output += c))
    api.stderr!.on('data', (c: Buffer) => (output += c))
    const ready = await waitFor(() => (api!.exitCode !== null ? Promise.resolve(-1) : fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0)), (s) => s === 200 || s === -1, 30_000)
    expect(ready, output.slice(-3000)).toBe(200)
    // What the kernel says the process runs: node and the compiled file, no loader (--import tsx),
    // and no NODE_OPTIONS that could bring one in.
    const argv = readFileSync(`/proc/${api.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    expect(argv).toEqual([process.execPath, join(out, 'src/main-api.js')])
    expect(readFileSync(`/proc/${api.pid}/environ`, 'utf8')).not.toMatch(/(^|\0)NODE_OPTIONS=/)
    // Logging is asynchronous: the ready line may reach the pipe just after /readyz answers.
    const readyLine = await waitFor(async () => output.split('\n').map((line) => (line.startsWith('{') ? JSON.parse(line) : {})).find((entry) => entry.msg === 'API ready'), (entry) => entry !== undefined, 10_000)
    expect(readyLine.node).toMatch(/^v24\./)
    expect(readyLine.execArgv).toEqual([])
  })

  it('loads the workflow bundle the build wrote', () => {
    const script = `import(${JSON.stringify(join(out, 'src/temporal/workflow-bundle.js'))}).then(async (m) => { await m.workflowBundle(); console.log(m.prebuiltBundlePath()) })`
    const { TEMPORAL_WORKFLOW_BUNDLE: _, ...env } = process.env
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' }).trim()).toBe(join(out, 'workflow-bundle.js'))
    expect(readFileSync(join(out, 'workflow-bundle.js'), 'utf8')).toMatch(/trialLifecycle/)
  })
})
