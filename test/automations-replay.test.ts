// The quote follow-up and payment chase workflows replay deterministically: real runs (one that ran
// its course, one stopped by a signal) are fetched from Temporal and replayed against the bundle the
// worker runs. A nondeterministic change (a new activity, a reordered timer) fails here.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { Worker } from '@temporalio/worker'
import { temporal as proto } from '@temporalio/proto'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowBundle } from '../src/temporal/worker.js'

const EventType = proto.api.enums.v1.EventType
let app: TestApp
let temporal: Client
let company: Awaited<ReturnType<typeof onboard>>
let client: McpClient
beforeAll(async () => {
  app = await startTestApp({ config: { AUTOMATION_DAY_MS: 1000 } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  await app.owner`insert into automation_settings (company_id, automation, enabled, settings) values
    (${company.company_id}, 'follow_up_quote', true, ${app.owner.json({ delays_days: [1, 2] } as never)}),
    (${company.company_id}, 'chase_payment', true, ${app.owner.json({ steps: [{ offset_days: 1, tone: 'friendly' }, { offset_days: 2, tone: 'firm', channel: 'both' }] } as never)})`
})
afterAll(async () => {
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
})

const count = (history: Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>, type: number) =>
  history.events!.filter((e) => e.eventType === type).length

async function replay(workflowId: string, expected: { timers: number; signals: number }) {
  const handle = temporal.workflow.getHandle(workflowId)
  await handle.result()
  const history = await handle.fetchHistory()
  expect(count(history, EventType.EVENT_TYPE_TIMER_STARTED)).toBeGreaterThanOrEqual(expected.timers)
  expect(count(history, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED)).toBe(expected.signals)
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)
}

async function quoteSent() {
  const { lead } = await tool(client, 'leads.create', { name: 'Replay Quote', phone: '0412 111 222', email: 'rq@example.com.au' })
  const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Fan', quantity: 1, unitPrice: 200 }] })
  const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true })
  return { quote, token: new URL(sent.public_url).pathname.split('/')[2]! }
}

async function invoiceSent() {
  const { lead } = await tool(client, 'leads.create', { name: 'Replay Invoice', phone: '0412 333 444', email: 'ri@example.com.au' })
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, amount: 330 })
  await tool(client, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id, due_in_days: 0 })
  expect((await app.call('POST', `/api/v1/invoices/${invoice.id}/send`, { key: company.api_key, body: {} })).status).toBe(200)
  return invoice
}

describe('recorded histories replay against the worker bundle', () => {
  it('quoteFollowUp: a run that sent both follow-ups, and one stopped by the accept signal', async () => {
    const full = await quoteSent()
    const stopped = await quoteSent()
    const stoppedId = `quote-follow-up:${company.company_id}:${stopped.quote.id}:1`
    await waitFor(() => app.owner`select 1 from communications where idempotency_key like ${`quote-follow-up:${stopped.quote.id}:1:1:%`}`, (r) => r.length === 1, 10_000, 100)
    const accepted = await fetch(`${app.url}/q/${stopped.token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Replay+Quote', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    await replay(`quote-follow-up:${company.company_id}:${full.quote.id}:1`, { timers: 1, signals: 0 })
    expect(await temporal.workflow.getHandle(stoppedId).result()).toMatchObject({ outcome: 'stopped', reason: 'quote accepted' })
    await replay(stoppedId, { timers: 1, signals: 1 })
  })

  it('invoiceChase: a run through its cadence, and one stopped by a payment', async () => {
    const full = await invoiceSent()
    const paid = await invoiceSent()
    const paidId = `invoice-chase:${company.company_id}:${paid.id}`
    await waitFor(() => app.owner`select 1 from communications where idempotency_key like ${`invoice-chase:${paid.id}:step1:%`}`, (r) => r.length === 1, 10_000, 100)
    expect((await app.call('POST', `/api/v1/invoices/${paid.id}/payments`, { key: company.api_key, body: { amount: 330, method: 'cash' } })).status).toBe(201)
    await replay(`invoice-chase:${company.company_id}:${full.id}`, { timers: 1, signals: 0 })
    expect(await temporal.workflow.getHandle(paidId).result()).toMatchObject({ outcome: 'stopped', reason: 'invoice paid' })
    await replay(paidId, { timers: 1, signals: 1 })
  })

  it('quoteToInvoice: a run that waited for its job (rechecks on its timer), was nudged by jobs.complete and invoiced', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Replay Job Flow', phone: '0412 555 666', email: 'rjf@example.com.au' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Heat pump', quantity: 1, unitPrice: 900 }] })
    await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })
    const { workflow_id: id } = await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id })
    const [job] = await waitFor(() => app.owner<{ id: string }[]>`select id from jobs where quote_id = ${quote.id}`, (r) => r.length === 1, 10_000, 100)
    await new Promise((r) => setTimeout(r, 1500)) // at least one periodic recheck (a "day" is a second here)
    await tool(client, 'jobs.complete', { job_id: job!.id })
    expect(await temporal.workflow.getHandle(id).result()).toMatchObject({ stopped: false })
    await replay(id, { timers: 1, signals: 1 })
  })
})
