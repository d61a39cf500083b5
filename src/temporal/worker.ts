// The Temporal worker: real workflows from workflows/, activities from createActivities(deps).
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type WorkflowBundle } from '@temporalio/worker'
import { fileURLToPath } from 'node:url'
import { createActivities } from '../../activities/index.js'
import type { Deps } from '../core/deps.js'

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url))

let bundle: Promise<WorkflowBundle> | null = null

/** Bundles workflow code once per process (webpack takes seconds); ESM sources import './x.js'. */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= bundleWorkflowCode({
    workflowsPath,
    webpackConfigHook: (config) => {
      config.resolve = { ...config.resolve, extensionAlias: { '.js': ['.ts', '.js'] } }
      return config
    },
    logger: { log: () => {}, trace: () => {}, debug: () => {}, info: () => {}, warn: console.warn, error: console.error },
  })
  return bundle
}

export interface RunningWorker {
  stop(): Promise<void>
}

let runtimeInstalled = false

/** Sends the SDK's own logs (warnings and errors only) into our structured log. Once per process. */
function installSdkLogging(deps: Deps): void {
  if (runtimeInstalled) return
  runtimeInstalled = true
  Runtime.install({
    // We own shutdown (src/shutdown.ts): the SDK must not start draining on SIGINT by itself.
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      const level = entry.level === 'ERROR' ? 'error' : 'warn'
      deps.logger[level]({ sdk: 'temporal', ...entry.meta }, entry.message)
    }),
  })
}

export async function startWorker(deps: Deps, address: string): Promise<RunningWorker> {
  installSdkLogging(deps)
  const connection = await NativeConnection.connect({ address })
  const worker = await Worker.create({
    connection,
    namespace: deps.config.TEMPORAL_NAMESPACE,
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: createActivities(deps),
  })
  const running = worker.run()
  return {
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown()
      await running
      await connection.close()
    },
  }
}
