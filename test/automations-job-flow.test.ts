// The job-flow automations on the real service and Temporal dev server: workflows.schedule_job
// (next business day of the company's state), workflows.trigger_invoice, workflows.quote_to_invoice
// (a durable wait for the job's completion, woken by the jobs service) and workflows.process_lead.
// Expected dates come from hand-written holiday lists and scores from the documented rules, never
// from date-holidays or the tables under test. A "day" of policy is a minute here, so the quote run
// can only have been woken by the jobs service's nudge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'

/** Real time moved by an offset the schedule tests set (the worker's activities read the same clock). */
let offsetMs = 0
const clock = { now: () => new Date(Date.now() + offsetMs) }
const at = (iso: string) => { offsetMs = Date.parse(iso) - Date.now() }

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let client: McpClient
let other: McpClient

beforeAll(async () => {
  app = await startTestApp({ clock, config: { AUTOMATION_DAY_MS: 60_000 } })
  a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, a.api_key)
  other = await connectHttp(app, b.api_key)
})
afterAll(async () => {
  await client?.close()
  await other?.close()
  await app?.stop()
})

let phone = 200
async function lead(c: McpClient = client, fields: Record<string, unknown> = {}) {
  return (await tool(c, 'leads.create', { name: 'Jordan Lee', phone: `0412 555 ${String(phone++).padStart(3, '0')}`, email: `jordan${phone}@example.com.au`, ...fields })).lead
}
async function job(c: McpClient = client, fields: Record<string, unknown> = {}) {
  const l = await lead(c)
  return (await tool(c, 'jobs.create', { lead_id: l.id, title: 'Replace tap', amount: 440, ...fields })).job
}
const runOf = async (workflowId: string) => (await app.owner`select status, outcome, details, automation from automation_runs where workflow_id = ${workflowId}`)[0]

// ---- next business day: written out by hand, independent of date-holidays ----
const HOLIDAYS_2026: Record<string, string[]> = {
  NSW: ['2026-01-01', '2026-01-26', '2026-04-03', '2026-04-06', '2026-06-08', '2026-10-05', '2026-12-25', '2026-12-28'],
  WA: ['2026-01-01', '2026-01-26', '2026-03-02', '2026-04-03', '2026-04-06', '2026-06-01', '2026-09-28', '2026-12-25', '2026-12-28'],
}
function expectedNextBusinessDay(today: string, state: string): string {
  const d = new Date(`${today}T00:00:00Z`)
  for (;;) {
    d.setUTCDate(d.getUTCDate() + 1)
    const day = d.toISOString().slice(0, 10)
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6 && !HOLIDAYS_2026[state]!.includes(day)) return day
  }
}

