import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/workflow-bundle-env.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Each file gets its own database; Temporal is one shared dev server.
    fileParallelism: true,
    maxWorkers: 2,
    // Files run one after another in each worker process instead of a fresh process per file: the
    // service's modules (Temporal's native bridge, Stripe, pdfkit, every domain) are imported once per
    // worker, not once per file (import time 269 s -> 26 s summed over files; vitest 518 s -> 368 s).
    // Safe because a file shares nothing with the next but the process: its own database and task
    // queue, and the SDK's once-per-process logger follows the latest runtime (temporal/worker.ts).
    isolate: false,
  },
})
