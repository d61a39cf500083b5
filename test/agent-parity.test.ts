// Every operation is reachable by an agent with only an MCP client, every lifecycle write also over
// REST, and an error's next step is named the way the caller calls things: a tool over MCP, a route
// over REST (src/core/next-step.ts). Derived from the registry: nothing here lists operations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createRegistry } from '../src/domains/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const registry = createRegistry()
const built = registry.operations.filter((op) => !op.planned)
const LIFECYCLE = ['quotes', 'jobs', 'clients', 'services', 'invoicing', 'payments']

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

const rest = (method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key: company.api_key, body })

describe('parity', () => {
  it('every operation but onboard (how a key is first obtained) is a tool, listed by tools/list', async () => {
    expect(built.filter((op) => op.mcp === false).map((op) => op.name)).toEqual(['onboard'])
    const listed = new Set<string>()
    let cursor: string | undefined
    do {
      const page = await client.listTools(cursor ? { cursor } : {})
      for (const t of page.tools) listed.add(t.name)
      cursor = page.nextCursor
    } while (cursor)
    const missing = registry.operations.filter((op) => op.name !== 'onboard' && !listed.has(op.name)).map((op) => op.name)
    expect(missing).toEqual([])
  })

  it('every lifecycle write (quotes, jobs, clients, services, invoices, payments) has a REST route', () => {
    const writes = built.filter((op) => LIFECYCLE.includes(op.domain) && op.annotations.readOnlyHint !== true)
    expect(writes.length).toBeGreaterThan(10)
    expect(writes.filter((op) => !op.rest).map((op) => op.name)).toEqual([])
  })

  it('quotes and jobs go from create to complete over REST alone', async () => {
    const lead = await rest('POST', '/leads', { name: 'Rest Only', phone: '0412 600 001' })
    expect(lead.status).toBe(201)
    const quote = await rest('POST', '/quotes', { lead_id: lead.body.lead.id, line_items: [{ description: 'Hot water system', quantity: 1, unitPrice: 2975 }] })
    expect(quote.status).toBe(201)
    const quoteId = quote.body.quote.id
    const updated = await rest('PATCH', `/quotes/${quoteId}`, { notes: 'Includes removal of the old unit' })
    expect(updated.status).toBe(200)
    const job = await rest('POST', '/jobs', { lead_id: lead.body.lead.id, title: 'Install hot water', amount: 3272.5 })
    expect(job.status).toBe(201)
    const completed = await rest('POST', `/jobs/${job.body.job.id}/complete`, {})
    expect(completed.status).toBe(200)
    expect(completed.body.job.status).toBe('Completed')
    // The same job as MCP sees it: one store behind both.
    expect((await tool(client, 'jobs.list', {})).jobs.map((j: { id: string }) => j.id)).toContain(job.body.job.id)
  })
})

describe('next steps in the caller\'s own terms', () => {
  it('no payment account: REST is told the route, MCP the tool, and the tool connects it', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Pays Online', phone: '0412 600 003' })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Replace valve', amount: 330 })
    await tool(client, 'jobs.complete', { job_id: job.id })
    await tool(client, 'invoicing.generate', { job_id: job.id })
    const overRest = await rest('POST', `/jobs/${job.id}/payment-link`, {})
    expect(overRest.status).toBe(409)
    expect(overRest.body).toMatchObject({ error: 'payment_account_required', next_step: 'POST /api/v1/payments/account' })
    expect(overRest.body.message).toContain('POST /api/v1/payments/account')

    const overMcp = await toolError(client, 'payments.send_link', { job_id: job.id })
    expect(overMcp).toMatchObject({ error: 'payment_account_required', next_step: 'payments.connect_account' })
    expect(overMcp.message).toContain('the payments.connect_account tool')
    expect(overMcp.message).not.toContain('/api/v1/payments/account')
    // The step it names is there to take.
    const connected = await tool(client, 'payments.connect_account', {})
    expect(connected).toBeTruthy()
    expect((await tool(client, 'payments.account', {}))).toBeTruthy()
  })
  it('with the account connected, a link for a job without an invoice names invoicing.generate over MCP and its route over REST', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'No Invoice Yet', phone: '0412 600 002' })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Fix tap', amount: 220 })
    const overMcp = await toolError(client, 'payments.send_link', { job_id: job.id })
    expect(overMcp).toMatchObject({ error: 'conflict', next_step: 'invoicing.generate' })
    expect(overMcp.message).toContain('invoicing.generate')
    expect(overMcp.message).not.toContain('/api/v1')

    const overRest = await rest('POST', `/jobs/${job.id}/payment-link`, {})
    expect(overRest.status).toBe(409)
    expect(overRest.body).toMatchObject({ error: 'conflict', next_step: 'POST /api/v1/invoices' })
    expect(overRest.body.message).toContain('POST /api/v1/invoices')
    expect(overRest.body.message).not.toContain('invoicing.generate')
  })

})
