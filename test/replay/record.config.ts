// `npm run record-histories`: the recorders alone (this folder's, and any a workflow's folder holds in
// workflows/histories/record.ts), with the suite's setup (test/helpers/global-setup.ts).
import { defineConfig } from 'vitest/config'
import base from '../../vitest.config.js'

export default defineConfig({
  ...base,
  test: { ...base.test, include: ['test/replay/record-histories.ts', 'src/domains/**/workflows/histories/record.ts'] },
})
