// The payment chase (workflows.chase_payment) on the real service and Temporal dev server, with a
// "day" of one second (AUTOMATION_DAY_MS): sending an invoice starts its chase; the steps go out in
// order at their offsets from the due date (before and after it), each in its tone and channels;
// a payment through the real REST path or a void stops it at once; invoicing.chase reports the
// tier the chase is in. Expected times and tones come from the cadence the test chose.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { invoiceChaseWorkflowId } from '../src/domains/automations/payment-chase/workflows/invoice-chase.js'

const DAY_MS = 1000
let app: TestApp
let temporal: Client
let company: Awaited<ReturnType<typeof onboard>>
let client: McpClient
const clients: McpClient[] = []

beforeAll(async () => {
  app = await startTestApp({ config: { AUTOMATION_DAY_MS: DAY_MS } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  for (const c of [client, ...clients]) await c?.close()
  await temporal?.connection.close()
  await app?.stop()
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const wfId = (invoiceId: string, companyId = company.company_id) => invoiceChaseWorkflowId({ companyId, invoiceId })
const rest = (method: string, path: string, body?: unknown, key = company.api_key) => app.call(method, `/api/v1${path}`, { key, body })

/**
 * A company of its own, its API key and MCP client: the tests that wait on the chase's timers run at
 * once (describe.concurrent), and each sets its own cadence, which a shared company could not.
 */
async function ownCompany() {
  const own = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const ownClient = await connectHttp(app, own.api_key)
  clients.push(ownClient)
  return { companyId: own.company_id, key: own.api_key, client: ownClient }
}

async function setChase(companyId: string, steps: Record<string, unknown>[], enabled = true) {
  await app.owner`insert into automation_settings (company_id, automation, enabled, settings) values (${companyId}, 'chase_payment', ${enabled}, ${app.owner.json({ steps } as never)})
    on conflict (company_id, automation) do update set enabled = excluded.enabled, settings = excluded.settings`
}

/** A completed job's invoice, due in `dueInDays` (or `overdueBy` days ago), sent by email; returns once sent. */
async function sentInvoice(c: McpClient, opts: { dueInDays?: number; overdueBy?: number; key?: string } = {}) {
  const { lead } = await tool(c, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', email: 'morgan@example.com.au' })
  const { job } = await tool(c, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount: 440 })
  await tool(c, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(c, 'invoicing.generate', { job_id: job.id, due_in_days: opts.dueInDays ?? 0 })
  // Days overdue count in the company's own calendar: its local today, not the database server's
  // (between 13:00 and 24:00 UTC, Sydney is already on the next day).
  if (opts.overdueBy) {
    await app.owner`update invoices set due_date = (now() at time zone (select time_zone from companies where id = invoices.company_id))::date - ${opts.overdueBy}::int where id = ${invoice.id}`
  }
  const sentAt = Date.now()
  const sent = await rest('POST', `/invoices/${invoice.id}/send`, { send_email: true }, opts.key)
  expect(sent.status).toBe(200)
  return { invoice, job, sentAt }
}

const chaseRows = (invoiceId: string) => app.owner<{ idempotency_key: string; channel: string; message_type: string; body: string; subject: string | null; created_at: Date }[]>`
  select idempotency_key, channel, message_type, body, subject, created_at from communications
  where idempotency_key like ${`invoice-chase:${invoiceId}:%`} order by created_at, channel`
const result = (workflowId: string) => temporal.workflow.getHandle(workflowId).result()
const runOf = async (workflowId: string) => (await app.owner`select status, outcome, details, progress from automation_runs where workflow_id = ${workflowId}`)[0]

// The tests of these two blocks mostly wait on the chases' timers, so they wait together (consecutive
// concurrent blocks run as one group), each on a company of its own.
describe.concurrent('the payment chase of a sent invoice', () => {
  it('sends every step in order at its offset from the due date (before, on and after it), each in its tone and channels', async ({ expect }) => {
    const { companyId, key, client } = await ownCompany()
    await setChase(companyId, [
      { offset_days: -1, tone: 'friendly' }, { offset_days: 0, tone: 'friendly' },
      { offset_days: 1, tone: 'firm', channel: 'both' }, { offset_days: 2, tone: 'final' },
    ])
    const { invoice, sentAt } = await sentInvoice(client, { dueInDays: 2, key }) // due two "days" (seconds) from now
    const outcome = await result(wfId(invoice.id, companyId))
    expect(outcome.outcome).toBe('completed')
    expect(outcome.steps.map((s: { number: number; tone: string }) => [s.number, s.tone])).toEqual([[1, 'friendly'], [2, 'friendly'], [3, 'firm'], [4, 'final']])
    const rows = await chaseRows(invoice.id)
    expect(rows.map((r) => r.idempotency_key).sort()).toEqual([
      `invoice-chase:${invoice.id}:step1:sms`, `invoice-chase:${invoice.id}:step2:sms`,
      `invoice-chase:${invoice.id}:step3:email`, `invoice-chase:${invoice.id}:step3:sms`, `invoice-chase:${invoice.id}:step4:sms`,
    ])
    expect(rows.every((r) => r.message_type === 'invoice_chase')).toBe(true)
    expect(rows.every((r) => !r.body.includes('Reply STOP'))).toBe(true) // transactional: no marketing opt-out
    // Step n is due (2 + offset) seconds after the send: 1, 2, 3 and 4 s.
    const row = (key: string) => rows.find((r) => r.idempotency_key === `invoice-chase:${invoice.id}:${key}`)!
    const stepAt = (n: number) => row(`step${n}:sms`).created_at.getTime()
    for (const n of [1, 2, 3, 4]) expect(stepAt(n)).toBeGreaterThanOrEqual(sentAt + n * DAY_MS - 100)
    expect([1, 2, 3, 4].map(stepAt)).toEqual([1, 2, 3, 4].map(stepAt).sort((a, b) => a - b))
    expect(row('step1:sms').body).toContain('friendly reminder')
    expect(row('step1:sms').body).toContain('$440.00')
    expect(row('step1:sms').body).toContain(invoice.publicUrl)
    expect(row('step3:sms').body).toContain('is now 1 days overdue')
    expect(row('step3:email').subject).toContain(`Overdue: invoice ${invoice.invoiceNumber}`)
    expect(row('step4:sms').body).toMatch(/^Final notice/)
    const run = await runOf(wfId(invoice.id, companyId))
    expect(run).toMatchObject({ status: 'completed', progress: { tier: 'final', steps_sent: 4, steps_planned: 4, next: null } })
  })

  it('paying the invoice (POST /invoices/:id/payments) stops the chase at once', async ({ expect }) => {
    const { companyId, key, client } = await ownCompany()
    await setChase(companyId, [{ offset_days: 1, tone: 'friendly' }, { offset_days: 6, tone: 'firm' }, { offset_days: 12, tone: 'final' }])
    const { invoice } = await sentInvoice(client, { key })
    await waitFor(() => chaseRows(invoice.id), (rows) => rows.length === 1, 10_000, 100)
    const paidAt = Date.now()
    const paid = await rest('POST', `/invoices/${invoice.id}/payments`, { amount: 440, method: 'bank_transfer' }, key)
    expect(paid.status).toBe(201)
    expect(await result(wfId(invoice.id, companyId))).toMatchObject({ outcome: 'stopped', reason: 'invoice paid' })
    expect(Date.now() - paidAt).toBeLessThan(3000)
    expect(await runOf(wfId(invoice.id, companyId))).toMatchObject({ status: 'stopped', outcome: 'stopped: invoice paid' })
    await sleep(6 * DAY_MS)
    expect(await chaseRows(invoice.id)).toHaveLength(1)
  })

  it('a part payment does not stop it; the next reminder asks for the balance', async ({ expect }) => {
    const { companyId, key, client } = await ownCompany()
    await setChase(companyId, [{ offset_days: 2, tone: 'friendly' }])
    const { invoice } = await sentInvoice(client, { key })
    expect((await rest('POST', `/invoices/${invoice.id}/payments`, { amount: 140, method: 'cash' }, key)).status).toBe(201)
    expect(await result(wfId(invoice.id, companyId))).toMatchObject({ outcome: 'completed' })
    const rows = await chaseRows(invoice.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.body).toContain('$300.00')
  })

  it('voiding the invoice stops the chase at once', async ({ expect }) => {
    const { companyId, key, client } = await ownCompany()
    await setChase(companyId, [{ offset_days: 5, tone: 'friendly' }])
    const { invoice } = await sentInvoice(client, { key })
    const voidedAt = Date.now()
    expect((await rest('POST', `/invoices/${invoice.id}/void`, { reason: 'Wrong client' }, key)).status).toBe(200)
    expect(await result(wfId(invoice.id, companyId))).toMatchObject({ outcome: 'stopped', reason: 'invoice voided' })
    expect(Date.now() - voidedAt).toBeLessThan(3000)
    expect(await chaseRows(invoice.id)).toHaveLength(0)
  })
})

describe.concurrent('invoicing.chase reports the tier the chase is in', () => {
  it('an invoice 10 days overdue when sent: the chase catches up to its tier at once (one reminder), then goes on', async ({ expect }) => {
    const { companyId, key, client } = await ownCompany()
    await setChase(companyId, [
      { offset_days: 0, tone: 'friendly' }, { offset_days: 7, tone: 'friendly' }, { offset_days: 14, tone: 'firm' }, { offset_days: 30, tone: 'final' },
    ])
    const { invoice, job } = await sentInvoice(client, { overdueBy: 10, key })
    // Steps at -10, -3, +4 and +20 s: the first two are past; only the latest (step 2) is sent now.
    await waitFor(() => chaseRows(invoice.id), (rows) => rows.length === 1, 10_000, 100)
    expect((await chaseRows(invoice.id))[0]!.idempotency_key).toBe(`invoice-chase:${invoice.id}:step2:sms`)
    const listed = await waitFor(async () => (await tool(client, 'invoicing.chase', {})).overdue.find((o: { invoiceId: string }) => o.invoiceId === invoice.id),
      (o) => o?.automation?.stepsSent === 1, 5000, 100)
    expect(listed).toMatchObject({ daysOverdue: 10, chaseLevel: 'friendly', jobId: job.id })
    expect(listed.automation).toMatchObject({ workflowId: wfId(invoice.id, companyId), status: 'running', tier: 'friendly', stepsSent: 1, stepsPlanned: 4, next: { step: 'step 3: firm' }, outcome: null })
    const firm = await waitFor(async () => (await tool(client, 'invoicing.chase', { jobId: undefined })).overdue.find((o: { invoiceId: string }) => o.invoiceId === invoice.id),
      (o) => o?.automation?.tier === 'firm', 10_000, 200)
    expect(firm.automation).toMatchObject({ tier: 'firm', stepsSent: 2, next: { step: 'step 4: final' } })
    expect((await runOf(wfId(invoice.id, companyId)))!.details.map((d: { step: string }) => d.step)).toEqual(['step 1: friendly', 'step 2: friendly', 'step 3: firm'])
    expect((await rest('POST', `/invoices/${invoice.id}/payments`, { amount: 440, method: 'bank_transfer' }, key)).status).toBe(201)
    expect(await result(wfId(invoice.id, companyId))).toMatchObject({ outcome: 'stopped', reason: 'invoice paid' })
  })
})

describe('workflows.chase_payment', () => {
  it('with jobId reports the running chase; without, starts the chases missing for overdue invoices', async () => {
    await setChase(company.company_id, [{ offset_days: 30, tone: 'friendly' }], false)
    const { invoice, job } = await sentInvoice(client, { overdueBy: 3 })
    expect(await runOf(wfId(invoice.id))).toBeUndefined()
    const off = await tool(client, 'workflows.chase_payment', { job_id: job.id })
    expect(off.skipped).toEqual([{ invoice_id: invoice.id, invoice_number: invoice.invoiceNumber, reason: expect.stringContaining('turned off') }])

    await setChase(company.company_id, [{ offset_days: 30, tone: 'friendly' }], true)
    const scan = await tool(client, 'workflows.chase_payment', {})
    expect(scan.started).toContainEqual({ invoice_id: invoice.id, invoice_number: invoice.invoiceNumber, workflow_id: wfId(invoice.id), steps: [{ step: 1, tone: 'friendly', at: expect.any(String) }] })
    const byJob = await tool(client, 'workflows.chase_payment', { jobId: job.id })
    expect(byJob).toMatchObject({ started: [], existing: [{ invoice_id: invoice.id, workflow_id: wfId(invoice.id), status: 'running', tier: null }] })
    expect((await tool(client, 'workflows.chase_payment', {})).started.map((s: { invoice_id: string }) => s.invoice_id)).not.toContain(invoice.id)

    const { job: bare } = await tool(client, 'jobs.create', { lead_id: (await tool(client, 'leads.create', { name: 'No Invoice', email: 'n@example.com.au' })).lead.id, amount: 100 })
    expect(await toolError(client, 'workflows.chase_payment', { jobId: bare.id })).toMatchObject({ error: 'conflict' })
    await temporal.workflow.getHandle(wfId(invoice.id)).terminate('test done')
  })

  it("another company's job is not_found, and its invoices never show in a scan", async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Other Sparkies' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      await setChase(other.company_id, [{ offset_days: 30, tone: 'friendly' }])
      const { invoice, job } = await sentInvoice(otherClient, { overdueBy: 2, key: other.api_key })
      expect(await toolError(client, 'workflows.chase_payment', { jobId: job.id })).toMatchObject({ error: 'not_found' })
      const scan = await tool(client, 'workflows.chase_payment', {})
      expect([...scan.started, ...scan.existing, ...scan.skipped].map((s: { invoice_id: string }) => s.invoice_id)).not.toContain(invoice.id)
      await temporal.workflow.getHandle(wfId(invoice.id, other.company_id)).terminate('test done')
    } finally {
      await otherClient.close()
    }
  })
  it('a scan reaches every overdue invoice over repeated calls, though each call handles at most 200', async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      // A step a year after the due date: the chases start and sleep, sending nothing.
      await setChase(other.company_id, [{ offset_days: 365, tone: 'friendly', channel: 'email' }])
      const [lead] = await app.owner`insert into leads (company_id, name, email) values (${other.company_id}, 'Scan Client', 'scan@example.com.au') returning id`
      const OVERDUE = 205
      await app.owner`
        insert into invoices (company_id, lead_id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents, issue_date, due_date, public_token, sent_count)
        select ${other.company_id}, ${lead!.id}, 'INV-S' || n, 'final', 'Sent', 1000, 100, 1100, current_date - 40, current_date - 10 - n % 20, md5(random()::text || n), 1
        from generate_series(1, ${OVERDUE}) n`
      const first = await tool(otherClient, 'workflows.chase_payment', {})
      expect(first.started).toHaveLength(200)
      const second = await tool(otherClient, 'workflows.chase_payment', {})
      // The five left out first come first now; the rest of the page is chases that exist.
      expect(second.started).toHaveLength(OVERDUE - 200)
      expect(second.existing).toHaveLength(200 - (OVERDUE - 200))
      const startedIds = new Set([...first.started, ...second.started].map((s: { invoice_id: string }) => s.invoice_id))
      expect(startedIds.size).toBe(OVERDUE)
      const [runs] = await app.owner`select count(*)::int as n from automation_runs where company_id = ${other.company_id} and automation = 'chase_payment'`
      expect(runs!.n).toBe(OVERDUE)
    } finally {
      await otherClient.close()
    }
  }, 120_000)
})
