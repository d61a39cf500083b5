// Quote follow-ups (workflows.follow_up_quote) on the real service and Temporal dev server, with a
// "day" of one second (AUTOMATION_DAY_MS): the follow-ups go out at their delays after the send, at
// most three, and stop at once when the quote is accepted or declined on its page, expires, or is
// sent again. Expected times come from the settings the test chose, never from the runs' records.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { quoteFollowUpWorkflowId } from '../src/domains/automations/quote-follow-up/workflows/quote-follow-up.js'

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
const wfId = (quoteId: string, send: number, companyId = company.company_id) => quoteFollowUpWorkflowId({ companyId, quoteId, sendNumber: send })

/**
 * A company of its own and its MCP client: the tests that wait on follow-up timers run at once
 * (describe.concurrent), and each sets its own follow-up settings, which a shared company could not.
 */
async function ownCompany() {
  const own = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const ownClient = await connectHttp(app, own.api_key)
  clients.push(ownClient)
  return { companyId: own.company_id, client: ownClient }
}

async function setFollowUps(companyId: string, settings: Record<string, unknown>, enabled = true) {
  await app.owner`insert into automation_settings (company_id, automation, enabled, settings) values (${companyId}, 'follow_up_quote', ${enabled}, ${app.owner.json(settings as never)})
    on conflict (company_id, automation) do update set enabled = excluded.enabled, settings = excluded.settings`
}

let phoneCounter = 100
async function sentQuote(c: McpClient = client, lead: Record<string, unknown> = {}) {
  const phone = `0412 345 ${String(phoneCounter++).padStart(3, '0')}`
  const created = (await tool(c, 'leads.create', { name: 'Casey Nguyen', phone, email: `casey${phoneCounter}@example.com.au`, ...lead })).lead
  const { quote } = await tool(c, 'quotes.create', { lead_id: created.id, line_items: [{ description: 'Install ceiling fan', quantity: 1, unitPrice: 330 }] })
  const sentAt = Date.now()
  const sent = await tool(c, 'quotes.send', { quote_id: quote.id, send_sms: true })
  return { quote, lead: created, sent, sentAt, token: new URL(sent.public_url).pathname.split('/')[2]!, phone }
}

const followUps = (quoteId: string) => app.owner<{ idempotency_key: string; channel: string; message_type: string; body: string; status: string; error: string | null; created_at: Date }[]>`
  select idempotency_key, channel, message_type, body, status, error, created_at from communications
  where idempotency_key like ${`quote-follow-up:${quoteId}:%`} order by created_at`
const runOf = async (workflowId: string) => (await app.owner`select status, outcome, details, progress from automation_runs where workflow_id = ${workflowId}`)[0]
const result = (workflowId: string) => temporal.workflow.getHandle(workflowId).result()
const post = (path: string, form: string) => fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form, redirect: 'manual' })

