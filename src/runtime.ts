// Assembles the service from configuration: database (migrated), Temporal client, outbox relay,
// optionally the HTTP API and the worker. main*.ts and the tests all start the service this way.
import { createServer, type Server } from 'node:http'
import { answerClientError } from './transports/http-errors.js'
import { startupGate } from './transports/startup-gate.js'
import { redactPath } from './transports/http-hygiene.js'
import { tracedListener } from './tracing.js'
import type { AddressInfo } from 'node:net'
import { appDatabaseUrl, siteRoot, type Config } from './config.js'
import { createLogger, type Logger } from './logger.js'
import { createDb } from './db/sql.js'
import { ensureDatabase, migrate } from './db/migrate.js'
import { systemClock, type Clock } from './core/clock.js'
import type { Deps } from './core/deps.js'
import type { AnyOperation } from './core/operation.js'
import { composition, createRegistry } from './domains/index.js'
import { createApp } from './app.js'
import { createAccountingProviders, createCryptoProvider, createEmailProvider, createLanguageModel, createPaymentsProvider, createRegisterProvider, createSmsProvider } from './providers/index.js'
import { connectClient, ensureSearchAttributes, temporalSecurity } from './temporal/connection.js'
import { WorkflowDispatcher } from './temporal/outbox.js'
import { WebhookDispatcher } from './domains/webhooks/dispatcher.js'
import { creditMeter } from './domains/wallet/meter.js'
import { ensureRetentionSchedule } from './domains/ops/retention.js'
import type { RunningWorker } from './temporal/worker.js'
import type { PrebuiltWorkflowBundle } from './temporal/workflow-bundle.js'
import { API_PREFIX } from './transports/rest.js'
import { LocalSseSessions } from './transports/mcp/sse.js'
import { SseBus } from './transports/mcp/sse-bus.js'

export interface RuntimeOptions {
  config: Config
  temporalAddress: string
  api?: boolean
  worker?: boolean
  relay?: boolean
  /**
   * Run the webhook dispatcher (LISTEN + sweep, one delivery workflow per delivery). Default: with
   * the relay. Production runs it in the worker process, where starts are eager (no queue round trip).
   */
  webhookDispatch?: boolean
  migrate?: boolean
  clock?: Clock
  logger?: Logger
  /** Extra operations (tests register probes of the auth rules this way). */
  extraOperations?: AnyOperation[]
  /** A workflow bundle built ahead of time (the tests build one per run); default: the worker bundles its own. */
  workflowBundle?: PrebuiltWorkflowBundle
}

export interface Runtime {
  deps: Deps
  /** Base URL of the running API (when api is on). */
  url: string | null
  stop(): Promise<void>
}

