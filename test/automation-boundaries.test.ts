// Automations are features on an engine: domains emit events and automations react
// (src/core/reactions.ts), so no domain knows which automations follow it. This holds because no
// file under src/domains/ outside automations/ imports from automations/, checked here by reading
// the import lines of every .ts file; and because the reactions name only declared events.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { composition } from '../src/domains/index.js'
import { EventReactions } from '../src/core/reactions.js'

const domainsDir = fileURLToPath(new URL('../src/domains/', import.meta.url))
const automationsDir = path.join(domainsDir, 'automations')

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? tsFiles(full) : e.name.endsWith('.ts') ? [full] : []
  })
}

/** The relative module specifiers a source imports or re-exports (static, type-only and dynamic). */
function importedSpecifiers(source: string): string[] {
  const specs: string[] = []
  for (const m of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g)) specs.push(m[1]!)
  for (const m of source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) specs.push(m[1]!)
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!)
  return specs
}

/** Files outside automations/ whose imports reach into it, with the import. */
function crossings(files: string[], read: (file: string) => string): string[] {
  const found: string[] = []
  for (const file of files) {
    if (file.startsWith(automationsDir + path.sep)) continue
    for (const spec of importedSpecifiers(read(file))) {
      if (!spec.startsWith('.')) continue
      const target = path.resolve(path.dirname(file), spec)
      if (target === automationsDir || target.startsWith(automationsDir + path.sep)) found.push(`${path.relative(domainsDir, file)} imports ${spec}`)
    }
  }
  return found
}

describe('automations boundary', () => {
  it('no file under src/domains/ outside automations/ imports from automations/', () => {
    const files = tsFiles(domainsDir)
    expect(files.length).toBeGreaterThan(100)
    const allowed = path.join(domainsDir, 'index.ts') // the one list of domains composes the automations domain
    expect(crossings(files.filter((f) => f !== allowed), (f) => readFileSync(f, 'utf8'))).toEqual([])
  })

  it('the check sees every form of import', () => {
    const file = path.join(domainsDir, 'jobs', 'probe.ts')
    const sources: Record<string, string> = {
      [file]: [
        "import { a } from '../automations/job-flow/index.js'",
        "import type { B } from '../automations/engine/catalogue.js'",
        "export { c } from '../automations/index.js'",
        'import {\n  d,\n  e,\n} from "../automations/payment-chase/chase-payment.js"',
        "const f = await import('../automations/daily-summary/daily-summary.js')",
        "import '../automations/reports/index.js'",
        "import { g } from '../leads/queries.js'",
      ].join('\n'),
    }
    expect(crossings([file], (f) => sources[f]!)).toHaveLength(6)
  })

  it('reactions name only declared events, and internal events are never webhooks', () => {
    const reactions = composition.domains.flatMap((d) => ('reactions' in d ? (d.reactions ?? []) : []))
    expect(reactions.length).toBeGreaterThan(5)
    for (const r of reactions) for (const type of r.on) expect([...composition.registry.events, ...composition.internalEvents], r.name).toContain(type)
    for (const e of composition.internalEvents) expect(composition.registry.events).not.toContain(e)
    const typo = { name: 'probe', on: ['lead.creatd' as const], afterCommit: () => {} }
    expect(() => new EventReactions([typo], { recorded: composition.registry.events, internal: composition.internalEvents })).toThrow(/no domain declares/)
  })
})
