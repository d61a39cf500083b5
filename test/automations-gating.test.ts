// Approval-gated quote follow-ups and payment-chase reminders on the real service and Temporal dev
// server, with a "day" of one second (AUTOMATION_DAY_MS; an approval hour is a 24th of it). With
// require_approval on, each step waits in workflows.pending_actions with what it would send to
// whom; approve sends it once, reject never, expiry nothing, and a step whose quote was accepted or
// invoice paid while it waited is not sent on a late approval. The oracle for "sent" is a local
// Twilio gateway: what reached it is what was sent, whatever our tables say.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { Worker } from '@temporalio/worker'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { startLocalTwilio, type LocalTwilio } from './helpers/twilio-server.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowBundle } from '../src/temporal/worker.js'
import { invoiceChaseWorkflowId } from '../src/domains/automations/payment-chase/workflows/invoice-chase.js'
import { quoteFollowUpWorkflowId } from '../src/domains/automations/quote-follow-up/workflows/quote-follow-up.js'

const DAY_MS = 1000
/** Approval hours that make a window of this many milliseconds: an hour is DAY_MS / 24. */
const hoursFor = (ms: number) => Math.round((ms * 24) / DAY_MS)
let app: TestApp
let gateway: LocalTwilio
let temporal: Client
let other: Awaited<ReturnType<typeof onboard>>
const clients: McpClient[] = []

