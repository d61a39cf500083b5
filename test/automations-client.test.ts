// The client automations on the real service and Temporal dev server, with a "day" of one second
// (AUTOMATION_DAY_MS): review booster (request, one reminder, no reminder after an opt-out,
// approval), referral offers after 5-star completions with referred leads tracked by code, upsell
// suggestions by the documented rules, and the daily summary's Temporal Schedule. What was sent is
// read from communications (the local outbox records every message it would hand to a provider).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client'
import { Worker } from '@temporalio/worker'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowBundle } from '../src/temporal/worker.js'
import { dailySummaryWorkflowId } from '../src/domains/automations/daily-summary/workflows/daily-summary.js'
import { referralOfferWorkflowId } from '../src/domains/automations/client-outreach/workflows/referral-offer.js'
import { reviewBoosterWorkflowId } from '../src/domains/automations/client-outreach/workflows/review-booster.js'

const DAY_MS = 1000
let app: TestApp
let temporal: Client
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let ca: McpClient
let cb: McpClient
const clients: McpClient[] = []

beforeAll(async () => {
  app = await startTestApp({ config: { AUTOMATION_DAY_MS: DAY_MS } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  a = await onboard(app)
  b = await onboard(app)
  ca = await connectHttp(app, a.api_key)
  cb = await connectHttp(app, b.api_key)
  for (const c of [a, b]) await reviewLinks(c.api_key)
})
afterAll(async () => {
  for (const c of [ca, cb, ...clients]) await c?.close()
  await temporal?.connection.close()
  await app?.stop()
})

async function reviewLinks(key: string) {
  const res = await app.call('PATCH', '/api/v1/settings/reviews', { key, body: { links: { google: 'https://g.page/r/test-review' }, default_platform: 'google' } })
  expect(res.status).toBe(200)
}

/**
 * A company of its own (with its review link) and its MCP client: the review booster tests wait on
 * its timers, so they run at once (describe.concurrent), each with its own settings, which a shared
 * company could not.
 */
async function ownCompany() {
  const own = await onboard(app)
  await reviewLinks(own.api_key)
  const client = await connectHttp(app, own.api_key)
  clients.push(client)
  return { companyId: own.company_id, client }
}

let phones = 200
async function completedJob(c: McpClient, complete: Record<string, unknown> = {}, title = 'Replace tap washer') {
  const phone = `0412 555 ${String(phones++).padStart(3, '0')}`
  const { lead } = await tool(c, 'leads.create', { name: 'Robin Lee', phone, email: `robin${phones}@example.com.au` })
  const { job } = await tool(c, 'jobs.create', { lead_id: lead.id, title, amount: 220 })
  await tool(c, 'jobs.complete', { job_id: job.id, ...complete })
  return { lead, job, e164: `+61${phone.replace(/\s/g, '').slice(1)}` }
}
const comms = (jobId: string, type: string) => app.owner<{ idempotency_key: string; channel: string; body: string; to_address: string; created_at: Date }[]>`
  select idempotency_key, channel, body, to_address, created_at from communications where job_id = ${jobId} and message_type = ${type} order by created_at`
const runOf = async (workflowId: string) => (await app.owner<{ status: string; outcome: string | null; details: { step: string; result: string }[] }[]>`
  select status, outcome, details from automation_runs where workflow_id = ${workflowId}`)[0]

// Every test of the file runs at once (consecutive concurrent blocks are one group): most of the time
// is waiting on timers. Referral offers and upsells use company a; nothing else here does.
// The daily summary, the longest, goes first: at most five tests run at a time.
describe.concurrent('daily summary', () => {
  it('a Temporal Schedule at the local time in the company zone; a trigger emails the owner once; off deletes it', async ({ expect }) => {
    const c = await onboard(app)
    const cc = await connectHttp(app, c.api_key)
    try {
      await app.owner`update companies set time_zone = 'Australia/Perth' where id = ${c.company_id}`
      const { lead } = await tool(cc, 'leads.create', { name: 'Daily One', phone: '0412 777 001' })
      await tool(cc, 'leads.create', { name: 'Daily Two', phone: '0412 777 002' })
      const { job } = await tool(cc, 'jobs.create', { lead_id: lead.id, title: 'Fix gate', amount: 110 })
      await tool(cc, 'jobs.complete', { job_id: job.id })
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Perth' }).format(new Date())
      const read = await tool(cc, 'workflows.daily_summary', {})
      expect(read).toMatchObject({ date: today, time_zone: 'Australia/Perth', day: { new_leads: 2, jobs_completed: 1 } })
      expect((await toolError(cc, 'workflows.daily_summary', { date: '2025-02-30' })).error).toBe('validation_error')

      await tool(cc, 'workflows.toggle', { workflow_id: 'daily_summary', enabled: true, settings: { time: '06:30' } })
      const handle = temporal.schedule.getHandle(dailySummaryWorkflowId({ companyId: c.company_id }))
      const described = await handle.describe()
      expect(described.spec.timezone).toBe('Australia/Perth')
      expect(described.spec.calendars).toHaveLength(1)
      expect(described.spec.calendars![0]).toMatchObject({ hour: [{ start: 6, end: 6, step: 1 }], minute: [{ start: 30, end: 30, step: 1 }] })
      // Moving the time updates the same schedule.
      await tool(cc, 'workflows.toggle', { workflow_id: 'daily_summary', settings: { time: '07:15' } })
      expect((await handle.describe()).spec.calendars![0]).toMatchObject({ hour: [{ start: 7, end: 7, step: 1 }], minute: [{ start: 15, end: 15, step: 1 }] })
      // Moving the company to another zone moves the schedule with it (same local time), and back.
      const moved = await app.call('PATCH', '/api/v1/settings/company', { key: c.api_key, body: { time_zone: 'Australia/Adelaide' } })
      expect(moved.status).toBe(200)
      expect((await handle.describe()).spec.timezone).toBe('Australia/Adelaide')
      expect((await handle.describe()).spec.calendars![0]).toMatchObject({ hour: [{ start: 7, end: 7, step: 1 }], minute: [{ start: 15, end: 15, step: 1 }] })
      expect((await app.call('PATCH', '/api/v1/settings/company', { key: c.api_key, body: { time_zone: 'Australia/Perth' } })).status).toBe(200)
      expect((await handle.describe()).spec.timezone).toBe('Australia/Perth')

      const emails = () => app.owner<{ to_address: string; subject: string; text_body: string }[]>`
        select to_address, subject, text_body from communications where company_id = ${c.company_id} and message_type = 'daily_summary'`
      // ALLOW_ALL: each trigger starts a run whatever the scheduler believes is still running (with
      // the schedule's SKIP it may hold or drop one), so the second fire below reaches the workflow.
      await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL)
      const sent = await waitFor(emails, (r) => r.length === 1, 15_000)
      const [owner] = await app.owner<{ contact_email: string }[]>`select contact_email from companies where id = ${c.company_id}`
      expect(sent[0]).toMatchObject({ to_address: owner!.contact_email, subject: expect.stringContaining(today) })
      expect(sent[0]!.text_body).toContain(`Today (${today}): 2 new lead(s)`)
      expect(sent[0]!.text_body).toContain('1 completed')
      // A second fire the same day sends nothing more. A scheduled run's id ends in its fire time to
      // the second, so a fire within the same second as the first would be the same run, refused by
      // Temporal before our workflow is asked: wait for the next second, and check it ran.
      await new Promise((r) => setTimeout(r, 1100 - (Date.now() % 1000)))
      await handle.trigger(ScheduleOverlapPolicy.ALLOW_ALL)
      const finished = await waitFor(() => app.owner`select 1 from automation_runs where company_id = ${c.company_id} and automation = 'daily_summary' and status <> 'running'`, (r) => r.length === 2, 15_000)
      expect(finished).toHaveLength(2)
      expect(await emails()).toHaveLength(1)

      await tool(cc, 'workflows.toggle', { workflow_id: 'daily_summary', enabled: false })
      await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError)
    } finally {
      await temporal.schedule.getHandle(dailySummaryWorkflowId({ companyId: c.company_id })).delete().catch(() => {})
      await cc.close()
    }
  })
})