// These tests mostly wait on the runs' timers, so they wait together: each on a company of its own.
describe.concurrent('quote follow-ups after quotes.send', () => {
  it('accepting on the quote page stops it at once: no further follow-up', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [1, 6, 12] })
    const { quote, token } = await sentQuote(client)
    await waitFor(() => followUps(quote.id), (rows) => rows.length === 1, 10_000, 100)
    const acceptedAt = Date.now()
    expect((await post(`/q/${token}/accept`, 'name=Casey+Nguyen')).status).toBe(303)
    const outcome = await result(wfId(quote.id, 1, companyId))
    expect(outcome).toMatchObject({ outcome: 'stopped', reason: 'quote accepted' })
    expect(Date.now() - acceptedAt).toBeLessThan(4 * DAY_MS) // at once: well before follow-up 2 (6 days after the send, 5 after the accept)
    expect(await runOf(wfId(quote.id, 1, companyId))).toMatchObject({ status: 'stopped', outcome: 'stopped: quote accepted' })
    await sleep(6 * DAY_MS)
    expect(await followUps(quote.id)).toHaveLength(1)
  })

  it('sends the follow-ups at their delays after the send, in order, each once and recorded, with the quote link', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [1, 2, 3] })
    const { quote, sent, sentAt, phone } = await sentQuote(client)
    expect(sent.follow_ups.workflow_id).toBe(wfId(quote.id, 1, companyId))
    expect(sent.follow_ups.at).toHaveLength(3)
    const outcome = await result(wfId(quote.id, 1, companyId))
    expect(outcome.outcome).toBe('completed')
    const rows = await followUps(quote.id)
    expect(rows.map((r) => r.idempotency_key)).toEqual([1, 2, 3].map((n) => `quote-follow-up:${quote.id}:1:${n}:sms`))
    for (const [i, r] of rows.entries()) {
      expect(r).toMatchObject({ channel: 'sms', message_type: 'follow_up', status: 'recorded' })
      expect(r.body).toContain(sent.public_url)
      expect(r.body).toContain('Reply STOP to opt out') // marketing: the comms layer adds the opt-out
      expect(r.created_at.getTime()).toBeGreaterThanOrEqual(sentAt + (i + 1) * DAY_MS - 50)
    }
    expect(await app.owner`select to_address from communications where idempotency_key like ${`quote-follow-up:${quote.id}:%`}`).toEqual(
      Array(3).fill({ to_address: `+61${phone.replace(/\s/g, '').slice(1)}` }))
    const run = await runOf(wfId(quote.id, 1, companyId))
    expect(run).toMatchObject({ status: 'completed' })
    expect(run!.details.map((d: { step: string }) => d.step)).toEqual(['follow-up 1', 'follow-up 2', 'follow-up 3'])
    expect(run!.details.every((d: { result: string }) => d.result === 'sent by sms')).toBe(true)
  })

  it('sending the quote again stops the old run at once; the new send has its own follow-ups', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [1, 8, 15] })
    const { quote } = await sentQuote(client)
    await waitFor(() => followUps(quote.id), (rows) => rows.length === 1, 10_000, 100)
    const resentAt = Date.now()
    const again = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true })
    expect(again.follow_ups.workflow_id).toBe(wfId(quote.id, 2, companyId))
    expect(await result(wfId(quote.id, 1, companyId))).toMatchObject({ outcome: 'stopped', reason: 'quote sent again' })
    expect(Date.now() - resentAt).toBeLessThan(4 * DAY_MS) // at once: well before the old run's follow-up 2 (8 days after its send)
    await waitFor(() => followUps(quote.id), (rows) => rows.length === 2, 10_000, 100)
    const keys = (await followUps(quote.id)).map((r) => r.idempotency_key)
    expect(keys).toEqual([`quote-follow-up:${quote.id}:1:1:sms`, `quote-follow-up:${quote.id}:2:1:sms`])
    await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Declined' }) // quotes.update signals too
    expect(await result(wfId(quote.id, 2, companyId))).toMatchObject({ outcome: 'stopped', reason: 'quote declined' })
  })

  it('never more than three, even when the run is given more delays', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [30] }) // its own run stays out of the way
    const { quote } = await sentQuote(client)
    await setFollowUps(companyId, { delays_days: [1, 2, 3] })
    // A hand-made run for the same quote with five delays (the workflow's own cap, not the settings').
    const handle = await temporal.workflow.start('quoteFollowUp', {
      taskQueue: app.config.TEMPORAL_TASK_QUEUE, workflowId: `${wfId(quote.id, 1, companyId)}-five`,
      args: [{ companyId, quoteId: quote.id, sendNumber: 1, previousWorkflowId: 'none', sentAt: new Date().toISOString(),
        delaysMs: [300, 600, 900, 1200, 1500], expiresAt: new Date(Date.now() + 86_400_000).toISOString(), channel: 'sms', message: null }],
    })
    const outcome = await handle.result()
    expect(outcome.followUps.map((f: { number: number }) => f.number)).toEqual([1, 2, 3])
    await sleep(500)
    expect((await followUps(quote.id)).map((r) => r.idempotency_key.split(':')[3])).toEqual(['1', '2', '3'])
    await temporal.workflow.getHandle(wfId(quote.id, 1, companyId)).terminate('test done')
  })

  it('a client who opted out of SMS gets none: each follow-up is recorded as not sent', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [1, 2] })
    const phone = '0412 999 001'
    await app.owner`insert into message_opt_outs (company_id, channel, address, source, detail, opted_out_at, updated_at)
      values (${companyId}, 'sms', '+61412999001', 'sms_keyword', 'STOP', now(), now())`
    const lead = (await tool(client, 'leads.create', { name: 'Robin Opted', phone })).lead
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Rewire', quantity: 1, unitPrice: 990 }] })
    await tool(client, 'quotes.send', { quote_id: quote.id })
    const outcome = await result(wfId(quote.id, 1, companyId))
    expect(outcome.followUps.map((f: { sent: string[] }) => f.sent)).toEqual([[], []])
    const rows = await followUps(quote.id)
    expect(rows.map((r) => [r.status, r.message_type])).toEqual([['failed', 'follow_up'], ['failed', 'follow_up']])
    expect(rows.every((r) => /opted out/i.test(r.error ?? ''))).toBe(true)
    const run = await runOf(wfId(quote.id, 1, companyId))
    expect(run!.details.map((d: { result: string }) => d.result).every((r: string) => r.startsWith('nothing sent; not sent sms'))).toBe(true)
  })

  it('declining on the quote page stops it at once', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [5, 10] })
    const { quote, token } = await sentQuote(client)
    const declinedAt = Date.now()
    expect((await post(`/q/${token}/decline`, 'reason=Too+dear')).status).toBe(303)
    expect(await result(wfId(quote.id, 1, companyId))).toMatchObject({ outcome: 'stopped', reason: 'quote declined' })
    expect(Date.now() - declinedAt).toBeLessThan(3000)
    expect(await followUps(quote.id)).toHaveLength(0)
  })

  it('a quote that expires (quotes.update moves its last day into the past) stops at once', async ({ expect }) => {
    const { companyId, client } = await ownCompany()
    await setFollowUps(companyId, { delays_days: [5, 10] })
    const { quote } = await sentQuote(client)
    const yesterday = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10)
    await tool(client, 'quotes.update', { quote_id: quote.id, valid_until: yesterday })
    expect(await result(wfId(quote.id, 1, companyId))).toMatchObject({ outcome: 'stopped', reason: 'quote expired' })
    expect(await followUps(quote.id)).toHaveLength(0)
  })
})

