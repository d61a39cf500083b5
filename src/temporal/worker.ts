// The Temporal worker: the domains' workflows (src/domains/*/workflows/), activities from createActivities(deps).
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker'
import { createActivities } from '../../activities/index.js'
import type { Deps } from '../core/deps.js'
import type { Logger } from '../logger.js'
import type { TemporalSecurity } from './connection.js'
import { workflowType, type AnyWorkflowDefinition } from './contract.js'
import { tracingWorkerOptions } from './tracing.js'
import { workflowBundle, workflowModules, type PrebuiltWorkflowBundle, type WorkflowModule } from './workflow-bundle.js'

export { workflowBundle } from './workflow-bundle.js'

/**
 * The bundle's entry is generated from the workflow modules in the domains' folders
 * (workflow-bundle.ts), and the domains' definitions make workflows startable: both must name the
 * same workflows. A definition without its module would only fail at its first start, a module no
 * domain defines could never be started. Checked before the worker runs.
 */
export function checkWorkflowModules(definitions: AnyWorkflowDefinition[], modules: WorkflowModule[] = workflowModules()): void {
  const problems: string[] = []
  const bundled = new Set(modules.map((m) => m.type))
  for (const d of definitions) {
    if (!bundled.has(workflowType(d))) problems.push(`no src/domains/*/workflows/ file exports ${workflowType(d)} (the file is named after the function: ${workflowType(d).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.ts)`)
  }
  const defined = new Set(definitions.map(workflowType))
  for (const m of modules) if (!defined.has(m.type)) problems.push(`${m.path} holds workflow ${m.type}, which no domain defines`)
  if (problems.length) throw new Error(`Workflow definitions and the bundle disagree: ${problems.join('; ')}`)
}

export interface RunningWorker {
  stop(): Promise<void>
}

let runtimeInstalled = false
let sdkLogger: Logger | null = null

/**
 * Sends the SDK's own logs (warnings and errors only) into our structured log. The SDK's Runtime is
 * installed once per process; its logs go to the logger of the latest runtime that started here (one
 * in production; in tests, files run one after another in a worker process).
 */
function installSdkLogging(logger: Logger, metricsAddress?: string): void {
  sdkLogger = logger
  if (runtimeInstalled) return
  runtimeInstalled = true
  Runtime.install({
    // The SDK's own metrics (task latencies, slots, pollers) on a Prometheus endpoint of their own,
    // when configured (TEMPORAL_METRICS_ADDRESS; never in tests, whose first runtime would install it
    // for every later one). Durations in seconds, as our histograms.
    ...(metricsAddress && { telemetryOptions: { metrics: { prometheus: { bindAddress: metricsAddress, useSecondsForDurations: true } } } }),
    // We own shutdown (src/shutdown.ts): the SDK must not start draining on SIGINT by itself.
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level === 'ERROR' ? 'error' : 'warn'
      sdkLogger?.[level]({ sdk: 'temporal', ...entry.meta }, entry.message)
    }),
  })
}

/** The worker's connection; the runtime's client shares it when the worker runs in this process. */
export async function connectWorker(logger: Logger, address: string, security: TemporalSecurity = {}, metricsAddress?: string): Promise<NativeConnection> {
  installSdkLogging(logger, metricsAddress)
  return NativeConnection.connect({ address, ...security })
}

/**
 * Runs the worker on a connection; stopping the worker does not close the connection (its owner does).
 * prebuilt: a bundle built ahead of time, instead of this process's own (see workflowBundle).
 */
export async function startWorker(deps: Deps, connection: NativeConnection, definitions: AnyWorkflowDefinition[], prebuilt?: PrebuiltWorkflowBundle): Promise<RunningWorker> {
  checkWorkflowModules(definitions)
  installSdkLogging(deps.logger)
  const worker = await Worker.create({
    connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowBundle: prebuilt ?? await workflowBundle(),
    activities: createActivities(deps),
    stickyQueueScheduleToStartTimeout: deps.config.TEMPORAL_STICKY_TIMEOUT_MS,
    ...tracingWorkerOptions(),
  })
  const running = worker.run()
  return {
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown()
      await running
    },
  }
}