describe('workflows.schedule_job', () => {
  afterAll(() => { offsetMs = 0 })

  it('refuses while neither the company nor the call names a state, saying where to set it', async () => {
    const j = await job()
    const err = await toolError(client, 'workflows.schedule_job', { job_id: j.id })
    expect(err.error).toBe('validation_error')
    expect(err.messages.join(' ')).toContain('/api/v1/settings/company')
  })

  it("skips the weekend and NSW's Monday public holiday: Friday 5 June 2026 goes to Tuesday 9 June, 08:00 Sydney time", async () => {
    const set = await app.call('PATCH', '/api/v1/settings/company', { key: a.api_key, body: { state: 'NSW' } })
    expect(set.status).toBe(200)
    expect(set.body.settings).toEqual({ time_zone: 'Australia/Sydney', state: 'NSW' })
    expect((await app.call('PATCH', '/api/v1/settings/company', { key: a.api_key, body: { state: 'XX' } })).body.error).toBe('validation_error')
    at('2026-06-05T10:00:00+10:00')
    const j = await job()
    const out = await tool(client, 'workflows.schedule_job', { job_id: j.id })
    expect(expectedNextBusinessDay('2026-06-05', 'NSW')).toBe('2026-06-09')
    expect(out).toMatchObject({ status: 'completed', state: 'NSW', local_date: '2026-06-09', scheduled_date: new Date('2026-06-09T08:00:00+10:00').toISOString() })
    expect(out.skipped.map((s: { date: string }) => s.date)).toEqual(['2026-06-06', '2026-06-07', '2026-06-08'])
    const [after] = await app.owner<{ status: string; scheduled_date: Date }[]>`select status, scheduled_date from jobs where id = ${j.id}`
    expect(after).toEqual({ status: 'Scheduled', scheduled_date: new Date('2026-06-09T08:00:00+10:00') })
    expect(await app.owner`select 1 from event_outbox where entity_id = ${j.id} and event_type = 'job.scheduled'`).toHaveLength(1)
    expect(await runOf(out.workflow_id)).toMatchObject({ status: 'completed', automation: 'schedule_job' })
  })

  it("a holiday of one state only: WA's Labour Day (2 March 2026) moves a WA booking to Tuesday; NSW books the Monday", async () => {
    at('2026-02-27T11:00:00+10:00')
    const wa = await tool(client, 'workflows.schedule_job', { job_id: (await job()).id, state: 'WA', start_time: '07:30', technician: 'Sam' })
    const nsw = await tool(client, 'workflows.schedule_job', { job_id: (await job()).id })
    expect(wa.local_date).toBe(expectedNextBusinessDay('2026-02-27', 'WA'))
    expect(wa.local_date).toBe('2026-03-03')
    expect(wa.scheduled_date).toBe(new Date('2026-03-03T07:30:00+11:00').toISOString()) // the company's zone: Sydney, daylight time
    expect(nsw.local_date).toBe(expectedNextBusinessDay('2026-02-27', 'NSW'))
    expect(nsw.local_date).toBe('2026-03-02')
  })

  it('refuses a Completed job with a conflict, and another company\'s job is not found', async () => {
    offsetMs = 0
    const j = await job()
    await tool(client, 'jobs.complete', { job_id: j.id })
    expect((await toolError(client, 'workflows.schedule_job', { job_id: j.id })).error).toBe('conflict')
    expect((await toolError(other, 'workflows.schedule_job', { job_id: j.id, state: 'NSW' })).error).toBe('not_found')
    expect((await toolError(client, 'workflows.schedule_job', { job_id: 'not-a-uuid' })).error).toBe('not_found')
  })
})

const messagesFor = (invoiceId: string) => app.owner<{ message_type: string; channel: string }[]>`
  select message_type, channel from communications where invoice_id = ${invoiceId} and message_type in ('invoice', 'payment_link') order by channel`

