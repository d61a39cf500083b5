// `npm run record-histories`: the recorder alone, with the suite's setup (test/helpers/global-setup.ts).
import { defineConfig } from 'vitest/config'
import base from '../../vitest.config.js'

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/replay/record-histories.ts'] },
})
