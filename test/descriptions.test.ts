// What tool descriptions tell an agent (issue 21, "Say what happens next"): they name next steps the
// way the caller's transport calls them (tools in tools/list, routes in OpenAPI and /docs), and a
// call that sets an automation going, or a workflow that reaches the client, says so beforehand: the
// automations each call of one job's journey really started (automation_runs, and the outbox for the
// instant response, which records no run) must be named in that tool's description.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Type from 'typebox'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createRegistry } from '../src/domains/index.js'
import { defineOperation, type AnyOperation } from '../src/core/operation.js'
import { toolForRoute } from '../src/core/next-step.js'
import { reviewedTool } from '../src/transports/mcp/catalogue.js'
import { workflowType } from '../src/temporal/contract.js'
import { instantResponseDefinition } from '../src/domains/automations/instant-response/instant-response.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp, rpc } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const registry = createRegistry()
const ROUTE = /\b(GET|POST|PUT|PATCH|DELETE) (?:\/api\/v1)?(\/[\w\-./:{}]*[\w}])/g

/** Every description of a tool: its own and each of its schemas' fields'. */
function descriptionsOf(op: AnyOperation): string[] {
  const out = [op.description]
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return
    for (const [key, child] of Object.entries(node)) {
      if (key === 'description' && typeof child === 'string') out.push(child)
      else walk(child)
    }
  }
  const { inputSchema, outputSchema } = reviewedTool(op)
  walk(inputSchema)
  walk(outputSchema)
  return out
}

/** Routes a tool's descriptions name although a tool serves them, as "tool: route (the tool)". */
function routesNamed(op: AnyOperation): string[] {
  return descriptionsOf(op).flatMap((text) => [...text.matchAll(ROUTE)].flatMap(([route, method, path]) => {
    const serving = toolForRoute(registry, method!, path!)
    return serving ? [`${op.name}: ${route} (${serving.name})`] : []
  }))
}

describe('descriptions name tools, not routes', () => {
  it('no tool names a route that a tool serves, in its description or its fields', () => {
    expect(registry.mcpTools().flatMap(routesNamed)).toEqual([])
  })

  it('finds one that does', () => {
    const probe = defineOperation({
      name: 'probe.links', domain: 'probe', title: 't', description: 'Links are set with PATCH /api/v1/settings/reviews.', access: { permission: 'read' }, cost: 'read', annotations: {},
      input: Type.Object({ plan: Type.Optional(Type.String({ description: 'See GET /plans' })), at: Type.Optional(Type.String({ description: 'GET /nowhere' })) }),
      output: Type.Object({}),
      run: async () => ({}),
    })
    expect(routesNamed(probe)).toEqual(['probe.links: PATCH /api/v1/settings/reviews (reviews.update_settings)', 'probe.links: GET /plans (billing.list_plans)'])
  })
})

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
let client: Client
beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

describe('each transport reads the next step its own way', () => {
  it('tools/list names the tool; OpenAPI and /docs name its route, in descriptions and fields', async () => {
    const listed = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { names: ['reviews.platforms', 'billing.create_checkout'] } }, { key: company.api_key })
    const [platforms, checkout] = listed.body.result.tools
    expect(platforms.description).toContain('Set links with reviews.update_settings.')
    expect(checkout.inputSchema.properties.plan_slug.description).toContain('billing.list_plans')

    const openapi = (await app.call('GET', '/api/v1/openapi.json')).body
    expect(openapi.paths['/reviews/platforms'].get.description).toContain('Set links with PATCH /api/v1/settings/reviews.')
    const planSlug = openapi.paths['/billing/checkout'].post.requestBody.content['application/json'].schema.properties.plan_slug
    expect(planSlug.description).toContain('GET /api/v1/plans')
    // A tool without a route keeps its name: REST callers learn it exists.
    expect(openapi.paths['/jobs'].post.description).toContain('workflows.schedule_job')

    const docs = (await app.call('GET', '/api/v1/docs')).body
    const endpoint = docs.endpoints.find((e: { operation: string }) => e.operation === 'reviews.platforms')
    expect(endpoint.description).toContain('Set links with PATCH /api/v1/settings/reviews.')
  })
})

