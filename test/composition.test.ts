// The domain list is the only place domains are named; everything else is derived from it, and
// REST and MCP reach every operation through the one pipeline (core/execute.ts).
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Type from 'typebox'
import { composition, DOMAINS } from '../src/domains/index.js'
import { composeDomains } from '../src/core/composition.js'
import { defineDomain } from '../src/core/domain.js'
import { defineOperation } from '../src/core/operation.js'
import { checkWorkflowModules } from '../src/temporal/worker.js'
import { workflowModules } from '../src/temporal/workflow-bundle.js'
import { workflowTable } from '../src/temporal/workflow-table.js'
import { workflowType } from '../src/temporal/contract.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'

describe('the domain list', () => {
  it('src/core imports no domain', () => {
    const dir = new URL('../src/core/', import.meta.url)
    for (const file of readdirSync(dir)) {
      const source = readFileSync(new URL(file, dir), 'utf8')
      expect(source, file).not.toMatch(/from '\.\.\/domains\//)
    }
  })

  it('derives the registry, resources, toolsets, events, usage counts and activities from the domains', () => {
    const echo = defineOperation({
      name: 'gadgets.echo', domain: 'gadgets', title: 'Echo', description: 'Echo a word back, to prove composition.', access: { permission: 'read' },
      cost: 'read', annotations: { readOnlyHint: true, idempotentHint: true }, input: Type.Object({ word: Type.String() }), output: Type.Object({ word: Type.String() }),
      run: async (_ctx, input) => ({ word: input.word }),
    })
    const gadgets = defineDomain({
      name: 'gadgets', description: 'A domain added in one folder.', operations: [echo],
      resources: [{ uri: 'service://gadgets', name: 'Gadgets', description: 'All gadgets.' }],
      activities: () => ({ polishGadget: async (input: { id: string }) => ({ polished: input.id }) }),
      events: ['gadget.polished'], usageCounts: { gadgets: 'select 7' },
    })
    const composed = composeDomains([...DOMAINS, gadgets])
    expect(composed.registry.get('gadgets.echo')).toBe(echo)
    expect(composed.registry.mcpTools().at(-1)).toBe(echo)
    expect(composed.registry.resources.map((r) => r.uri)).toContain('service://gadgets')
    expect(composed.registry.toolsets.at(-1)).toEqual({ name: 'gadgets', description: 'A domain added in one folder.' })
    expect(composed.registry.events).toContain('gadget.polished')
    expect(Object.keys(composed.createActivities({} as never))).toContain('polishGadget')
    expect(() => defineDomain({ name: 'other', description: '', operations: [echo] })).toThrow(/registered in 'other'/)
    expect(() => composeDomains([gadgets, gadgets])).toThrow(/listed twice/)
  })

  it('the bundle holds exactly the workflows the domains define, each from the file named after it', async () => {
    const modules = workflowModules()
    expect(() => checkWorkflowModules(composition.workflows, modules)).not.toThrow()
    for (const definition of composition.workflows) {
      const module = modules.find((m) => m.type === workflowType(definition))!
      expect((await import(module.path))[module.type], module.path).toBe(definition.workflow)
    }
    const [first, ...rest] = composition.workflows
    expect(() => checkWorkflowModules(rest, modules)).toThrow(new RegExp(`holds workflow ${first!.workflow.name}, which no domain defines`))
    expect(() => checkWorkflowModules(composition.workflows, [])).toThrow(/no src\/domains\/\*\/workflows\/ file exports/)
  })

  it('the workflow table is generated from the composition, and docs/architecture.md keeps no copy of it', () => {
    // The id column is the definition's own id builder run on placeholders (<companyId>, <leadId>, ...).
    const table = workflowTable(composition.workflows, workflowModules()).split('\n').slice(2)
    expect(table).toHaveLength(composition.workflows.length)
    expect(table).toContain('| invoiceChase | `invoice-chase:<companyId>:<invoiceId>` | USE_EXISTING / ALLOW_DUPLICATE_FAILED_ONLY | src/domains/automations/payment-chase/workflows/invoice-chase.ts | '
      + composition.workflows.find((w) => workflowType(w) === 'invoiceChase')!.description + ' |')
    const doc = readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8')
    expect(doc).toContain('npm run -s workflows')
    expect(doc).not.toContain('| Workflow type |')
  })

  it('every event a service emits is in the catalogue, or declared internal', () => {
    const written = new Set<string>()
    const walk = (dir: URL) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(new URL(`${entry.name}/`, dir))
        else for (const m of readFileSync(new URL(entry.name, dir), 'utf8').matchAll(/type: '([a-z]+\.[a-z_]+)'/g)) written.add(m[1]!)
      }
    }
    walk(new URL('../src/domains/', import.meta.url))
    expect(written.size).toBeGreaterThan(5)
    // Public events are the catalogue; internal ones (reactions only, never written) are declared apart.
    for (const event of written) expect([...composition.registry.events, ...composition.internalEvents], event).toContain(event)
    for (const event of composition.internalEvents) expect(composition.registry.events, event).not.toContain(event)
  })
})

describe('one pipeline for REST and MCP', () => {
  // A write operation bound to both transports; the pipeline's audit line says which one called.
  const stamp = defineOperation({
    name: 'probe.stamp', domain: 'probe', title: 'Stamp', description: 'Records a stamp (test probe).', access: { scope: 'leads', permission: 'write' },
    cost: 'write', annotations: { readOnlyHint: false }, input: Type.Object({ jobId: Type.String() }, { additionalProperties: false }),
    output: Type.Object({ jobId: Type.String(), transport: Type.String() }), rest: { method: 'POST', path: '/probe/stamp', status: 201 },
    run: async (ctx, input) => ({ jobId: input.jobId, transport: ctx.transport }),
  })
  let app: TestApp
  let company: Awaited<ReturnType<typeof onboard>>
  beforeAll(async () => {
    app = await startTestApp({ extraOperations: [stamp] })
    company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  })
  afterAll(() => app?.stop())

  it('both transports authorise, validate, apply aliases, replay idempotent writes and audit through execute()', async () => {
    const rest = await app.call('POST', '/api/v1/probe/stamp', { key: company.api_key, body: { job_id: 'R1' }, headers: { 'idempotency-key': 'stamp-1' } })
    expect(rest.status).toBe(201)
    expect(rest.body).toEqual({ jobId: 'R1', transport: 'rest' })
    const call = (args: Record<string, unknown>) =>
      rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe.stamp', arguments: args } }, { key: company.api_key })
    const mcp = await call({ job_id: 'M1', idempotency_key: 'stamp-2' })
    expect(mcp.body.result.structuredContent).toEqual({ jobId: 'M1', transport: 'mcp' })
    // The same key is the same request whichever transport sends it.
    const replay = await call({ jobId: 'R1', idempotency_key: 'stamp-1' })
    expect(replay.body.result.structuredContent).toEqual(rest.body)
    const invalid = await call({ jobId: 5 })
    expect(invalid.body.result.structuredContent).toMatchObject({ error: 'validation_error' })
    const restInvalid = await app.call('POST', '/api/v1/probe/stamp', { key: company.api_key, body: { jobId: 5 } })
    expect(restInvalid.body).toEqual(invalid.body.result.structuredContent)

    const audit = app.logs.filter((l) => l.audit && l.operation === 'probe.stamp').map((l) => `${l.transport}:${l.outcome}`)
    expect(audit).toEqual(['rest:ok', 'mcp:ok', 'mcp:replayed'])
  })
})
