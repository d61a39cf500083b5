// Production shape: the API process (with the outbox relay; webhook dispatch runs in the worker
// process). Needs TEMPORAL_ADDRESS.
import { loadConfig } from './config.js'
import { createLogger, stdoutDestination } from './logger.js'
import { startRuntime } from './runtime.js'
import { onShutdown } from './shutdown.js'

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL, stdoutDestination())
if (!config.TEMPORAL_ADDRESS) throw new Error('TEMPORAL_ADDRESS is required for the API-only process (use `npm start` for development).')
const runtime = await startRuntime({ config, temporalAddress: config.TEMPORAL_ADDRESS, logger, worker: false, webhookDispatch: false })
// Which node runs it, and with which flags (none in production: compiled code, no tsx loader).
logger.info({ api: runtime.deps.urls.apiBase, node: process.version, execArgv: process.execArgv }, 'API ready')
onShutdown(logger, () => runtime.stop())
