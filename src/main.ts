// Development: one process runs migrations, the API, the Temporal worker and the outbox relay,
// plus an embedded Temporal dev server when TEMPORAL_ADDRESS is unset.
import { resolve } from 'node:path'
import { loadConfig } from './config.js'
import { createLogger } from './logger.js'
import { startRuntime } from './runtime.js'
import { startDevServer, type DevServer } from './temporal/dev-server.js'
import { onShutdown } from './shutdown.js'
import { startTracingFromConfig, stopTracing } from './tracing.js'

const config = loadConfig()
const logger = createLogger(config.LOG_LEVEL)
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

const runtime = await startRuntime({ config, temporalAddress: address, logger }).catch(async (error) => {
  await devServer?.stop()
  throw error
})

logger.info({ api: runtime.deps.urls.apiBase, temporalUi }, 'service ready')
console.log(`\n  API:          ${runtime.deps.urls.apiBase}\n  Docs:         ${runtime.deps.urls.apiBase}/docs\n  Temporal UI:  ${temporalUi}\n`)

onShutdown(logger, async () => {
  try {
    await runtime.stop()
  } finally {
    await devServer?.stop()
    await stopTracing()
  }
})
