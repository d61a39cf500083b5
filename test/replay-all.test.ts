// Every workflow the service defines replays deterministically, driven by the registry: one
// scenario on the real service (MCP, REST and the Temporal dev server, with a "day" of one second)
// makes at least one run of each workflow type; every run on this test's task queue is fetched from
// Temporal, finished or still open (a partial history replays too), and replayed against the
// bundle the worker runs. A nondeterministic change (a new activity, a reordered timer) fails here,
// and so does a workflow added to a domain without a step below that runs it: the replayed types
// must equal the types in composition.workflows.
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client, WorkflowExecutionInfo, WorkflowHandle } from '@temporalio/client'
import { Worker, type WorkflowBundle } from '@temporalio/worker'
import { temporal as proto } from '@temporalio/proto'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { startReceiver, type Receiver } from './helpers/receiver.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { composition } from '../src/domains/index.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowType } from '../src/temporal/contract.js'
import { workflowBundle } from '../src/temporal/worker.js'

const EventType = proto.api.enums.v1.EventType
type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>
const EXPECTED_TYPES = composition.workflows.map(workflowType).sort()

let app: TestApp
let temporal: Client
let receiver: Receiver
let bundle: WorkflowBundle
let company: Awaited<ReturnType<typeof onboard>>
let client: McpClient | undefined

beforeAll(async () => {
  receiver = await startReceiver()
  ;[app, bundle] = await Promise.all([
    // A trial of two seconds (so its workflow runs to the end), automation days of one second.
    startTestApp({ config: { AUTOMATION_DAY_MS: 1000, TRIAL_DAYS: 2 / 86_400, WEBHOOK_ALLOW_PRIVATE_TARGETS: true } }),
    workflowBundle(),
  ])
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  await client?.close()
  if (temporal) {
    if (company) await temporal.schedule.getHandle(`daily-summary:${company.company_id}`).delete().catch(() => {})
    // Runs still waiting (a payment chase due in two weeks of test days) have no worker once the app stops.
    if (app) {
      for await (const wf of temporal.workflow.list({ query: `TaskQueue = "${app.config.TEMPORAL_TASK_QUEUE}" AND ExecutionStatus = "Running"` })) {
        await temporal.workflow.getHandle(wf.workflowId, wf.runId).terminate('replay-all test finished').catch(() => {})
      }
    }
    await temporal.connection.close()
  }
  await app?.stop()
  await receiver?.close()
})

/** Every run this test's worker ran (every workflow carries its task queue). */
async function runsOnTaskQueue(): Promise<WorkflowExecutionInfo[]> {
  const runs: WorkflowExecutionInfo[] = []
  for await (const wf of temporal.workflow.list({ query: `TaskQueue = "${app.config.TEMPORAL_TASK_QUEUE}"` })) runs.push(wf)
  return runs
}

