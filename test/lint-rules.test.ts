// The workflow sandbox rule: ESLint must refuse Node built-ins, the database, the web server and
// value imports from outside workflow files, in a domain's workflows/ folder and in the shared
// workflows/ library, and allow type-only imports.
import { describe, expect, it } from 'vitest'
import { ESLint } from 'eslint'

const eslint = new ESLint()
async function problems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.map((m) => m.message)
}

const DOMAIN_WORKFLOW = 'src/domains/leads/workflows/probe.ts'
const LIBRARY = 'workflows/probe.ts'

describe('the workflow import rule', () => {
  it.each([
    [LIBRARY, "import { readFileSync } from 'node:fs'\nexport const f = readFileSync", /Node built-ins/],
    [DOMAIN_WORKFLOW, "import { createHash } from 'crypto'\nexport const f = createHash", /Node built-ins/],
    [DOMAIN_WORKFLOW, "import postgres from 'postgres'\nexport const p = postgres", /database/],
    [LIBRARY, "import Koa from 'koa'\nexport const k = Koa", /web server/],
    [LIBRARY, "import { withTenant } from '../src/db/sql.js'\nexport const w = withTenant", /import type/],
    [DOMAIN_WORKFLOW, "import { createLead } from '../service.js'\nexport const w = createLead", /import type/],
    [DOMAIN_WORKFLOW, "import { formatDollars } from '../../../core/money.js'\nexport const w = formatDollars", /import type/],
    [DOMAIN_WORKFLOW, "import { createActivities } from '../../../../activities/index.js'\nexport const w = createActivities", /import type/],
  ])('in %s refuses %s', async (file, code, message) => {
    expect((await problems(code, file)).join('\n')).toMatch(message)
  })

  it.each([
    [LIBRARY, "import type { Deps } from '../src/core/deps.js'\nimport type { Activities } from '../activities/index.js'\nexport type X = [Deps, Activities]"],
    [DOMAIN_WORKFLOW, "import type { Deps } from '../../../core/deps.js'\nimport { DATABASE_STEP } from '../../../../workflows/activity-options.js'\nimport { other } from './other.js'\nimport { sendMessage } from '../../comms/workflows/deliver-messages.js'\nexport const x = [DATABASE_STEP, other, sendMessage] as unknown as Deps"],
  ])('in %s allows type-only imports and workflow files: %s', async (file, code) => {
    expect(await problems(code, file)).toEqual([])
  })
})
