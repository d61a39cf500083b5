// The workflow sandbox rule: ESLint must refuse Node built-ins, the database, the web server and
// value imports from src/ in workflows/, and allow type-only imports.
import { describe, expect, it } from 'vitest'
import { ESLint } from 'eslint'

const eslint = new ESLint()
async function problems(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: 'workflows/probe.ts' })
  return result!.messages.map((m) => m.message)
}

describe('workflows/ import rule', () => {
  it.each([
    ["import { readFileSync } from 'node:fs'\nexport const f = readFileSync", /Node built-ins/],
    ["import { createHash } from 'crypto'\nexport const f = createHash", /Node built-ins/],
    ["import postgres from 'postgres'\nexport const p = postgres", /database/],
    ["import Koa from 'koa'\nexport const k = Koa", /web server/],
    ["import { withTenant } from '../src/db/sql.js'\nexport const w = withTenant", /import type/],
  ])('refuses %s', async (code, message) => {
    const found = await problems(code)
    expect(found.join('\n')).toMatch(message)
  })

  it('allows type-only imports from src and activities', async () => {
    const found = await problems("import type { Deps } from '../src/core/deps.js'\nimport type { Activities } from '../activities/index.js'\nexport type X = [Deps, Activities]")
    expect(found).toEqual([])
  })
})
