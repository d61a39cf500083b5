// scripts/patch-postgres.mjs (npm's postinstall) checks every edit on every run: it patches the files
// as installed (kept as <file>.orig), so a second run changes nothing and a node_modules patched by
// an older version of the script (fewer edits) gets the edits added since.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const installed = fileURLToPath(new URL('../node_modules/postgres/', import.meta.url))
const script = fileURLToPath(new URL('../scripts/patch-postgres.mjs', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'patch-script-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const run = () => execFileSync(process.execPath, [script], { env: { ...process.env, POSTGRES_PACKAGE_DIR: dir }, encoding: 'utf8' })
const MARK = '/* tradie-ops: closed-connection patch */'
const marks = (file: string) => readFileSync(join(dir, file), 'utf8').split(MARK).length - 1

describe('the postgres.js patch script', () => {
  it('patches the package as installed, changes nothing on a second run, and completes a copy an older script patched', () => {
    cpSync(installed, dir, { recursive: true })
    // The package as npm installed it: the originals the script kept.
    for (const sub of ['src', 'cjs/src', 'cf/src']) {
      for (const name of ['connection.js', 'index.js']) {
        const file = join(dir, sub, name)
        writeFileSync(file, readFileSync(`${file}.orig`, 'utf8'))
        rmSync(`${file}.orig`)
      }
    }
    expect(marks('src/connection.js')).toBe(0)
    expect(run()).toMatch(/src\/connection.js: patched\n/)
    const patched = readFileSync(join(dir, 'src/connection.js'), 'utf8')
    const edits = marks('src/connection.js')
    expect(edits).toBeGreaterThanOrEqual(8)
    expect(patched).toBe(readFileSync(join(installed, 'src/connection.js'), 'utf8'))

    expect(run()).not.toMatch(/: patched\n/)
    expect(readFileSync(join(dir, 'src/connection.js'), 'utf8')).toBe(patched)

    // An older script's result: one edit (the socketError declaration, edit 7) missing.
    const older = patched.replace(/\n    , socketError = null \/\* tradie-ops: closed-connection patch \*\//, '')
    expect(older).not.toBe(patched)
    writeFileSync(join(dir, 'src/connection.js'), older)
    expect(run()).toMatch(/src\/connection.js: patched\n/)
    expect(readFileSync(join(dir, 'src/connection.js'), 'utf8')).toBe(patched)
  })
})
