// Production shape: the Temporal worker process, with the webhook dispatcher (its delivery starts
// are eager here, beside the worker). Needs TEMPORAL_ADDRESS.
import { loadConfig } from './config.js'
import { createLogger, stdoutDestination } from './logger.js'
import { startRuntime } from './runtime.js'
import { startMetricsServer } from './transports/metrics-server.js'
import { onShutdown } from './shutdown.js'
import { startTracingFromConfig, stopTracing } from './tracing.js'

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL, stdoutDestination())
// Before the runtime: its Temporal client and worker take the tracing interceptors when made.
if (await startTracingFromConfig(config)) logger.info({ endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing to OTLP')
if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the worker-only process (use `npm start` for development).')
const runtime = await startRuntime({ config, temporalAddress: config.TEMPORAL_ADDRESS, logger, api: false, relay: false, webhookDispatch: true })
const metrics = config.METRICS_PORT === undefined ? null : await startMetricsServer(runtime.deps, config.METRICS_PORT, config.HOST)
logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, metricsPort: metrics?.port }, 'worker ready')
// Started by `npm start` (main.ts) with an IPC channel: when that process is gone, so is this one.
if (process.connected) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
onShutdown(logger, async () => {
  await metrics?.stop()
  await runtime.stop()
  await stopTracing() // flushes the spans still buffered
})