describe('workflows.trigger_invoice', () => {
  it('refuses a job that is not Completed, naming jobs.complete as the next step', async () => {
    const j = await job()
    const err = await toolError(client, 'workflows.trigger_invoice', { job_id: j.id })
    expect(err.error).toBe('conflict')
    expect(err.message).toContain('jobs.complete')
    expect(await app.owner`select 1 from invoices where job_id = ${j.id}`).toHaveLength(0)
  })

  it('without a payment account: invoices the job and sends the invoice; the chase starts; a second call reports the same invoice', async () => {
    const j = await job()
    await tool(client, 'jobs.complete', { job_id: j.id })
    const out = await tool(client, 'workflows.trigger_invoice', { job_id: j.id })
    expect(out).toMatchObject({ status: 'completed', already_invoiced: false, sent: { purpose: 'invoice', channels: ['sms', 'email'], skipped: null } })
    expect(out.invoice.total).toBe(440)
    expect(out.invoice.payment_url).toBeNull()
    // The messages are recorded by the delivery the run starts: wait for them.
    expect(await waitFor(() => messagesFor(out.invoice.id), (r) => r.length === 2, 10_000)).toEqual([{ message_type: 'invoice', channel: 'email' }, { message_type: 'invoice', channel: 'sms' }])
    const [inv] = await app.owner`select status, sent_count from invoices where id = ${out.invoice.id}`
    expect(inv).toMatchObject({ status: 'Sent', sent_count: 1 })
    expect(await app.owner`select 1 from automation_runs where automation = 'chase_payment' and subject_id = ${out.invoice.id}`).toHaveLength(1)
    expect((await runOf(out.workflow_id))!.details.map((d: { step: string }) => d.step)).toEqual(['invoice', 'send'])

    const again = await tool(client, 'workflows.trigger_invoice', { job_id: j.id })
    expect(again).toMatchObject({ workflow_id: null, already_invoiced: true, invoice: { id: out.invoice.id } })
    expect(await app.owner`select 1 from invoices where job_id = ${j.id}`).toHaveLength(1)
    expect(await messagesFor(out.invoice.id)).toHaveLength(2)
  })

  it("with an active payment account: sends the payment link; another company's job is not found", async () => {
    expect((await app.call('POST', '/api/v1/payments/account', { key: a.api_key })).body.account).toMatchObject({ status: 'active' })
    const j = await job()
    await tool(client, 'jobs.complete', { job_id: j.id })
    expect((await toolError(other, 'workflows.trigger_invoice', { job_id: j.id })).error).toBe('not_found')
    const out = await tool(client, 'workflows.trigger_invoice', { job_id: j.id })
    expect(out.sent).toMatchObject({ purpose: 'pay_link', channels: ['sms', 'email'] })
    expect(out.invoice.payment_url).toMatch(/\/pay$/)
    expect((await waitFor(() => messagesFor(out.invoice.id), (r) => r.length === 2, 10_000)).map((m) => m.message_type)).toEqual(['payment_link', 'payment_link'])
  })
})

async function acceptedQuote(c: McpClient = client) {
  const l = await lead(c)
  const { quote } = await tool(c, 'quotes.create', { lead_id: l.id, line_items: [{ description: 'Install split system', quantity: 1, unitPrice: 1980 }] })
  await tool(c, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })
  return quote
}
const jobOfQuote = (quoteId: string) => waitFor(() => app.owner<{ id: string }[]>`select id from jobs where quote_id = ${quoteId}`, (r) => r.length === 1, 15_000)

describe('workflows.quote_to_invoice', () => {
  it('refuses a quote that is not Accepted; another company\'s quote is not found', async () => {
    const l = await lead()
    const { quote } = await tool(client, 'quotes.create', { lead_id: l.id, line_items: [{ description: 'Fan', quantity: 1, unitPrice: 100 }] })
    const err = await toolError(client, 'workflows.quote_to_invoice', { quote_id: quote.id })
    expect(err.error).toBe('conflict')
    expect(err.message).toContain('quotes.send')
    expect((await toolError(other, 'workflows.quote_to_invoice', { quote_id: (await acceptedQuote()).id })).error).toBe('not_found')
  })

  it('makes the job, waits for its completion, then invoices it exactly once with the payment link', async () => {
    const quote = await acceptedQuote()
    const out = await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id })
    expect(out).toMatchObject({ workflow_id: `quote-to-invoice:${a.company_id}:${quote.id}`, started: true, status: 'running' })
    const [made] = await jobOfQuote(quote.id)
    expect(made).toBeDefined()
    await new Promise((r) => setTimeout(r, 1500))
    expect(await app.owner`select 1 from invoices where job_id = ${made!.id}`).toHaveLength(0) // still waiting
    expect(await runOf(out.workflow_id)).toMatchObject({ status: 'running' })
    expect(await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id })).toMatchObject({ started: false, status: 'running', job_id: made!.id })

    await tool(client, 'jobs.complete', { job_id: made!.id })
    const run = await waitFor(() => runOf(out.workflow_id), (r) => r?.status !== 'running', 15_000)
    expect(run).toMatchObject({ status: 'completed' })
    expect(run!.details.map((d: { step: string }) => d.step)).toEqual(['job', 'job completed', 'invoice', 'send'])
    const invoices = await app.owner<{ id: string; total_cents: string }[]>`select id, total_cents from invoices where job_id = ${made!.id}`
    expect(invoices).toHaveLength(1)
    expect(Number(invoices[0]!.total_cents)).toBe(198_000 + 19_800) // the quote's $1,980 plus 10% GST
    // The send step queues the messages; their delivery run writes them, a moment after this run closes.
    const messages = await waitFor(() => messagesFor(invoices[0]!.id), (ms) => ms.length >= 2, 15_000)
    expect(messages.map((m) => m.message_type)).toEqual(['payment_link', 'payment_link'])
    // trigger_invoice afterwards finds the invoice and sends nothing more
    expect(await tool(client, 'workflows.trigger_invoice', { job_id: made!.id })).toMatchObject({ already_invoiced: true, invoice: { id: invoices[0]!.id } })
    expect(await messagesFor(invoices[0]!.id)).toHaveLength(2)
  })

  it('stops when the job is cancelled, invoicing nothing', async () => {
    const quote = await acceptedQuote()
    const out = await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id })
    const [made] = await jobOfQuote(quote.id)
    await tool(client, 'jobs.update', { job_id: made!.id, status: 'Cancelled' })
    const run = await waitFor(() => runOf(out.workflow_id), (r) => r?.status !== 'running', 15_000)
    expect(run).toMatchObject({ status: 'stopped', outcome: 'stopped: the job was cancelled' })
    expect(await app.owner`select 1 from invoices where job_id = ${made!.id}`).toHaveLength(0)
  })
})