beforeAll(async () => {
  gateway = await startLocalTwilio()
  app = await startTestApp({
    config: {
      AUTOMATION_DAY_MS: DAY_MS, SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: gateway.accountSid, TWILIO_AUTH_TOKEN: gateway.authToken,
      TWILIO_FROM: gateway.from, TWILIO_BASE_URL: gateway.url,
    },
  })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  other = await onboard(app)
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await temporal?.connection.close()
  await app?.stop()
  await gateway?.close()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const rest = (method: string, path: string, body: unknown, key: string) => app.call(method, `/api/v1${path}`, { key, body })
const smsTo = (e164: string, containing: string) => gateway.messages.filter((m) => m.form.To === e164 && m.form.Body!.includes(containing))
const result = (workflowId: string) => temporal.workflow.getHandle(workflowId).result()
const runOf = async (workflowId: string) => (await app.owner`select status, outcome, details from automation_runs where workflow_id = ${workflowId}`)[0]

interface Tenant { companyId: string; key: string; client: McpClient }

/**
 * A company of its own, its API key and MCP client: the tests wait on approval windows and timers,
 * so they run at once (describe.concurrent), each gating its own automations, which a shared
 * company could not. Numbers are unique across tests, so the shared gateway tells their SMS apart.
 */
async function ownCompany(): Promise<Tenant> {
  const own = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const ownClient = await connectHttp(app, own.api_key)
  clients.push(ownClient)
  return { companyId: own.company_id, key: own.api_key, client: ownClient }
}

async function gate(t: Tenant, workflowId: 'chase_payment' | 'follow_up_quote', settings: Record<string, unknown>) {
  const res = await tool(t.client, 'workflows.toggle', { workflow_id: workflowId, enabled: true, require_approval: true, settings })
  expect(res.workflow).toMatchObject({ requireApproval: true, supportsApproval: true })
}

/** The pending action of a workflow run, once it is listed. */
async function pendingOf(t: Tenant, temporalWorkflowId: string, count = 1) {
  const list = await waitFor(() => tool(t.client, 'workflows.pending_actions', { workflow_id: temporalWorkflowId }), (l) => l.actions.length >= count, 10_000, 50)
  return list.actions[count - 1]
}

let phone = 500
async function sentInvoice(t: Tenant, amount = 440) {
  const local = `0412 987 ${String(phone++)}`
  const { lead } = await tool(t.client, 'leads.create', { name: 'Morgan Blake', phone: local, email: 'morgan@example.com.au' })
  const { job } = await tool(t.client, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount })
  await tool(t.client, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(t.client, 'invoicing.generate', { job_id: job.id, due_in_days: 0 })
  expect((await rest('POST', `/invoices/${invoice.id}/send`, {}, t.key)).status).toBe(200)
  return { invoice, e164: `+61${local.replace(/\s/g, '').slice(1)}`, workflowId: invoiceChaseWorkflowId({ companyId: t.companyId, invoiceId: invoice.id }) }
}

async function sentQuote(t: Tenant) {
  const local = `0412 345 ${String(phone++)}`
  const { lead } = await tool(t.client, 'leads.create', { name: 'Casey Nguyen', phone: local })
  const { quote } = await tool(t.client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Install ceiling fan', quantity: 1, unitPrice: 330 }] })
  const sent = await tool(t.client, 'quotes.send', { quote_id: quote.id, send_sms: true })
  return {
    quote, e164: `+61${local.replace(/\s/g, '').slice(1)}`, workflowId: quoteFollowUpWorkflowId({ companyId: t.companyId, quoteId: quote.id, sendNumber: 1 }),
    token: new URL(sent.public_url).pathname.split('/')[2]!,
  }
}

// Consecutive concurrent blocks run as one group: every test here waits on its own company's runs.
describe.concurrent('payment chase with approval on', () => {
  it('a reminder waits with what it would send to whom; approve sends it once (concurrent approvals included)', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'chase_payment', { steps: [{ offset_days: 1, tone: 'friendly' }], approval_expiry_hours: hoursFor(20_000) })
    const { invoice, e164, workflowId } = await sentInvoice(t)
    const action = await pendingOf(t, workflowId)
    expect(action).toMatchObject({
      workflow: 'chase_payment', temporalWorkflowId: workflowId, status: 'pending',
      messages: [{ channel: 'sms', to: e164, name: 'Morgan Blake', subject: null }],
    })
    expect(action.summary).toBe(`Friendly payment reminder (step 1) for invoice ${invoice.invoiceNumber}, $440.00 due, to Morgan Blake`)
    expect(action.messages[0].text).toContain('$440.00')
    // The window: 20 s of policy time from when it was listed.
    expect(Date.parse(action.expiresAt) - Date.parse(action.createdAt)).toBe(20_000)
    await sleep(500)
    expect(smsTo(e164, invoice.invoiceNumber)).toHaveLength(0)

    const [first, second] = await Promise.all([
      tool(t.client, 'workflows.approve_action', { action_id: action.id }),
      tool(t.client, 'workflows.approve_action', { action_id: action.id }),
    ])
    expect([first.alreadyDecided, second.alreadyDecided].sort()).toEqual([false, true])
    for (const answer of [first, second]) {
      expect(answer.action).toMatchObject({ status: 'executed', outcome: { sent: [{ channel: 'sms', to: e164 }], failed: [] } })
    }
    expect(await result(workflowId)).toMatchObject({ outcome: 'completed', held: [{ number: 1, decision: 'approved' }] })
    const sent = smsTo(e164, invoice.invoiceNumber)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.form.Body).toBe(action.messages[0].text)
    expect(await runOf(workflowId)).toMatchObject({ status: 'completed', details: [{ step: 'step 1: friendly', result: 'friendly reminder sent by sms' }] })
    // Another company cannot see or decide it.
    expect(await toolError(await connectHttp(app, other.api_key), 'workflows.approve_action', { action_id: action.id })).toMatchObject({ error: 'not_found' })
  })

  it('a rejected reminder is never sent; the cadence goes on and proposes the next step', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'chase_payment', { steps: [{ offset_days: 1, tone: 'friendly' }, { offset_days: 2, tone: 'firm' }], approval_expiry_hours: hoursFor(20_000) })
    const { invoice, e164, workflowId } = await sentInvoice(t)
    const first = await pendingOf(t, workflowId)
    const rejected = await tool(t.client, 'workflows.reject_action', { action_id: first.id, reason: 'called them instead' })
    expect(rejected.action).toMatchObject({ status: 'rejected', note: 'called them instead', outcome: null })
    const next = await waitFor(() => tool(t.client, 'workflows.pending_actions', { workflow_id: workflowId }), (l) => l.actions.length === 1 && l.actions[0].id !== first.id, 10_000, 50)
    expect(next.actions[0].summary).toMatch(/^Firm payment reminder \(step 2\)/)
    expect(smsTo(e164, invoice.invoiceNumber)).toHaveLength(0)
    expect((await tool(t.client, 'workflows.approve_action', { action_id: next.actions[0].id })).action.status).toBe('executed')
    expect(await result(workflowId)).toMatchObject({ outcome: 'completed', held: [{ number: 1, decision: 'rejected' }, { number: 2, decision: 'approved' }] })
    const sent = smsTo(e164, invoice.invoiceNumber)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.form.Body).toBe(next.actions[0].messages[0].text)
    expect((await runOf(workflowId))!.details.map((d: any) => [d.step, d.result])).toEqual([
      ['step 1: friendly', 'rejected: nothing sent'], ['step 2: firm', 'firm reminder sent by sms'],
    ])
    const [row] = await app.owner`select status from pending_actions where id = ${first.id}`
    expect(row!.status).toBe('rejected')
  })

  it('an unanswered reminder expires and sends nothing; approving it afterwards is a conflict', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'chase_payment', { steps: [{ offset_days: 1, tone: 'friendly' }], approval_expiry_hours: hoursFor(1_500) })
    const { invoice, e164, workflowId } = await sentInvoice(t)
    const action = await pendingOf(t, workflowId)
    expect(await result(workflowId)).toMatchObject({ outcome: 'completed', steps: [], held: [{ number: 1, decision: 'expired' }] })
    const [row] = await app.owner`select status, decided_at, outcome from pending_actions where id = ${action.id}`
    expect(row).toEqual({ status: 'expired', decided_at: null, outcome: null })
    expect(await toolError(t.client, 'workflows.approve_action', { action_id: action.id })).toMatchObject({ error: 'conflict' })
    expect(smsTo(e164, invoice.invoiceNumber)).toHaveLength(0)
    expect(await runOf(workflowId)).toMatchObject({ details: [{ step: 'step 1: friendly', result: 'expired without a decision: nothing sent' }] })
  })

  it('an invoice paid while its reminder waited: a late approval sends nothing and says why; the chase stops', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'chase_payment', { steps: [{ offset_days: 1, tone: 'friendly' }, { offset_days: 2, tone: 'firm' }], approval_expiry_hours: hoursFor(20_000) })
    const { invoice, e164, workflowId } = await sentInvoice(t)
    const action = await pendingOf(t, workflowId)
    expect((await rest('POST', `/invoices/${invoice.id}/payments`, { amount: 440, method: 'bank_transfer' }, t.key)).status).toBe(201)
    const late = await tool(t.client, 'workflows.approve_action', { action_id: action.id })
    expect(late).toMatchObject({ alreadyDecided: false, action: { status: 'failed', outcome: { sent: [], failed: [], stopped: 'invoice paid: nothing sent' } } })
    expect(await result(workflowId)).toMatchObject({ outcome: 'stopped', reason: 'invoice paid' })
    expect(await runOf(workflowId)).toMatchObject({ status: 'stopped', outcome: 'stopped: invoice paid' })
    await sleep(1500)
    expect(smsTo(e164, invoice.invoiceNumber)).toHaveLength(0)
    expect((await tool(t.client, 'workflows.pending_actions', { workflow_id: workflowId })).actions).toEqual([])
  })
})

