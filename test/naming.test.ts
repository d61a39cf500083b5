// The naming rule for the public contract (docs/decisions.md, "Naming"), checked over the whole
// catalogue. The expected spellings come from SPEC.md, through the copy in test/fixtures/spec/.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import Type from 'typebox'
import { createRegistry } from '../src/domains/index.js'
import { defineOperation, type AnyOperation } from '../src/core/operation.js'
import { plain } from '../src/transports/openapi.js'
import { acceptAliases } from '../src/core/aliases.js'
import { parseInput } from '../src/core/validation.js'
import { SPEC_CAMEL_CASE as SPEC_CAMEL, SPEC_RESOURCE_FIELDS } from './helpers/spec-data.js'

const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/
const camelOutputs = JSON.parse(readFileSync(new URL('./fixtures/camel-case-outputs.json', import.meta.url), 'utf8')) as { operations: Record<string, string[]> }

type Node = { properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; allOf?: Node[]; oneOf?: Node[]; minProperties?: number; required?: string[] }

/** Every argument name of an input schema, with its path. */
function argumentNames(node: Node, path = ''): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = []
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    out.push({ name, path: path + name })
    out.push(...argumentNames(child, `${path}${name}.`))
  }
  if (node.items) out.push(...argumentNames(node.items, `${path}[].`))
  for (const member of node.anyOf ?? []) out.push(...argumentNames(member, path))
  return out
}

/** Every property name of an output schema, through arrays, unions and intersections. */
function outputNames(node: Node): string[] {
  const names = Object.entries(node.properties ?? {}).flatMap(([name, child]) => [name, ...outputNames(child)])
  if (node.items) names.push(...outputNames(node.items))
  for (const member of [...(node.anyOf ?? []), ...(node.allOf ?? []), ...(node.oneOf ?? [])]) names.push(...outputNames(member))
  return names
}

/** Per operation, the output names that are neither snake_case nor a spelling the spec uses, sorted. */
function camelCaseOutputs(operations: AnyOperation[]): Record<string, string[]> {
  const found: Record<string, string[]> = {}
  for (const op of operations) {
    if (op.planned || !op.output) continue
    const names = [...new Set(outputNames(plain(op.output) as Node).filter((n) => !SNAKE.test(n) && !SPEC_CAMEL.has(n)))].sort()
    if (names.length) found[op.name] = names
  }
  return found
}

/** Breaches of the rule, one line each; an empty list means the catalogue keeps it. */
function namingViolations(operations: AnyOperation[]): string[] {
  const problems: string[] = []
  for (const op of operations) {
    const input = plain(op.input) as Node
    for (const { name, path } of argumentNames(input)) {
      if (!SNAKE.test(name) && !SPEC_CAMEL.has(name)) problems.push(`${op.name}: argument ${path} is neither snake_case nor a spelling the spec uses`)
    }
    if (/\.update$/.test(op.name) && !op.planned && (input.minProperties ?? 0) < 2) {
      problems.push(`${op.name}: an update must say in its schema that it needs a field besides the id (minProperties 2)`)
    }
  }
  return problems
}

const registry = createRegistry()

describe('naming rule', () => {
  it('holds for every tool and REST operation', () => {
    expect(namingViolations(registry.operations)).toEqual([])
  })

  it('fails for a tool that breaks it', () => {
    const broken = defineOperation({
      name: 'probe.update', domain: 'probe', title: 't', description: 'a tool breaking the rule', access: { permission: 'read' }, cost: 'read', annotations: {},
      input: Type.Object({ probe_id: Type.String(), newColour: Type.String(), Bad_Name: Type.Optional(Type.String()) }),
      output: Type.Object({}),
      run: async () => ({}),
    })
    expect(namingViolations([broken])).toEqual([
      'probe.update: argument newColour is neither snake_case nor a spelling the spec uses',
      'probe.update: argument Bad_Name is neither snake_case nor a spelling the spec uses',
      'probe.update: an update must say in its schema that it needs a field besides the id (minProperties 2)',
    ])
  })

  it('names outputs in snake_case unless the spec spells the name, and the names still to rename only shrink', () => {
    // test/fixtures/camel-case-outputs.json records the camelCase output names that predate the rule
    // (renaming them changes the public contract, so it goes domain by domain). A new tool or a new
    // field cannot add to it; a rename must remove its names from it.
    expect(camelCaseOutputs(registry.operations)).toEqual(camelOutputs.operations)
    const probe = defineOperation({
      name: 'probe.show', domain: 'probe', title: 't', description: 'a tool whose output breaks the rule', access: { permission: 'read' }, cost: 'read', annotations: {},
      input: Type.Object({}), output: Type.Object({ probe: Type.Object({ createdAt: Type.String(), updatedAt: Type.String(), colour_name: Type.String() }), rows: Type.Array(Type.Object({ nextStep: Type.String() })) }),
      run: async () => ({ probe: { createdAt: '', updatedAt: '', colour_name: '' }, rows: [] }),
    })
    expect(camelCaseOutputs([probe])).toEqual({ 'probe.show': ['nextStep', 'updatedAt'] })
  })

  it('keeps the spec\'s resource fields exactly as the spec names them', () => {
    const outputs: Record<keyof typeof SPEC_RESOURCE_FIELDS, { op: string; pick: (o: Node) => Node }> = {
      Lead: { op: 'leads.list', pick: (o) => o.properties!.leads!.items! },
      Quote: { op: 'quotes.list', pick: (o) => o.properties!.quotes!.items! },
      Job: { op: 'jobs.list', pick: (o) => o.properties!.jobs!.items! },
      Client: { op: 'clients.list', pick: (o) => o.properties!.clients!.items! },
    }
    for (const [resource, { op, pick }] of Object.entries(outputs)) {
      const fields = SPEC_RESOURCE_FIELDS[resource as keyof typeof SPEC_RESOURCE_FIELDS]
      expect(fields.length, resource).toBeGreaterThan(3)
      const listed = Object.keys(pick(plain(registry.get(op)!.output) as Node).properties ?? {})
      expect(listed, `${op} output`).toEqual(expect.arrayContaining(fields))
    }
  })

  it('accepts the snake_case spelling of the spec\'s camelCase arguments, and refuses both at once when they differ', () => {
    const op = registry.get('leads.create')!
    expect(parseInput(op.input, acceptAliases(op.input, { name: 'A', service_type: 'Blocked drain' }))).toMatchObject({ serviceType: 'Blocked drain' })
    const quote = registry.get('quotes.create')!
    const lines = acceptAliases(quote.input, { lead_id: 'x', line_items: [{ description: 'd', quantity: 1, unit_price: 10 }] })
    expect((lines.line_items as any[])[0]).toEqual({ description: 'd', quantity: 1, unitPrice: 10 })
    expect(() => acceptAliases(op.input, { name: 'A', serviceType: 'x', service_type: 'y' })).toThrow(/validation/)
    // A snake_case name takes no alias: an agent's camelCase typo is still reported.
    const onboard = registry.get('onboard')!
    expect(acceptAliases(onboard.input, { businessName: 'x' })).toEqual({ businessName: 'x' })
  })

  it('puts the rules a schema can express in the schema', () => {
    const checkout = plain(registry.get('billing.create_checkout')!.input) as { properties: Record<string, { enum?: string[] }> }
    expect(checkout.properties.plan_slug!.enum).toEqual(['starter', 'professional', 'business'])
    for (const name of ['leads.update', 'quotes.update', 'jobs.update', 'services.update']) {
      expect((plain(registry.get(name)!.input) as Node).minProperties, name).toBe(2)
    }
  })
})
