// One spelling listed per argument (issue 21, "What to build" 7): an input object never lists two
// names for the same argument (jobId beside job_id, unit_price beside unitPrice), so an agent never
// has to guess which one counts. The other spelling of a listed camelCase name is still accepted,
// unlisted, by core/aliases.ts, so callers that used it keep working. Checked over the registry.
import { describe, expect, it } from 'vitest'
import Type from 'typebox'
import { createRegistry } from '../src/domains/index.js'
import { acceptAliases, snakeCase } from '../src/core/aliases.js'
import { defineOperation, type AnyOperation } from '../src/core/operation.js'
import { reviewedTool } from '../src/transports/mcp/catalogue.js'
import { plain } from '../src/transports/openapi.js'

type Node = { properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; oneOf?: Node[]; allOf?: Node[] }

/** The name two spellings of one argument share: lower case, no underscores (jobId, job_id -> jobid). */
const normalised = (name: string) => name.toLowerCase().replace(/_/g, '')

/** Every object in a schema that lists two spellings of one argument, as "path: a / b". */
function twoSpellings(node: Node, path: string, out: string[]): string[] {
  const seen = new Map<string, string>()
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const other = seen.get(normalised(name))
    if (other) out.push(`${path}: ${other} / ${name}`)
    seen.set(normalised(name), name)
    twoSpellings(child, `${path}.${name}`, out)
  }
  if (node.items) twoSpellings(node.items, `${path}[]`, out)
  for (const member of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) twoSpellings(member, path, out)
  return out
}

const registry = createRegistry()
const operations = [...new Set([...registry.mcpTools(), ...registry.restOperations()])]
// As tools/list and OpenAPI list it: the MCP listing adds idempotency_key to write tools.
const listedInput = (op: AnyOperation) => (op.mcp === false ? plain(op.input) : reviewedTool(op).inputSchema) as Node

describe('one spelling per argument', () => {
  it('no input object of any tool or REST operation lists two spellings of one argument', () => {
    expect(operations.flatMap((op) => twoSpellings(listedInput(op), op.name, []))).toEqual([])
  })

  it('finds an object that does, however deep', () => {
    const probe = defineOperation({
      name: 'probe.chase', domain: 'probe', title: 't', description: 'lists two spellings', access: { permission: 'read' }, cost: 'read', annotations: {},
      input: Type.Object({
        jobId: Type.String(), job_id: Type.Optional(Type.String()),
        lines: Type.Array(Type.Object({ unitPrice: Type.Number(), unit_price: Type.Number() })),
      }),
      output: Type.Object({}),
      run: async () => ({}),
    })
    expect(twoSpellings(plain(probe.input) as Node, probe.name, [])).toEqual(['probe.chase: jobId / job_id', 'probe.chase.lines[]: unitPrice / unit_price'])
  })

  it("accepts the unlisted snake_case spelling of every listed camelCase argument (invoicing.chase's jobId as job_id)", () => {
    let checked = 0
    for (const op of operations) {
      for (const name of Object.keys(listedInput(op).properties ?? {}).filter((n) => /[A-Z]/.test(n))) {
        const alias = snakeCase(name)
        expect(acceptAliases(op.input, { [alias]: 'x' }), `${op.name}: ${alias}`).toEqual({ [name]: 'x' })
        checked++
      }
    }
    expect(acceptAliases(registry.get('invoicing.chase')!.input, { job_id: 'j' })).toEqual({ jobId: 'j' })
    expect(checked).toBeGreaterThanOrEqual(4) // jobId (twice), quoteId, serviceType, ...
  })
})
