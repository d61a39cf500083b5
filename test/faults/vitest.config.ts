// The fault suite (npm run test:faults): kills the service's processes, the Temporal dev server and
// its receivers and cuts the database, so it runs on its own, after the main suite, one file at a
// time. Its files end in .fault.ts so the main `vitest run` (test/**/*.test.ts) never picks them up.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/faults/**/*.fault.ts'],
    globalSetup: ['test/faults/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    maxWorkers: 1,
  },
})