describe.concurrent('review booster', () => {
  it('after jobs.complete: the request after delay_days, then one reminder after reminder_days, each once', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await tool(client, 'workflows.toggle', { workflow_id: 'review_booster', enabled: true, settings: { delay_days: 1, reminder_days: 1 } })
    const started = Date.now()
    const { job, e164 } = await completedJob(client)
    const id = reviewBoosterWorkflowId({ companyId: companyId, jobId: job.id })
    const result = await temporal.workflow.getHandle(id).result()
    expect(result).toMatchObject({ outcome: 'completed' })
    const sent = await waitFor(() => comms(job.id, 'review_request'), (r) => r.length === 2, 10_000)
    expect(sent.map((m) => m.idempotency_key)).toEqual([`review:${job.id}:1:sms`, `review:${job.id}:2:sms`])
    expect(sent.every((m) => m.to_address === e164 && m.body.includes('https://g.page/r/test-review'))).toBe(true)
    expect(sent[1]!.body).toMatch(/reminder/)
    expect(sent[0]!.created_at.getTime()).toBeGreaterThanOrEqual(started + DAY_MS - 50)
    expect(sent[1]!.created_at.getTime() - sent[0]!.created_at.getTime()).toBeGreaterThanOrEqual(DAY_MS - 100)
    const run = await runOf(id)
    expect(run).toMatchObject({ status: 'completed' })
    expect(run!.details.map((d) => d.step)).toEqual(['request', 'reminder'])
    await replay(id)
  })

  it('no reminder once the client opted out after the request; the run records why', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await tool(client, 'workflows.toggle', { workflow_id: 'review_booster', enabled: true, settings: { delay_days: 0, reminder_days: 3 } })
    const { job, e164 } = await completedJob(client)
    const id = reviewBoosterWorkflowId({ companyId: companyId, jobId: job.id })
    await waitFor(() => comms(job.id, 'review_request'), (r) => r.length === 1, 10_000)
    // The client replies STOP (as the Twilio webhook records it).
    await app.owner`insert into message_opt_outs (company_id, channel, address, source, detail, opted_out_at, updated_at)
      values (${companyId}, 'sms', ${e164}, 'sms_keyword', 'STOP', now(), now())`
    const result = await temporal.workflow.getHandle(id).result()
    expect(result.outcome).toBe('stopped')
    expect(result.reason).toMatch(/opted out/)
    expect(await comms(job.id, 'review_request')).toHaveLength(1)
    expect(await runOf(id)).toMatchObject({ status: 'stopped', outcome: expect.stringMatching(/opted out/) })
    await replay(id)
  })

  it('turned off, completion starts nothing; a job asked at completion (request_review) gets only the reminder', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await tool(client, 'workflows.toggle', { workflow_id: 'review_booster', enabled: false })
    const { job } = await completedJob(client)
    await new Promise((r) => setTimeout(r, 500))
    expect(await runOf(reviewBoosterWorkflowId({ companyId: companyId, jobId: job.id }))).toBeUndefined()
    await tool(client, 'workflows.toggle', { workflow_id: 'review_booster', enabled: true, settings: { delay_days: 0, reminder_days: 1 } })
    const asked = await completedJob(client, { request_review: true })
    const id = reviewBoosterWorkflowId({ companyId: companyId, jobId: asked.job.id })
    await temporal.workflow.getHandle(id).result()
    const sent = await waitFor(() => comms(asked.job.id, 'review_request'), (r) => r.length === 2, 10_000)
    expect(sent.map((m) => m.idempotency_key)).toEqual([`review:${asked.job.id}:1:sms`, `review:${asked.job.id}:2:sms`])
    expect((await runOf(id))!.details[0]!.result).toMatch(/^not sent again: already asked/)
  })

  it('the tool asks unasked clients of recent jobs; with approval on the request waits and executes once on approve', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await tool(client, 'workflows.toggle', { workflow_id: 'review_booster', enabled: false, require_approval: true, settings: { delay_days: 0, reminder_days: 0 } })
    const { job, e164 } = await completedJob(client)
    const res = await tool(client, 'workflows.review_booster', { days: 1, max_requests: 100 })
    expect(res.needs_approval).toBe(true)
    expect(res.requested.map((r: any) => r.job_id)).toContain(job.id)
    const id = reviewBoosterWorkflowId({ companyId: companyId, jobId: job.id })
    const pending = await waitFor(() => tool(client, 'workflows.pending_actions', { workflow_id: id }), (r) => r.actions.length === 1, 10_000)
    const action = pending.actions[0]
    expect(action).toMatchObject({ workflow: 'review_booster', status: 'pending', messages: [{ channel: 'sms', text: expect.stringContaining('https://g.page/r/test-review') }] })
    await new Promise((r) => setTimeout(r, 500))
    expect(await comms(job.id, 'review_request')).toHaveLength(0)
    // Another company neither sees a's job nor can decide a's action.
    expect((await tool(cb, 'workflows.review_booster', { days: 1 })).requested).toEqual([])
    expect((await toolError(cb, 'workflows.approve_action', { action_id: action.id })).error).toBe('not_found')
    const approved = await tool(client, 'workflows.approve_action', { action_id: action.id })
    expect(approved).toMatchObject({ alreadyDecided: false, action: { status: 'executed' } })
    const again = await tool(client, 'workflows.approve_action', { action_id: action.id })
    expect(again.alreadyDecided).toBe(true)
    const sent = await waitFor(() => comms(job.id, 'review_request'), (r) => r.length === 1, 10_000)
    expect(sent.map((m) => [m.idempotency_key, m.to_address])).toEqual([[`review:${job.id}:1:sms`, e164]])
    await temporal.workflow.getHandle(id).result()
    // Asked now: a second call does not ask again.
    const second = await tool(client, 'workflows.review_booster', { days: 1 })
    expect(second.requested.map((r: any) => r.job_id)).not.toContain(job.id)
    expect(await comms(job.id, 'review_request')).toHaveLength(1)
    await tool(client, 'workflows.toggle', { workflow_id: 'review_booster', enabled: false, require_approval: false })
  })
})

