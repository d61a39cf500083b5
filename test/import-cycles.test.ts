// The import-cycle check `npm run lint` runs (dependency-cruiser, .dependency-cruiser.cjs): no file
// in src/, workflows/ or activities/ reaches itself through its imports, type-only ones included.
// The probe shows the check sees a circle made of `import type` alone.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const depcruise = (...paths: string[]) =>
  spawnSync(process.execPath, [join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', '.dependency-cruiser.cjs', ...paths], { cwd: root, encoding: 'utf8' })

describe('import cycles', () => {
  it('there are none in src/, workflows/ and activities/', () => {
    const run = depcruise('src', 'workflows', 'activities')
    expect(run.stdout + run.stderr).toMatch(/no dependency violations found/)
    expect(run.status).toBe(0)
  }, 60_000)

  it('a circle of type-only imports is found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycle-probe-'))
    try {
      writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js'\nexport type A = { b?: B }\n")
      writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js'\nexport type B = { a?: A }\n")
      const run = depcruise(dir)
      expect(run.stdout).toMatch(/no-circular: .*a\.ts/)
      expect(run.status).not.toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
