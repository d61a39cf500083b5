// The Temporal worker: real workflows from workflows/, activities from createActivities(deps).
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker'
import { createActivities } from '../../activities/index.js'
import * as bundledWorkflows from '../../workflows/index.js'
import type { Deps } from '../core/deps.js'
import type { Logger } from '../logger.js'
import { workflowType, type AnyWorkflowDefinition } from './contract.js'
import { workflowBundle, type PrebuiltWorkflowBundle } from './workflow-bundle.js'

export { workflowBundle } from './workflow-bundle.js'

/**
 * webpack bundles one static entry (workflows/index.ts), so the domains' workflow definitions and
 * that entry must name the same functions: a definition the bundle lacks would only fail at its
 * first start, an export no domain defines could never be started. Checked before the worker runs.
 */
export function checkWorkflowExports(definitions: AnyWorkflowDefinition[], exported: Record<string, unknown> = bundledWorkflows): void {
  const problems: string[] = []
  for (const d of definitions) {
    if (exported[workflowType(d)] !== d.workflow) problems.push(`workflows/index.ts does not export ${workflowType(d)}`)
  }
  const defined = new Set(definitions.map(workflowType))
  for (const name of Object.keys(exported)) if (!defined.has(name)) problems.push(`workflows/index.ts exports ${name}, which no domain defines`)
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
function installSdkLogging(logger: Logger): void {
  sdkLogger = logger
  if (runtimeInstalled) return
  runtimeInstalled = true
  Runtime.install({
    // We own shutdown (src/shutdown.ts): the SDK must not start draining on SIGINT by itself.
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level === 'ERROR' ? 'error' : 'warn'
      sdkLogger?.[level]({ sdk: 'temporal', ...entry.meta }, entry.message)
    }),
  })
}

/** The worker's connection; the runtime's client shares it when the worker runs in this process. */
export async function connectWorker(logger: Logger, address: string): Promise<NativeConnection> {
  installSdkLogging(logger)
  return NativeConnection.connect({ address })
}

/**
 * Runs the worker on a connection; stopping the worker does not close the connection (its owner does).
 * prebuilt: a bundle built ahead of time, instead of this process's own (see workflowBundle).
 */
export async function startWorker(deps: Deps, connection: NativeConnection, definitions: AnyWorkflowDefinition[], prebuilt?: PrebuiltWorkflowBundle): Promise<RunningWorker> {
  checkWorkflowExports(definitions)
  installSdkLogging(deps.logger)
  const worker = await Worker.create({
    connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowBundle: prebuilt ?? await workflowBundle(),
    activities: createActivities(deps),
  })
  const running = worker.run()
  return {
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown()
      await running
    },
  }
}
