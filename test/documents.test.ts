// The generated documents (OpenAPI, /docs, well-known cards) and the contract between them and
// what the endpoints really return.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Validator } from '@seriousme/openapi-schema-validator'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { createRegistry } from '../src/domains/index.js'
import { describeErrors, validatorFor } from '../src/core/validation.js'
import { openApiPath } from '../src/core/operation.js'
import { ERROR_CODES, statusOfCode } from '../src/core/errors.js'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.stop())
const registry = createRegistry()

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, version 1.0.0', async () => {
    const res = await app.call('GET', '/api/v1/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.1.0')
    expect(res.body.info.version).toBe('1.0.0')
    const validator = new Validator()
    const result = await validator.validate(res.body)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('holds every REST endpoint with its request and response schemas', async () => {
    const doc = (await app.call('GET', '/api/v1/openapi.json')).body
    const rest = registry.restOperations()
    expect(rest.map((op) => op.rest!.path)).toEqual(expect.arrayContaining(['/onboard', '/plans', '/billing', '/usage', '/billing/checkout', '/billing/portal']))
    for (const op of rest) {
      const entry = doc.paths[openApiPath(op.rest!.path)]?.[op.rest!.method.toLowerCase()]
      expect(entry, `${op.rest!.method} ${op.rest!.path}`).toBeDefined()
      expect(entry.operationId).toBe(op.name)
      const status = String(op.rest!.status ?? 200)
      expect(entry.responses[status].content['application/json'].schema.type).toBe('object')
      if (op.rest!.method === 'POST') expect(entry.requestBody.content['application/json'].schema.type).toBe('object')
      expect(entry.security).toEqual(op.access === 'public' ? [] : [{ bearerAuth: [] }])
    }
    const onboardOp = doc.paths['/onboard'].post
    expect(onboardOp.requestBody.content['application/json'].schema.required).toEqual(['business_name', 'email', 'plan'])
    expect(Object.keys(onboardOp.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '429']))
    expect(doc.paths['/keys/{id}'].delete.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true })
  })
})

describe('discovery documents', () => {
  it('GET /api/v1/docs lists every REST endpoint', async () => {
    const res = await app.call('GET', '/api/v1/docs')
    expect(res.status).toBe(200)
    const listed = res.body.endpoints.map((e: any) => `${e.method} ${e.path}`)
    for (const op of registry.restOperations()) expect(listed).toContain(`${op.rest!.method} /api/v1${op.rest!.path}`)
    expect(res.body.errors.map((e: any) => e.error)).toEqual(expect.arrayContaining(['validation_error', 'unauthorized', 'forbidden', 'rate_limited', 'internal_error']))
    // Every code the service can answer with is documented, with the status it always has.
    expect(res.body.errors.map((e: any) => [e.error, e.status]).sort()).toEqual(ERROR_CODES.map((c) => [c, statusOfCode(c)]).sort())
  })

  it('GET /api/v1/docs states the limits the service enforces', async () => {
    const { body } = await app.call('GET', '/api/v1/docs')
    const key = (await onboard(app, { plan: 'business' })).api_key
    // The documented body limit is the one enforced: one byte under it is read, one over is refused.
    const padding = (total: number) => 'x'.repeat(total - JSON.stringify({ name: 'Limit Larry', message: '' }).length)
    const under = await app.call('POST', '/api/v1/leads', { key, raw: JSON.stringify({ name: 'Limit Larry', message: padding(body.limits.request_body_bytes) }) })
    expect(under.status).toBe(400) // read, then refused by the message field's own maxLength
    expect(under.body.error).toBe('validation_error')
    const over = await app.call('POST', '/api/v1/leads', { key, raw: JSON.stringify({ name: 'Limit Larry', message: padding(body.limits.request_body_bytes + 1) }) })
    expect(over.status).toBe(413)
    const offset = await app.call('GET', `/api/v1/leads?offset=${body.limits.list_offset_maximum + 1}`, { key })
    expect(offset.body.messages).toContainEqual(expect.stringMatching(/^offset:/))
    expect((await app.call('GET', `/api/v1/leads?offset=${body.limits.list_offset_maximum}`, { key })).status).toBe(200)
  })

  it('the agent card and MCP server description are served from the site root', async () => {
    const card = await app.call('GET', '/.well-known/agent-card.json')
    expect(card.status).toBe(200)
    expect(card.body.supportedInterfaces.map((i: any) => i.url)).toContain(app.runtime.deps.urls.apiBase)
    expect(card.body.skills.map((s: any) => s.id)).toContain('billing')
    const mcp = await app.call('GET', '/.well-known/mcp-server.json')
    expect(mcp.body).toMatchObject({ version: '2.3.0', remotes: [{ type: 'streamable-http', url: `${app.runtime.deps.urls.apiBase}/mcp` }, { type: 'sse' }] })
    // The tool list itself is behind the catalogue URL the document names (test/wellknown.test.ts checks the format).
    const catalogue = await fetch(mcp.body._meta['io.modelcontextprotocol.registry/publisher-provided'].catalogue)
    const names = ((await catalogue.json()) as any).tools.map((t: any) => t.name)
    expect(names).toEqual(expect.arrayContaining(['billing.usage', 'billing.status', 'billing.list_plans', 'billing.create_checkout', 'billing.get_portal']))
    expect(names).not.toContain('onboard')
  })
})