describe.concurrent('referral offers', () => {
  it('only a 5-star completion gets the offer; the code is personal and a lead created with it is tracked', async ({ expect }) => {
    await tool(ca, 'workflows.toggle', { workflow_id: 'referral_program', enabled: true, settings: { delay_days: 0, reward_type: 'credit', reward_amount: 40 } })
    const four = await completedJob(ca, { satisfaction_rating: 4 })
    const five = await completedJob(ca, { satisfaction_rating: 5 })
    const result = await temporal.workflow.getHandle(referralOfferWorkflowId({ companyId: a.company_id, jobId: five.job.id })).result()
    expect(result).toMatchObject({ outcome: 'completed', sent: ['sms'] })
    expect(result.code).toMatch(/^[A-Z0-9]{6}$/)
    const offer = await waitFor(() => comms(five.job.id, 'referral'), (r) => r.length === 1, 10_000)
    expect(offer[0]).toMatchObject({ idempotency_key: `referral-offer:${five.job.id}:sms`, to_address: five.e164 })
    expect(offer[0]!.body).toContain(result.code)
    expect(offer[0]!.body).toContain('$40.00 credit')
    expect(offer[0]!.body).toContain('Reply STOP to opt out')
    expect(await runOf(referralOfferWorkflowId({ companyId: a.company_id, jobId: four.job.id }))).toBeUndefined()
    expect(await comms(four.job.id, 'referral')).toHaveLength(0)

    const { lead: referred } = await tool(ca, 'leads.create', { name: 'Sam Referred', phone: '0412 666 001', source: `referral:${result.code.toLowerCase()}` })
    const tracked = await app.owner`select c.code, c.lead_id from referral_leads r join referral_codes c on c.id = r.referral_code_id where r.lead_id = ${referred.id}`
    expect(tracked).toEqual([{ code: result.code, lead_id: five.lead.id }])
    // An unknown code creates the lead and tracks nothing.
    const { lead: stray } = await tool(ca, 'leads.create', { name: 'Sam Stray', phone: '0412 666 002', source: 'referral:NOPE99' })
    expect(await app.owner`select 1 from referral_leads where lead_id = ${stray.id}`).toHaveLength(0)

    const codes = await tool(ca, 'workflows.referral_program', { days: 30 })
    const mine = codes.codes.find((c: any) => c.lead_id === five.lead.id)
    expect(mine).toMatchObject({ code: result.code, reward_type: 'credit', reward_amount: 40, created: false, referred_leads: 1 })
    expect(codes.disclosure).toMatch(/incentive/)
    const other = codes.codes.find((c: any) => c.lead_id === four.lead.id)
    expect(other).toMatchObject({ created: true, reward_type: 'credit', reward_amount: 40, referred_leads: 0 })
    expect(other.share_text).toContain(other.code)
    // Company b cannot use a's code.
    const { lead: elsewhere } = await tool(cb, 'leads.create', { name: 'Other Co Lead', phone: '0412 666 003', source: `referral:${result.code}` })
    expect(await app.owner`select 1 from referral_leads where lead_id = ${elsewhere.id}`).toHaveLength(0)
    expect((await tool(cb, 'workflows.referral_program', {})).codes).toEqual([])
  })
})

