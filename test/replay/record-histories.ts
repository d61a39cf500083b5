// Records the replay fixtures: `npm run record-histories` (vitest with test/replay/record.config.ts,
// so the test setup starts Postgres databases, Temporal and stripe-mock as for the suite). Real
// scenarios run through the test app, with a "day" of one second: at least one run of every workflow
// type the composition defines, and the cases replay must keep covering (an approval decided both
// ways, a gated action approved, a follow-up and a chase stopped by their signal, a job flow nudged by jobs.complete). Each history is fetched with
// getHandle(id).fetchHistory() and written beside each workflow (src/domains/*/workflows/histories/). Re-record after a deliberate,
// versioned change to a workflow; a failing replay without such a change is a nondeterminism bug.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client, WorkflowExecutionInfo } from '@temporalio/client'
import { temporal as proto } from '@temporalio/proto'
import { onboard, startTestApp, type TestApp } from '../helpers/app.js'
import { connectHttp } from '../helpers/mcp.js'
import { startReceiver, type Receiver } from '../helpers/receiver.js'
import { tool } from '../helpers/tools.js'
import { waitFor } from '../helpers/wait.js'
import { composition } from '../../src/domains/index.js'
import { connectClient } from '../../src/temporal/connection.js'
import { workflowType } from '../../src/temporal/contract.js'
import { dailySummaryWorkflowId } from '../../src/domains/automations/daily-summary/workflows/daily-summary.js'
import { invoiceChaseWorkflowId } from '../../src/domains/automations/payment-chase/workflows/invoice-chase.js'
import { quoteFollowUpWorkflowId } from '../../src/domains/automations/quote-follow-up/workflows/quote-follow-up.js'
import { referralOfferWorkflowId } from '../../src/domains/automations/client-outreach/workflows/referral-offer.js'
import { historiesDir, writeFixtures, type HistoryFixture } from './histories.js'

const EventType = proto.api.enums.v1.EventType
// A workflow whose folder holds its own recorder (workflows/histories/record.ts, run by the same
// command) is recorded there; this file records the rest.
const TYPES = composition.workflows.map(workflowType).filter((t) => !existsSync(join(historiesDir(t), 'record.ts'))).sort()

let app: TestApp
let temporal: Client
let receiver: Receiver
const clients: McpClient[] = []
const schedules: string[] = []