/** A lead with a sent quote and a completed job, so list responses are not empty. */
async function seedQuoteAndJob(app: TestApp, companyId: string) {
  const { createQuote, sendQuote } = await import('../src/domains/quotes/service.js')
  const { createJob, completeJob } = await import('../src/domains/jobs/service.js')
  const { createLead } = await import('../src/domains/leads/service.js')
  const deps = app.runtime.deps
  const principal = { companyId } as any
  const { lead } = await createLead(deps, principal, { name: 'Seeded Client', email: 'seed@example.com' }, null)
  const { quote } = await createQuote(deps, principal, { lead_id: lead.id, line_items: [{ description: 'Work', quantity: 2, unitPrice: 150 }] })
  await sendQuote(deps, principal, { quote_id: quote.id })
  const { job } = await createJob(deps, principal, { lead_id: lead.id, quote_id: quote.id })
  await completeJob(deps, principal, { job_id: job.id })
}

describe('responses match their documented schemas', () => {
  it('for every endpoint built so far', async () => {
    const onboardRes = await app.call('POST', '/api/v1/onboard', { body: { business_name: 'Contract Test Co', email: `contract+${Date.now()}@example.com`, plan: 'starter', stripe_payment_method_id: 'pm_card_visa' } })
    const key = onboardRes.body.api_key
    const pro = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_visa' })
    await seedQuoteAndJob(app, pro.company_id)
    const calls: [string, { status: number; body: unknown }][] = [
      ['onboard', onboardRes],
      ['billing.list_plans', await app.call('GET', '/api/v1/plans')],
      ['billing.status', await app.call('GET', '/api/v1/billing', { key })],
      ['billing.usage', await app.call('GET', '/api/v1/usage', { key })],
      ['billing.create_checkout', await app.call('POST', '/api/v1/billing/checkout', { key, body: { plan_slug: 'business' } })],
      ['billing.get_portal', await app.call('POST', '/api/v1/billing/portal', { key })],
      ['keys.create', await app.call('POST', '/api/v1/keys', { key, body: { name: 'r', scopes: ['jobs'], permission: 'read' } })],
      ['keys.list', await app.call('GET', '/api/v1/keys', { key })],
      ['leads.create', await app.call('POST', '/api/v1/leads', { key: pro.api_key, body: { name: 'Contract Lead', phone: '0400 000 000', email: 'c@example.com' } })],
      ['leads.list', await app.call('GET', '/api/v1/leads', { key: pro.api_key })],
      ['quotes.list', await app.call('GET', '/api/v1/quotes', { key: pro.api_key })],
      ['jobs.list', await app.call('GET', '/api/v1/jobs', { key: pro.api_key })],
      ['clients.list_completed', await app.call('GET', '/api/v1/clients', { key: pro.api_key })],
    ]
    for (const [name, res] of calls) {
      const op = registry.get(name)!
      expect(res.status, name).toBe(op.rest!.status ?? 200)
      const ok = validatorFor(op.output).Check(res.body)
      expect(ok ? [] : describeErrors(op.output, res.body), name).toEqual([])
    }
  })
})

describe('operational basics', () => {
  it('/healthz and /readyz answer', async () => {
    expect((await app.call('GET', '/healthz')).body).toEqual({ status: 'ok' })
    const ready = await app.call('GET', '/readyz')
    expect(ready.status).toBe(200)
    expect(ready.body.checks).toEqual({ database: true, temporal: true })
  })

  it('logs one structured JSON line per request with its request id', async () => {
    const company = await onboard(app)
    const res = await app.call('GET', '/api/v1/usage', { key: company.api_key, headers: { 'x-request-id': 'trace-abc-123' } })
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123')
    const line = app.logs.find((l) => l.requestId === 'trace-abc-123')
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/api/v1/usage', status: 200, companyId: company.company_id })
    const generated = await app.call('GET', '/api/v1/plans')
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(JSON.stringify(app.logs)).not.toContain(company.api_key)
  })

  it('unknown routes are 404 not_found in the error envelope', async () => {
    const res = await app.call('GET', '/api/v1/no-such-thing')
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
  })
})

describe('internal errors', () => {
  let failing: TestApp
  beforeAll(async () => {
    const { failingProbe } = await import('./helpers/probes.js')
    failing = await startTestApp({ extraOperations: [failingProbe] })
  })
  afterAll(() => failing?.stop())

  it('500 internal_error with no stack or SQL in the body; details go to the log', async () => {
    const res = await failing.call('GET', '/api/v1/probe/fails')
    expect(res.status).toBe(500)
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message'])
    expect(res.body.error).toBe('internal_error')
    const text = JSON.stringify(res.body)
    for (const leak of ['table_that_does_not_exist', 'hunter2', 'select', 'at ', '.ts']) expect(text).not.toContain(leak)
    const logged = failing.logs.find((l) => l.msg === 'unhandled error' && l.requestId === res.headers.get('x-request-id'))
    expect(JSON.stringify(logged)).toContain('table_that_does_not_exist')
  })
})
