// Production shape: the API process (with the outbox relay; webhook dispatch runs in the worker
// process). Needs TEMPORAL_ADDRESS.
import { loadConfig } from './config.js'
import { createLogger, stdoutDestination } from './logger.js'
import { startRuntime } from './runtime.js'
import { onShutdown } from './shutdown.js'
import { startTracingFromConfig, stopTracing } from './tracing.js'

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL, stdoutDestination())
// Before the runtime: its Temporal client and worker take the tracing interceptors when made.
if (await startTracingFromConfig(config)) logger.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing to OTLP')
if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the API-only process (use `npm start` for development).')
const runtime = await startRuntime({ config, temporalAddress: config.TEMPORAL_ADDRESS, logger, worker: false, webhookDispatch: false })
// Which node runs it, and with which flags (none in production: compiled code, no tsx loader).
logger.info({ api: runtime.deps.urls.apiBase, node: process.version, execArgv: process.execArgv }, 'API ready')
onShutdown(logger, async () => {
  await runtime.stop()
  await stopTracing() // flushes the spans still buffered
})