export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config } = options
  const logger = options.logger ?? createLogger(config.LOG_LEVEL)
  if (options.migrate ?? true) {
    await ensureDatabase(config.DATABASE_URL)
    const applied = await migrate(config.DATABASE_URL, { appRolePassword: config.APP_DB_PASSWORD })
    if (applied.length) logger.info({ applied }, 'migrations applied')
  }
  const db = createDb(appDatabaseUrl(config), { max: config.DB_POOL_MAX, prepare: config.DB_PREPARE, listenUrl: config.DATABASE_LISTEN_URL })
  const clock = options.clock ?? systemClock
  const runWorker = options.worker ?? true
  // With the worker in this process, the client shares its connection so starts run eagerly.
  const security = temporalSecurity(config)
  // The worker's module (the Temporal worker SDK, every activity and what they use) is loaded only
  // where a worker runs: an API process without it keeps a heap a fraction of the size, which its
  // garbage collector walks on every request's allocations (docs/decisions.md, item 9).
  const workerModule = runWorker ? await import('./temporal/worker.js') : null
  const workerConnection = workerModule ? await workerModule.connectWorker(logger, options.temporalAddress, security, config.TEMPORAL_METRICS_ADDRESS) : null
  const client = await connectClient(options.temporalAddress, config.TEMPORAL_NAMESPACE, workerConnection ?? undefined, security)
  await ensureSearchAttributes(client, config.TEMPORAL_NAMESPACE)
  const workflows = new WorkflowDispatcher(client, db, config.TEMPORAL_TASK_QUEUE, logger, composition.workflows, {
    failpoint: config.FAILPOINT, eagerStart: workerConnection !== null && config.TEMPORAL_EAGER_START,
  })

  const root = siteRoot(config)
  const urls = { siteRoot: root, apiBase: `${root}${API_PREFIX}` }
  const deps: Deps = {
    config,
    db,
    clock,
    logger,
    urls,
    payments: createPaymentsProvider(config, urls, () => clock.now()),
    crypto: createCryptoProvider(config, urls, () => clock.now()),
    registers: createRegisterProvider(config, () => clock.now()),
    accounting: createAccountingProviders(config, () => clock.now()),
    sms: createSmsProvider(config),
    email: createEmailProvider(config),
    llm: createLanguageModel(config, logger),
    workflows,
    reactions: composition.reactions,
    countResources: composition.countResources,
  }
  deps.credits = creditMeter(deps)

  let worker: RunningWorker | null = null
  if (workerModule && workerConnection) worker = await workerModule.startWorker(deps, workerConnection, composition.workflows, options.workflowBundle)
  // Every worker process sets the retention schedule (idempotent): no separate deploy step to forget.
  // Not fatal: the service works without it, and the next start sets it.
  if (workerConnection && config.RETENTION_SCHEDULE) {
    await ensureRetentionSchedule(deps).catch((error) => logger.error({ err: error }, 'retention schedule not set; the next start retries'))
  }
  let webhooks: WebhookDispatcher | null = null
  if (options.relay ?? true) workflows.startRelay(config.OUTBOX_RELAY_INTERVAL_MS)
  if (options.webhookDispatch ?? options.relay ?? true) {
    webhooks = new WebhookDispatcher(deps, config.WEBHOOK_SWEEP_INTERVAL_MS)
    await webhooks.start()
  }

  let server: Server | null = null
  let url: string | null = null
  let sseBus: SseBus | null = null
  if (options.api ?? true) {
    // Listen first so that, with PORT=0 (tests), the public URLs carry the real port.
    // Requests that arrive before the app is built wait at the gate instead of hanging unanswered.
    const gate = startupGate()
    server = createServer(tracedListener(gate.listener, redactPath))
    server.on('clientError', answerClientError)
    // Keep idle connections open longer than any client keeps them (undici ~4 s, load balancers ~60 s),
    // so the client always closes first: with Node's 5 s default a client could reuse a socket the
    // server was closing at that moment and get ECONNRESET on a request it never knew was refused
    // (seen in tests on a loaded machine). headersTimeout must stay above keepAliveTimeout.
    server.keepAliveTimeout = 65_000
    server.headersTimeout = 66_000
    await new Promise<void>((resolve) => server!.listen(config.PORT, config.HOST, resolve))
    const port = (server.address() as AddressInfo).port
    url = `http://127.0.0.1:${port}`
    if (!config.PUBLIC_URL) {
      urls.siteRoot = `http://localhost:${port}`
      urls.apiBase = `${urls.siteRoot}${API_PREFIX}`
    }
    const sessions = new LocalSseSessions()
    sseBus = new SseBus(db, logger, (id, message) => sessions.write(id, message), Math.max(3 * config.MCP_SSE_KEEPALIVE_MS, 30_000))
    await sseBus.start()
    const app = createApp(deps, createRegistry(options.extraOperations), {
      readiness: async () => {
        await client.connection.workflowService.getSystemInfo({})
        return { temporal: true }
      },
      sse: { sessions, bus: sseBus },
    })
    gate.open(app.callback())
  }

  return {
    deps,
    url,
    async stop() {
      if (server) {
        server.closeAllConnections() // open SSE streams would otherwise hold close() forever
        await new Promise<void>((resolve) => server!.close(() => resolve()))
      }
      await sseBus?.stop()
      await webhooks?.stop()
      await workflows.stopRelay()
      if (worker) await worker.stop()
      await client.connection.close()
      await db.close()
    },
  }
}