describe('side effects are named before the call', () => {
  const instantResponse = workflowType(instantResponseDefinition)

  /** The automations started since `known` (workflow ids already seen), by key. */
  async function automationsStarted(known: Set<string>): Promise<{ keys: string[]; workflows: number }> {
    const runs = await app.owner<{ workflow_id: string; automation: string }[]>`
      select workflow_id, automation from automation_runs where company_id = ${company.company_id}`
    const outbox = await app.owner<{ workflow_id: string; workflow_type: string }[]>`
      select workflow_id, workflow_type from workflow_outbox where company_id = ${company.company_id}`
    const fresh = outbox.filter((w) => !known.has(w.workflow_id))
    const keys = [
      ...runs.filter((r) => !known.has(r.workflow_id)).map((r) => r.automation),
      ...fresh.filter((w) => w.workflow_type === instantResponse).map(() => 'instant_response'),
    ]
    for (const id of [...runs.map((r) => r.workflow_id), ...outbox.map((w) => w.workflow_id)]) known.add(id)
    return { keys: [...new Set(keys)].sort(), workflows: fresh.length }
  }

  it('every automation a call starts is named in its description, and a call that starts workflows is open-world', async () => {
    // The automations that are off by default are turned on, so their starts are seen too.
    await tool(client, 'reviews.update_settings', { links: { google: 'https://g.page/r/descriptions-test' }, default_platform: 'google' })
    for (const workflow_id of ['review_booster', 'referral_program']) await tool(client, 'workflows.toggle', { workflow_id, enabled: true })
    await tool(client, 'payments.connect_account')
    const known = new Set<string>()
    await automationsStarted(known)

    const seen: Record<string, string[]> = {}
    async function call(name: string, args: Record<string, unknown>) {
      const result = await tool(client, name, args)
      const { keys, workflows } = await automationsStarted(known)
      const op = registry.get(name)!
      for (const key of keys) expect(op.description, `${name} starts ${key}`).toContain(key)
      // Every workflow this journey starts messages the client (a delivery, a follow-up, a chase, ...).
      if (workflows) expect(op.annotations.openWorldHint, `${name} starts workflows that reach the client`).toBe(true)
      seen[name] = [...(seen[name] ?? []), ...keys]
      return result
    }

    const { lead } = await call('leads.create', { name: 'Jane Citizen', phone: '0412 345 678', email: 'jane@example.com.au' })
    const { quote } = await call('quotes.create', { lead_id: lead.id, line_items: [{ description: 'Hot water system', quantity: 1, unitPrice: 2975 }] })
    await call('quotes.send', { quote_id: quote.id, send_email: true })
    const accepted = await call('quotes.update', { quote_id: quote.id, status: 'Accepted' })
    await call('jobs.complete', { job_id: accepted.quote.job_id, satisfaction_rating: 5 })
    await call('invoicing.generate', { job_id: accepted.quote.job_id, send_email: true })
    // A second job, invoiced without sending: its payment link is the first send.
    const second = await call('jobs.create', { lead_id: lead.id, title: 'Tap washer', amount: 110 })
    await call('jobs.complete', { job_id: second.job.id })
    await call('invoicing.generate', { job_id: second.job.id })
    await call('payments.send_link', { job_id: second.job.id })

    // What the journey set going, as the code does it; the check above is only as good as this is complete.
    expect(seen).toEqual({
      'leads.create': ['instant_response'],
      'quotes.create': [],
      'quotes.send': ['follow_up_quote'],
      'quotes.update': [],
      'jobs.complete': ['referral_program', 'review_booster', 'review_booster'],
      'invoicing.generate': ['chase_payment'],
      'jobs.create': [],
      'payments.send_link': ['chase_payment'],
    })
  })
})