beforeAll(async () => {
  receiver = await startReceiver()
  app = await startTestApp({
    // A trial of two seconds (so its workflow runs to the end), automation days of one second,
    // webhook retries 50 ms apart.
    config: { AUTOMATION_DAY_MS: 1000, TRIAL_DAYS: 2 / 86_400, WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50' },
  })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  for (const c of clients) await c.close()
  if (temporal) {
    for (const id of schedules) await temporal.schedule.getHandle(id).delete().catch(() => {})
    // Runs still waiting (a reminder due in an hour) have no worker once the app stops.
    if (app) {
      for await (const wf of temporal.workflow.list({ query: `TaskQueue = "${app.config.TEMPORAL_TASK_QUEUE}" AND ExecutionStatus = "Running"` })) {
        await temporal.workflow.getHandle(wf.workflowId, wf.runId).terminate('histories recorded').catch(() => {})
      }
    }
    await temporal.connection.close()
  }
  await app?.stop()
  await receiver?.close()
})

async function runsOnTaskQueue(): Promise<WorkflowExecutionInfo[]> {
  const runs: WorkflowExecutionInfo[] = []
  for await (const wf of temporal.workflow.list({ query: `TaskQueue = "${app.config.TEMPORAL_TASK_QUEUE}"` })) runs.push(wf)
  return runs
}

const waitForTimer = async (workflowId: string) => {
  const handle = temporal.workflow.getHandle(workflowId)
  await waitFor(() => handle.fetchHistory(), (h) => h.events!.some((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED), 10_000, 50)
}

it('records a history of every workflow type and of each case replay must cover', async () => {
  /** workflowId -> case, for the runs recorded under a name of their own. */
  const cases = new Map<string, string>()

  // trialLifecycle: a paid plan without a payment method runs as a (two-second) trial.
  const trial = await onboard(app, { plan: 'business' })
  expect(trial.plan.subscription.trial_ends_at).toBeTruthy()

  // Company A: everything without approval.
  const a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const ca = await connectHttp(app, a.api_key)
  clients.push(ca)
  expect((await app.call('PATCH', '/api/v1/settings/company', { key: a.api_key, body: { state: 'NSW' } })).status).toBe(200)
  expect((await app.call('PATCH', '/api/v1/settings/reviews', { key: a.api_key, body: { links: { google: 'https://g.page/r/test-replay' }, default_platform: 'google' } })).status).toBe(200)
  expect((await app.call('POST', '/api/v1/webhooks', { key: a.api_key, body: { url: receiver.url('/delivered'), events: ['lead.created'] } })).status).toBe(201)
  // Two follow-ups and two reminders, three "days" apart: the accept and the payment arrive between them.
  await tool(ca, 'workflows.toggle', { workflow_id: 'follow_up_quote', enabled: true, settings: { delays_days: [1, 4] } })
  await tool(ca, 'workflows.toggle', { workflow_id: 'chase_payment', enabled: true, settings: { steps: [{ offset_days: 1, tone: 'friendly' }, { offset_days: 4, tone: 'firm' }] } })
  await tool(ca, 'workflows.toggle', { workflow_id: 'review_booster', enabled: true, settings: { delay_days: 0, reminder_days: 1 } })
  await tool(ca, 'workflows.toggle', { workflow_id: 'referral_program', enabled: true, settings: { delay_days: 0, reward_type: 'credit', reward_amount: 40 } })
  await tool(ca, 'workflows.toggle', { workflow_id: 'daily_summary', enabled: true, settings: { time: '07:00' } })
  schedules.push(dailySummaryWorkflowId({ companyId: a.company_id }))

  let phone = 100
  const lead = async (c: McpClient, name: string) =>
    (await tool(c, 'leads.create', { name, phone: `0412 345 ${phone++}`, email: `replay${phone}@example.com.au`, serviceType: 'Plumbing', suburb: 'Parramatta' })).lead
  const job = async (c: McpClient, name: string) => (await tool(c, 'jobs.create', { lead_id: (await lead(c, name)).id, title: 'Replace tap', amount: 330 })).job
  const sentQuote = async (c: McpClient, name: string) => {
    const { quote } = await tool(c, 'quotes.create', { lead_id: (await lead(c, name)).id, line_items: [{ description: 'Fan', quantity: 1, unitPrice: 200 }] })
    const sent = await tool(c, 'quotes.send', { quote_id: quote.id, send_sms: true })
    return { quote, token: new URL(sent.public_url).pathname.split('/')[2]! }
  }
  const sentInvoice = async (c: McpClient, key: string, name: string) => {
    const done = await job(c, name)
    await tool(c, 'jobs.complete', { job_id: done.id })
    const { invoice } = await tool(c, 'invoicing.generate', { job_id: done.id, due_in_days: 0 })
    expect((await app.call('POST', `/api/v1/invoices/${invoice.id}/send`, { key, body: {} })).status).toBe(200)
    return invoice
  }

  // instantResponse, reminderTimer (due in a second), processLead.
  const first = await lead(ca, 'Replay Lead')
  await tool(ca, 'reminders.create', { title: 'Call back', due_at: new Date(Date.now() + 1000).toISOString(), lead_id: first.id, notify: 'email' })
  await tool(ca, 'workflows.process_lead', { lead_id: first.id })
  // deliverMessages and quoteFollowUp: one quote followed up to the end, one stopped when accepted.
  const followed = await sentQuote(ca, 'Replay Quote')
  cases.set(quoteFollowUpWorkflowId({ companyId: a.company_id, quoteId: followed.quote.id, sendNumber: 1 }), 'completed')
  const accepted = await sentQuote(ca, 'Replay Accepted Quote')
  const acceptedId = quoteFollowUpWorkflowId({ companyId: a.company_id, quoteId: accepted.quote.id, sendNumber: 1 })
  cases.set(acceptedId, 'stopped-by-accept')
  // Accepted once its first follow-up went out, before the second.
  await waitFor(() => app.owner`select 1 from communications where idempotency_key like ${`quote-follow-up:${accepted.quote.id}:1:1:%`}`, (r) => r.length === 1, 10_000, 50)
  const accept = await fetch(`${app.url}/q/${accepted.token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Replay+Quote', redirect: 'manual' })
  expect(accept.status).toBe(303)
  // invoiceChase: one through its cadence, one stopped by a payment.
  const chased = await sentInvoice(ca, a.api_key, 'Replay Invoice')
  cases.set(invoiceChaseWorkflowId({ companyId: a.company_id, invoiceId: chased.id }), 'completed')
  const paid = await sentInvoice(ca, a.api_key, 'Replay Paid Invoice')
  const paidId = invoiceChaseWorkflowId({ companyId: a.company_id, invoiceId: paid.id })
  cases.set(paidId, 'stopped-by-payment')
  // Paid after its first reminder, before the second.
  await waitFor(() => app.owner`select 1 from communications where idempotency_key like ${`invoice-chase:${paid.id}:step1:%`}`, (r) => r.length === 1, 10_000, 50)
  expect((await app.call('POST', `/api/v1/invoices/${paid.id}/payments`, { key: a.api_key, body: { amount: 330, method: 'cash' } })).status).toBe(201)
  // teamNotify without approval; scheduleJob.
  const notice = await tool(ca, 'workflows.team_notify', { message: 'Replay: van 2 in for service', recipients: ['0412 888 001'] })
  cases.set(notice.workflowId, 'sent')
  await tool(ca, 'workflows.schedule_job', { job_id: (await job(ca, 'Replay Schedule')).id })
  // reviewBooster and referralOffer: a five-star completion; then triggerInvoice on that job.
  const rated = await job(ca, 'Replay Five Stars')
  await tool(ca, 'jobs.complete', { job_id: rated.id, satisfaction_rating: 5 })
  cases.set(referralOfferWorkflowId({ companyId: a.company_id, jobId: rated.id }), 'sent')
  await tool(ca, 'workflows.trigger_invoice', { job_id: rated.id })
  // quoteToInvoice: an accepted quote's job, completed (a jobChanged nudge) while the run waits for it.
  const { quote: won } = await tool(ca, 'quotes.create', { lead_id: (await lead(ca, 'Replay Job Flow')).id, line_items: [{ description: 'Heat pump', quantity: 1, unitPrice: 900 }] })
  await tool(ca, 'quotes.update', { quote_id: won.id, status: 'Accepted' })
  const flow = await tool(ca, 'workflows.quote_to_invoice', { quote_id: won.id })
  cases.set(flow.workflow_id, 'nudged-by-job-complete')
  const [made] = await waitFor(() => app.owner<{ id: string }[]>`select id from jobs where quote_id = ${won.id}`, (r) => r.length === 1, 10_000)
  await new Promise((r) => setTimeout(r, 1500)) // at least one periodic recheck first (a "day" is a second)
  await tool(ca, 'jobs.complete', { job_id: made!.id })
  // dailySummary: one fire of the company's Temporal Schedule.
  await temporal.schedule.getHandle(dailySummaryWorkflowId({ companyId: a.company_id })).trigger()

  // Company B: decisions on held actions. (Webhook deliveries are recorded by their own folder's recorder.)
  const b = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const cb = await connectHttp(app, b.api_key)
  clients.push(cb)
  await tool(cb, 'workflows.toggle', { workflow_id: 'team_notify', require_approval: true })
  await tool(cb, 'workflows.toggle', { workflow_id: 'referral_program', enabled: true, require_approval: true, settings: { delay_days: 0, reward_type: 'credit', reward_amount: 40 } })
  const approved = await tool(cb, 'workflows.team_notify', { message: 'Replay: approved', recipients: ['0412 888 002'] })
  const rejected = await tool(cb, 'workflows.team_notify', { message: 'Replay: rejected', recipients: ['0412 888 003'] })
  cases.set(approved.workflowId, 'approved')
  cases.set(rejected.workflowId, 'rejected')
  const starred = await job(cb, 'Replay Gated Referral')
  await tool(cb, 'jobs.complete', { job_id: starred.id, satisfaction_rating: 5 })
  const referralId = referralOfferWorkflowId({ companyId: b.company_id, jobId: starred.id })
  cases.set(referralId, 'approved')
  // Decide while each run waits on its expiry timer (a decision that beats the timer is another, shorter history).
  for (const id of [approved.workflowId, rejected.workflowId, referralId]) await waitForTimer(id)
  expect((await tool(cb, 'workflows.approve_action', { action_id: approved.actionId })).action.status).toBe('executed')
  expect((await tool(cb, 'workflows.reject_action', { action_id: rejected.actionId })).action.status).toBe('rejected')
  const held = (await tool(cb, 'workflows.pending_actions', { workflow_id: 'referral_program' })).actions
  expect(held).toHaveLength(1)
  expect((await tool(cb, 'workflows.approve_action', { action_id: held[0].id })).action.status).toBe('executed')

  // Every named case finished as its name says, and every type has a finished run.
  for (const id of cases.keys()) await temporal.workflow.getHandle(id).result()
  expect(await temporal.workflow.getHandle(acceptedId).result()).toMatchObject({ outcome: 'stopped', reason: 'quote accepted' })
  expect(await temporal.workflow.getHandle(paidId).result()).toMatchObject({ outcome: 'stopped', reason: 'invoice paid' })
  expect(await temporal.workflow.getHandle(approved.workflowId).result()).toMatchObject({ status: 'executed' })
  expect(await temporal.workflow.getHandle(rejected.workflowId).result()).toMatchObject({ status: 'rejected' })
  const runs = await waitFor(runsOnTaskQueue, (rs) => {
    const finished = new Set(rs.filter((wf) => wf.status.name !== 'RUNNING').map((wf) => wf.type))
    return TYPES.every((t) => finished.has(t))
  }, 20_000, 250)

  // The named cases, plus one finished run of each type (its status as the case) where none is named.
  const chosen = runs.filter((wf) => cases.has(wf.workflowId))
  for (const type of TYPES) {
    if (chosen.some((wf) => wf.type === type)) continue
    chosen.push(runs.find((wf) => wf.type === type && wf.status.name === 'COMPLETED')!)
  }
  const fixtures: Omit<HistoryFixture, 'name'>[] = []
  for (const wf of chosen) {
    expect(wf.status.name, `${wf.type} ${wf.workflowId}`).toBe('COMPLETED')
    const history = await temporal.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory()
    fixtures.push({ workflowType: wf.type, workflowId: wf.workflowId, case: cases.get(wf.workflowId) ?? 'completed', history })
  }
  const names = writeFixtures(fixtures)
  expect(new Set(names).size, 'one fixture per type and case').toBe(names.length)
  console.info(`recorded ${names.length} histories: ${names.join(', ')}`)
}, 120_000)
