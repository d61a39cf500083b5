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
  },
})