describe('workflows.follow_up_quote', () => {
  it('starts what is missing for quotes sent while follow-ups were off, reports runs that exist, and refuses a Draft', async () => {
    await setFollowUps(company.company_id, { delays_days: [20, 40] }, false)
    const off = await sentQuote()
    expect(off.sent.follow_ups).toBeNull()
    expect(await runOf(wfId(off.quote.id, 1))).toBeUndefined()

    const refused = await tool(client, 'workflows.follow_up_quote', { quote_id: off.quote.id })
    expect(refused.started).toEqual([])
    expect(refused.skipped).toContainEqual({ quote_id: off.quote.id, quote_number: off.quote.quoteNumber, reason: expect.stringContaining('turned off') })

    await setFollowUps(company.company_id, { delays_days: [20, 40] }, true)
    const one = await tool(client, 'workflows.follow_up_quote', { quote_id: off.quote.id })
    expect(one.started).toEqual([{ quote_id: off.quote.id, quote_number: off.quote.quoteNumber, workflow_id: wfId(off.quote.id, 1), follow_ups_at: expect.any(Array) }])
    expect(await runOf(wfId(off.quote.id, 1))).toMatchObject({ status: 'running' })

    // The scan finds the pending quotes and starts nothing twice.
    const scan = await tool(client, 'workflows.follow_up_quote', {})
    expect(scan.started.map((s: { quote_id: string }) => s.quote_id)).not.toContain(off.quote.id)
    expect(scan.existing).toContainEqual(expect.objectContaining({ quote_id: off.quote.id, workflow_id: wfId(off.quote.id, 1), status: 'running' }))
    const again = await tool(client, 'workflows.follow_up_quote', {})
    expect(again.started).toEqual([])

    const lead = (await tool(client, 'leads.create', { name: 'Draft Person', email: 'draft@example.com.au' })).lead
    const { quote: draft } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'x', quantity: 1, unitPrice: 10 }] })
    expect(await toolError(client, 'workflows.follow_up_quote', { quoteId: draft.id })).toMatchObject({ error: 'conflict', current_status: 'Draft' })
    await temporal.workflow.getHandle(wfId(off.quote.id, 1)).terminate('test done')
  })

  it("another company's quote is not_found", async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Other Sparkies' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      await setFollowUps(other.company_id, { delays_days: [30] })
      const { quote } = await sentQuote(otherClient)
      expect(await toolError(client, 'workflows.follow_up_quote', { quoteId: quote.id })).toMatchObject({ error: 'not_found' })
      const scan = await tool(client, 'workflows.follow_up_quote', {})
      expect([...scan.started, ...scan.existing, ...scan.skipped].map((s: { quote_id: string }) => s.quote_id)).not.toContain(quote.id)
      await temporal.workflow.getHandle(wfId(quote.id, 1, other.company_id)).terminate('test done')
    } finally {
      await otherClient.close()
    }
  })
  it('a scan reaches every pending quote over repeated calls, though each call handles at most 200', async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    try {
      // One follow-up 60 "days" after sending: the runs start and sleep, sending nothing.
      await setFollowUps(other.company_id, { delays_days: [60], channel: 'email' })
      const [lead] = await app.owner`insert into leads (company_id, name, email) values (${other.company_id}, 'Scan Client', 'scan@example.com.au') returning id`
      const PENDING = 205
      await app.owner`
        insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until, public_token, sent_count, sent_at)
        select ${other.company_id}, ${lead!.id}, 'Q-S' || n, 'Sent', 1000, 100, 1100, current_date + 30, md5(random()::text || n), 1, now() - n * interval '1 minute'
        from generate_series(1, ${PENDING}) n`
      const first = await tool(otherClient, 'workflows.follow_up_quote', {})
      expect(first.started).toHaveLength(200)
      const second = await tool(otherClient, 'workflows.follow_up_quote', {})
      // The five left out first come first now; the rest of the page is runs that exist.
      expect(second.started).toHaveLength(PENDING - 200)
      expect(second.existing).toHaveLength(200 - (PENDING - 200))
      const startedIds = new Set([...first.started, ...second.started].map((s: { quote_id: string }) => s.quote_id))
      expect(startedIds.size).toBe(PENDING)
    } finally {
      await otherClient.close()
    }
  }, 120_000)
})
