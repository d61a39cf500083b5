// The Temporal worker as a separate process (src/main-worker.ts, as in production), for crash
// tests that kill it with SIGKILL and start another. It runs on a test app's database and task queue.
import type { ChildProcess } from 'node:child_process'
import { inject } from 'vitest'
import type { TestApp } from './app.js'
import { spawnEntry } from './entry-process.js'

export interface WorkerProcesses {
  /** Starts a worker; resolves once it polls Temporal ("worker ready" in its log). */
  start(): Promise<ChildProcess>
  /** Kills the ones still running (afterAll). */
  killAll(): void
}

/** env: settings the worker needs beyond the app's database and task queue (providers, policies). */
export function workerProcesses(app: () => Pick<TestApp, 'config'>, env: () => Record<string, string> = () => ({})): WorkerProcesses {
  const workers: ChildProcess[] = []
  return {
    start() {
      const child = spawnEntry('main-worker', {
        LOG_LEVEL: 'info',
        // A killed worker holds its runs on its own queue this long before the next one may take
        // them (the SDK's 10 s by default): the crash is the same, the wait after it shorter.
        TEMPORAL_STICKY_TIMEOUT_MS: '1000',
        ...env(),
        DATABASE_URL: app().config.DATABASE_URL,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TEMPORAL_TASK_QUEUE: app().config.TEMPORAL_TASK_QUEUE,
        // The run's prebuilt bundle: a restarted worker is ready without bundling again.
        TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
      })
      workers.push(child)
      return new Promise((resolve, reject) => {
        let out = ''
        const onData = (chunk: Buffer) => {
          out = (out + chunk.toString()).slice(-8000)
          if (out.includes('"worker ready"')) {
            child.stdout!.off('data', onData)
            child.stdout!.resume() // keep draining so the pipe never blocks the worker
            resolve(child)
          }
        }
        child.stdout!.on('data', onData)
        child.stderr!.on('data', (chunk: Buffer) => (out = (out + chunk.toString()).slice(-8000)))
        child.once('exit', (code, signal) => reject(new Error(`worker exited (${code ?? signal}) before it was ready: ${out}`)))
      })
    },
    killAll() {
      for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL')
    },
  }
}
