// The one place that knows how to run an entry point (src/main-api.ts, src/main-worker.ts) as its own
// process, for the crash, restart and fault tests. They run the TypeScript source through tsx: the
// tests exercise the code as checked out, whatever `npm start` runs in production.
import { spawn, type ChildProcess } from 'node:child_process'

export type Entry = 'main-api' | 'main-worker'

/** Starts `entry` with this process's environment plus env; stdout and stderr are piped to the caller. */
export function spawnEntry(entry: Entry, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', `src/${entry}.ts`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}