describe('workflows.process_lead', () => {
  it('scores by the documented rules, sets the priority, makes exactly one reminder even when called twice', async () => {
    const l = await lead(client, { serviceType: 'Plumbing', suburb: 'Parramatta', message: 'Burst pipe under the kitchen sink, water everywhere' })
    const before = Date.now()
    const out = await tool(client, 'workflows.process_lead', { lead_id: l.id })
    // urgency 40 + service type 15 + mobile 15 + email 10 + suburb 10 + message of 30+ characters 10
    expect(out).toMatchObject({ started: true, status: 'completed', score: 100, priority: 'Urgent' })
    expect(out.reasons).toHaveLength(6)
    const due = Date.parse(out.reminder.due_at)
    expect(due).toBeGreaterThanOrEqual(before + 3_600_000 - 1000) // Urgent: in one hour
    expect(due).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000)
    const again = await tool(client, 'workflows.process_lead', { lead_id: l.id })
    expect(again).toMatchObject({ started: false, status: 'completed', score: 100, reminder: { id: out.reminder.id } })
    expect(await app.owner`select id from reminders where lead_id = ${l.id}`).toEqual([{ id: out.reminder.id }])
    expect(await app.owner`select priority from leads where id = ${l.id}`).toEqual([{ priority: 'Urgent' }])
    const updates = await app.owner<{ payload: { changed: string[] } }[]>`select payload from event_outbox where entity_id = ${l.id} and event_type = 'lead.updated'`
    expect(updates.map((u) => u.payload.changed)).toContainEqual(['priority'])
  })

  it('a bare lead scores low and gets its reminder at 09:00 on a later weekday; another company\'s lead is not found', async () => {
    const l = (await tool(client, 'leads.create', { name: 'Pat', email: `pat${phone++}@example.com.au` })).lead
    expect((await toolError(other, 'workflows.process_lead', { lead_id: l.id })).error).toBe('not_found')
    const out = await tool(client, 'workflows.process_lead', { lead_id: l.id })
    expect(out).toMatchObject({ score: 10, priority: 'Low' })
    const local = new Intl.DateTimeFormat('en-AU', { timeZone: 'Australia/Sydney', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(out.reminder.due_at))
    expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 09:00$/)
    expect(Date.parse(out.reminder.due_at)).toBeGreaterThan(Date.now() + 86_400_000)
  })
})