describe.concurrent('upsell suggestions', () => {
  it('follow the rules, with catalogue prices, and send nothing', async ({ expect }) => {
    const svc = async (name: string, category: string, price: number) => (await tool(ca, 'services.create', { name, category, price })).service
    const service = await svc('Hot water system service', 'hot water', 150)
    const valve = await svc('Tempering valve install', 'hot water', 300)
    const cctv = await svc('CCTV drain inspection', 'drainage', 250)
    await svc('Hot water system repair', 'hot water', 200)
    const { lead, job } = await completedJob(ca, {}, 'Hot water system repair')
    const res = await tool(ca, 'workflows.upsell_suggest', { job_id: job.id })
    expect(res.based_on).toEqual({ jobs: 1, services_done: ['Hot water system repair'] })
    const byId = (id: string) => res.suggestions.find((s: any) => s.service_id === id)
    expect(res.suggestions[0]).toMatchObject({ service_id: service.id, rule: 'maintenance_after_repair', price: 150, price_incl_gst: 165 })
    expect(byId(valve.id)).toMatchObject({ rule: 'same_category', price: 300, price_incl_gst: 330 })
    expect(byId(cctv.id)).toBeUndefined() // another category and never quoted
    expect(res.suggestions.every((s: any) => s.reason.length > 0)).toBe(true)
    const byLead = await tool(ca, 'workflows.upsell_suggest', { lead_id: lead.id })
    expect(byLead.suggestions).toEqual(res.suggestions)
    // Nothing but the new lead's instant response went to the client.
    expect(await app.owner`select message_type from communications where lead_id = ${lead.id} and message_type <> 'instant_response'`).toEqual([])
    expect((await toolError(ca, 'workflows.upsell_suggest', {})).error).toBe('validation_error')
    // Another company's ids are not found.
    expect((await toolError(cb, 'workflows.upsell_suggest', { job_id: job.id })).error).toBe('not_found')
    expect((await toolError(cb, 'workflows.upsell_suggest', { lead_id: lead.id })).error).toBe('not_found')
  })
})

async function replay(workflowId: string) {
  const history = await temporal.workflow.getHandle(workflowId).fetchHistory()
  await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, workflowId)
}
