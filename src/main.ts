// `npm start`: the whole service on one machine, in the production shape. This process starts an
// embedded Temporal dev server when TEMPORAL_ADDRESS is unset, runs the API with the outbox relay
// (migrating first), and runs the Temporal worker (with the webhook dispatcher) as a child process,
// main-worker, as production does. The worker has its own event loop: workflow tasks, activities and
// their logs never queue behind requests, nor requests behind them (docs/decisions.md).
import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig } from './config.js'
import { createLogger, stdoutDestination } from './logger.js'
import { startRuntime } from './runtime.js'
import { startDevServer, type DevServer } from './temporal/dev-server.js'
import { onShutdown } from './shutdown.js'
import { startTracingFromConfig, stopTracing } from './tracing.js'

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL, stdoutDestination())
// Before the runtime: its Temporal client and worker take the tracing interceptors when made.
if (await startTracingFromConfig(config)) logger.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing to OTLP')

let devServer: DevServer | null = null
let temporalUi = 'see your Temporal deployment'
let address = config.TEMPORAL_ADDRESS
if (!address) {
  devServer = await startDevServer({
    cliPath: config.TEMPORAL_CLI_PATH,
    port: config.TEMPORAL_DEV_PORT,
    uiPort: config.TEMPORAL_UI_PORT,
    dataDir: resolve(config.DATA_DIR),
    namespace: config.TEMPORAL_NAMESPACE,
  })
  address = devServer.address
  temporalUi = devServer.uiUrl
  logger.info({ address }, 'embedded Temporal dev server started')
}

const runtime = await startRuntime({ config, temporalAddress: address, logger, worker: false, webhookDispatch: false }).catch(async (error) => {
  await devServer?.stop()
  throw error
})

// The worker process: the sibling entry point, run the way this one is (node on dist/, or the
// sources under tsx with the same flags). It migrates too, after this process has, so finds nothing
// to do. It shares stdout; it is started again if it ends while we are not stopping. It runs in a
// process group of its own, so a Ctrl-C reaches only this process, which stops it first (one SIGTERM,
// not the terminal's SIGINT and ours: a second signal would cut its drain short); the IPC channel
// tells it when this process is gone without stopping it (kill -9).
const workerEntry = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? './main-worker.ts' : './main-worker.js', import.meta.url))
let worker: ChildProcess | null = null
let stopping = false
function startWorkerProcess(): void {
  const child = spawn(process.execPath, [...process.execArgv, workerEntry], {
    env: { ...process.env, TEMPORAL_ADDRESS: address }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true,
  })
  worker = child
  child.once('exit', (code, signal) => {
    if (stopping) return
    logger.error({ code, signal }, 'worker process ended; starting it again in 1 s')
    setTimeout(() => stopping || startWorkerProcess(), 1000).unref()
  })
}
startWorkerProcess()
// However this process ends, its worker does not outlive it.
process.once('exit', () => worker?.kill('SIGKILL'))

logger.info({ api: runtime.deps.urls.apiBase, temporalUi, node: process.version }, 'service ready')
console.log(`\n  API:          ${runtime.deps.urls.apiBase}\n  Docs:         ${runtime.deps.urls.apiBase}/docs\n  Temporal UI:  ${temporalUi}\n`)

async function stopWorker(): Promise<void> {
  const child = worker
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM') // it drains its running tasks and exits (main-worker's onShutdown)
  await exited
}

onShutdown(logger, async () => {
  stopping = true
  try {
    await Promise.all([stopWorker(), runtime.stop()])
  } finally {
    await devServer?.stop()
    await stopTracing()
  }
})
