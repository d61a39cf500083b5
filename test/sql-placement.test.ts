// One convention (docs/architecture.md): a domain's SQL lives in its queries.ts (or queries/<topic>.ts
// when one file would be too long); service files hold the business logic and call those functions.
// This counts the SQL statements written anywhere else in src/domains/ and fails on any. Every domain
// has moved; NOT_MOVED_YET stays for a domain whose move has to wait, and can only shrink: a listed
// domain whose SQL has all moved fails the third test, so its name comes off in the same change.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/** Every domain has moved (issue 20); a domain whose SQL has to wait would be listed here, and the list only shrinks. */
const NOT_MOVED_YET: string[] = []

const DOMAINS_DIR = fileURLToPath(new URL('../src/domains/', import.meta.url))

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return typeScriptFiles(path)
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : []
  })
}

/**
 * SQL statements and fragments in a file: tagged templates (tx`...`, sql`...`, deps.db.app`...`;
 * the domains use tagged templates for SQL only) and .unsafe(...) calls.
 */
function countSql(source: string): number {
  const file = ts.createSourceFile('file.ts', source, ts.ScriptTarget.Latest, true)
  let count = 0
  const visit = (node: ts.Node) => {
    if (ts.isTaggedTemplateExpression(node)) count++
    else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'unsafe') count++
    ts.forEachChild(node, visit)
  }
  visit(file)
  return count
}

/** queries.ts, or any file under a queries/ folder, of a domain. */
const isQueriesFile = (path: string) => {
  const parts = path.split(sep)
  return parts.at(-1) === 'queries.ts' || parts.slice(1, -1).includes('queries')
}

/** Per domain, the files outside its queries files that hold SQL, with their statement counts. */
function sqlOutsideQueries(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const path of typeScriptFiles(DOMAINS_DIR)) {
    const rel = relative(DOMAINS_DIR, path)
    if (!rel.includes(sep) || isQueriesFile(rel)) continue
    const count = countSql(readFileSync(path, 'utf8'))
    if (!count) continue
    const domain = rel.split(sep)[0]!
    found.set(domain, [...(found.get(domain) ?? []), `${rel} (${count})`])
  }
  return found
}

describe('SQL placement', () => {
  const found = sqlOutsideQueries()

  it('counts tagged templates and unsafe calls, not other templates', () => {
    expect(countSql('const a = `select 1`; await tx`select ${a}`; await deps.db.app<Row[]>`select 2`; tx.unsafe(q)')).toBe(3)
    expect(countSql('await tx`update t set ${tx`a = 1`}`')).toBe(2)
  })

  it('a moved domain has no SQL outside queries.ts or queries/', () => {
    const offending = [...found].filter(([domain]) => !NOT_MOVED_YET.includes(domain)).flatMap(([, files]) => files)
    expect(offending, 'move these statements into the domain\'s queries.ts').toEqual([])
  })

  it('the list of domains not moved yet only shrinks: each still has SQL to move', () => {
    const done = NOT_MOVED_YET.filter((domain) => !found.has(domain))
    expect(done, 'take these domains off NOT_MOVED_YET').toEqual([])
  })
})