describe.concurrent('quote follow-ups with approval on', () => {
  it('each follow-up waits; approve sends once, reject never, and the run replays from its history', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'follow_up_quote', { delays_days: [1, 2], approval_expiry_hours: hoursFor(20_000) })
    const { quote, e164, workflowId } = await sentQuote(t)
    const first = await pendingOf(t, workflowId)
    expect(first).toMatchObject({ workflow: 'follow_up_quote', messages: [{ channel: 'sms', to: e164, name: 'Casey Nguyen' }] })
    // unitPrice is ex GST: 330 + 10% = 363.
    expect(first.summary).toBe(`Follow-up 1 on quote ${quote.quoteNumber} ($363.00 incl. GST) to Casey Nguyen`)
    await sleep(300)
    expect(smsTo(e164, 'following up')).toHaveLength(0)
    expect((await tool(t.client, 'workflows.approve_action', { action_id: first.id })).action).toMatchObject({ status: 'executed' })
    const second = await waitFor(() => tool(t.client, 'workflows.pending_actions', { workflow_id: workflowId }), (l) => l.actions.length === 1 && l.actions[0].id !== first.id, 10_000, 50)
    expect(second.actions[0].messages[0].text).toContain('This is our last reminder')
    expect((await tool(t.client, 'workflows.reject_action', { action_id: second.actions[0].id })).action.status).toBe('rejected')
    expect(await result(workflowId)).toMatchObject({ outcome: 'completed', held: [{ number: 1, decision: 'approved' }, { number: 2, decision: 'rejected' }] })
    const sent = smsTo(e164, 'following up')
    expect(sent).toHaveLength(1)
    // The approved text is what went out (the comms layer appends the marketing opt-out).
    expect(sent[0]!.form.Body!.startsWith(first.messages[0].text)).toBe(true)
    expect((await runOf(workflowId))!.details.map((d: any) => d.result)).toEqual(['sent by sms', 'rejected: nothing sent'])
    // The gated run's recorded history replays against the worker's bundle.
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, await temporal.workflow.getHandle(workflowId).fetchHistory(), workflowId)
  })

  it('a quote accepted while its follow-up waited: a late approval sends nothing and the run stops', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'follow_up_quote', { delays_days: [1, 2], approval_expiry_hours: hoursFor(20_000) })
    const { e164, workflowId, token } = await sentQuote(t)
    const action = await pendingOf(t, workflowId)
    const accepted = await fetch(`${app.url}/q/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Casey+Nguyen', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    const late = await tool(t.client, 'workflows.approve_action', { action_id: action.id })
    expect(late.action).toMatchObject({ status: 'failed', outcome: { sent: [], stopped: 'quote accepted: nothing sent' } })
    expect(await result(workflowId)).toMatchObject({ outcome: 'stopped', reason: 'quote accepted' })
    await sleep(1500)
    expect(smsTo(e164, 'following up')).toHaveLength(0)
  })

  it('expiry sends nothing, and turning approval off sends the next follow-up directly', async ({ expect }) => {
    const t = await ownCompany()
    await gate(t, 'follow_up_quote', { delays_days: [1, 3], approval_expiry_hours: hoursFor(1_000) })
    const { e164, workflowId } = await sentQuote(t)
    const action = await pendingOf(t, workflowId)
    await waitFor(() => app.owner`select status from pending_actions where id = ${action.id}`, (r) => r[0]!.status === 'expired', 10_000, 50)
    await tool(t.client, 'workflows.toggle', { workflow_id: 'follow_up_quote', require_approval: false })
    expect(await result(workflowId)).toMatchObject({ outcome: 'completed', held: [{ number: 1, decision: 'expired' }], followUps: [{ number: 2, sent: ['sms'] }] })
    const sent = smsTo(e164, 'following up')
    expect(sent).toHaveLength(1)
    expect(sent[0]!.form.Body).toContain('This is our last reminder')
  })
})