it('a recorded history of every workflow type the service defines replays against the worker bundle', async () => {
  const started = Date.now()
  const c = () => client!

  // trialLifecycle: a paid plan without a payment method runs as a (two-second) trial.
  const trial = await onboard(app, { plan: 'business' })
  expect(trial.plan.subscription.trial_ends_at).toBeTruthy()

  // Everything else on a paying company.
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  const key = company.api_key
  expect((await app.call('PATCH', '/api/v1/settings/company', { key, body: { state: 'NSW' } })).status).toBe(200)
  expect((await app.call('PATCH', '/api/v1/settings/reviews', { key, body: { links: { google: 'https://g.page/r/test-replay' }, default_platform: 'google' } })).status).toBe(200)
  // webhookDelivery: a local receiver subscribed to new leads.
  const sub = await app.call('POST', '/api/v1/webhooks', { key, body: { url: receiver.url('/replay-all'), events: ['lead.created'] } })
  expect(sub.status).toBe(201)
  // Short cadences (days are seconds here); the client automations and the daily summary turned on.
  await tool(c(), 'workflows.toggle', { workflow_id: 'follow_up_quote', enabled: true, settings: { delays_days: [1] } })
  await tool(c(), 'workflows.toggle', { workflow_id: 'chase_payment', enabled: true, settings: { steps: [{ offset_days: 0, tone: 'friendly' }, { offset_days: 1, tone: 'firm' }] } })
  await tool(c(), 'workflows.toggle', { workflow_id: 'review_booster', enabled: true, settings: { delay_days: 0, reminder_days: 1 } })
  await tool(c(), 'workflows.toggle', { workflow_id: 'referral_program', enabled: true, settings: { delay_days: 0, reward_type: 'credit', reward_amount: 40 } })
  await tool(c(), 'workflows.toggle', { workflow_id: 'daily_summary', enabled: true, settings: { time: '07:00' } })

  let phone = 100
  const lead = async (name: string) =>
    (await tool(c(), 'leads.create', { name, phone: `0412 345 ${phone++}`, email: `replay${phone}@example.com.au`, serviceType: 'Plumbing', suburb: 'Parramatta' })).lead
  const job = async (name: string) => (await tool(c(), 'jobs.create', { lead_id: (await lead(name)).id, title: 'Replace tap', amount: 330 })).job

  // instantResponse and webhookDelivery: a lead with an Australian mobile.
  const first = await lead('Replay Lead')
  // reminderTimer: due in a second.
  await tool(c(), 'reminders.create', { title: 'Call back', due_at: new Date(Date.now() + 1000).toISOString(), lead_id: first.id, notify: 'email' })
  // processLead.
  await tool(c(), 'workflows.process_lead', { lead_id: first.id })
  // deliverMessages and quoteFollowUp: a quote sent by SMS.
  const { quote } = await tool(c(), 'quotes.create', { lead_id: first.id, line_items: [{ description: 'Fan', quantity: 1, unitPrice: 200 }] })
  await tool(c(), 'quotes.send', { quote_id: quote.id, send_sms: true })
  // invoiceChase: an invoice due today, sent.
  const chased = await job('Replay Invoice')
  await tool(c(), 'jobs.complete', { job_id: chased.id })
  const { invoice } = await tool(c(), 'invoicing.generate', { job_id: chased.id, due_in_days: 0 })
  expect((await app.call('POST', `/api/v1/invoices/${invoice.id}/send`, { key, body: {} })).status).toBe(200)
  // teamNotify.
  await tool(c(), 'workflows.team_notify', { message: 'Replay: van 2 in for service', recipients: ['0412 888 001'] })
  // scheduleJob.
  await tool(c(), 'workflows.schedule_job', { job_id: (await job('Replay Schedule')).id })
  // reviewBooster and referralOffer: a five-star completion; then triggerInvoice on that job.
  const rated = await job('Replay Five Stars')
  await tool(c(), 'jobs.complete', { job_id: rated.id, satisfaction_rating: 5 })
  await tool(c(), 'workflows.trigger_invoice', { job_id: rated.id })
  // quoteToInvoice: an accepted quote's job, completed while the run waits for it.
  const { quote: accepted } = await tool(c(), 'quotes.create', { lead_id: (await lead('Replay Job Flow')).id, line_items: [{ description: 'Heat pump', quantity: 1, unitPrice: 900 }] })
  await tool(c(), 'quotes.update', { quote_id: accepted.id, status: 'Accepted' })
  const flow = await tool(c(), 'workflows.quote_to_invoice', { quote_id: accepted.id })
  const [made] = await waitFor(() => app.owner<{ id: string }[]>`select id from jobs where quote_id = ${accepted.id}`, (r) => r.length === 1, 10_000)
  expect(made).toBeDefined()
  await tool(c(), 'jobs.complete', { job_id: made!.id })
  // dailySummary: one fire of the company's Temporal Schedule.
  await temporal.schedule.getHandle(`daily-summary:${company.company_id}`).trigger()

  // Wait until each type has a finished run (the trial, the one-day follow-up and chase, the review
  // reminder and the job flow take a few seconds); runs still waiting (process_lead's reminder, due
  // in an hour) replay as far as they got.
  expect(await temporal.workflow.getHandle(flow.workflow_id).result()).toMatchObject({ stopped: false })
  const runs = await waitFor(runsOnTaskQueue, (rs) => {
    const finished = new Set(rs.filter((wf) => wf.status.name !== 'RUNNING').map((wf) => wf.type))
    return EXPECTED_TYPES.every((t) => finished.has(t))
  }, 15_000, 250)

  // Each history past its first workflow task, so replay runs real workflow code.
  const histories: { workflowId: string; history: History; type: string; status: string }[] = []
  for (const wf of runs) {
    const handle = temporal.workflow.getHandle(wf.workflowId, wf.runId)
    const history = await waitFor(() => handle.fetchHistory(), (h) => h.events!.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED), 10_000)
    histories.push({ workflowId: wf.workflowId, history, type: wf.type, status: wf.status.name })
  }
  const failedRuns = histories.filter((h) => !['RUNNING', 'COMPLETED'].includes(h.status)).map((h) => `${h.type} ${h.workflowId}: ${h.status}`)
  expect(failedRuns, 'every run of the scenario completed or is still waiting').toEqual([])
  const unstarted = histories.filter((h) => !h.history.events!.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED))
  expect(unstarted.map((h) => `${h.type} ${h.workflowId}`), 'every history holds at least one completed workflow task').toEqual([])

  const typeOf = new Map(histories.map((h) => [h.workflowId, h.type]))
  const errors: string[] = []
  const replayed = new Set<string>()
  for await (const result of Worker.runReplayHistories({ workflowBundle: bundle, replayName: 'replay-all' }, histories)) {
    if (result.error) errors.push(`${typeOf.get(result.workflowId)} ${result.workflowId}: ${result.error.name}: ${result.error.message}`)
    else replayed.add(typeOf.get(result.workflowId)!)
  }
  expect(errors, 'every recorded history replays without a nondeterminism or other error').toEqual([])
  const missing = EXPECTED_TYPES.filter((t) => !replayed.has(t))
  expect(missing, `workflow types defined in composition.workflows with no replayed history (add a step to this scenario that runs them): ${missing.join(', ')}`).toEqual([])
  expect([...replayed].sort()).toEqual(EXPECTED_TYPES)
  console.info(`replay-all: ${histories.length} histories of ${replayed.size} workflow types replayed (${histories.filter((h) => h.status === 'RUNNING').length} still open) in ${Date.now() - started} ms`)
}, 60_000)
