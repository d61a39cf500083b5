// The dry runs of the tools that start (or approve) a workflow which messages a customer, and of
// leads.create, through a real MCP client on the real service and Temporal dev server, with a "day"
// of one second (AUTOMATION_DAY_MS). Each shows the exact text and recipients of what would go
// first; starts, records, counts and sends nothing; and the real call then sends exactly that text.
// Expected texts are written out here from the templates' wording; a link an action makes when it
// runs (an invoice's token, a marketing email's unsubscribe page) is compared once the real one exists.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { instantResponseWorkflowId } from '../src/domains/automations/instant-response/workflows/instant-response.js'
import { quoteFollowUpWorkflowId } from '../src/domains/automations/quote-follow-up/workflows/quote-follow-up.js'
import { invoiceChaseWorkflowId } from '../src/domains/automations/payment-chase/workflows/invoice-chase.js'
import { reviewBoosterWorkflowId } from '../src/domains/automations/client-outreach/workflows/review-booster.js'
import { quoteToInvoiceWorkflowId } from '../src/domains/automations/job-flow/workflows/quote-to-invoice.js'

const DAY_MS = 1000
const BUSINESS = 'Harbour City Plumbing'
// A marketing SMS ends with who it is from (no ABN on file: the name) and the opt-out.
const OPT_OUT = `\n- ${BUSINESS}. Reply STOP to opt out`
// 1 x $330.00 ex GST, with 10% GST.
const LINE = { description: 'Install ceiling fan', quantity: 1, unitPrice: 330 }
const TOTAL = '$363.00'
const REVIEW_LINK = 'https://g.page/r/test-review'

let app: TestApp
let temporal: Client
const clients: McpClient[] = []

beforeAll(async () => {
  app = await startTestApp({ config: { AUTOMATION_DAY_MS: DAY_MS } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await temporal?.connection.close()
  await app?.stop()
})

/** A company of its own with the named automations off, and its MCP client. */
async function ownCompany(off: string[] = []) {
  const company = await onboard(app, { business_name: BUSINESS, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  for (const workflow_id of off) await tool(client, 'workflows.toggle', { workflow_id, enabled: false })
  return { id: company.company_id as string, client }
}

/** What a company's dry runs must leave as it was: messages recorded and counted, workflows queued, automation runs. */
async function footprint(companyId: string) {
  return {
    messages: await app.owner`select idempotency_key from communications where company_id = ${companyId} order by idempotency_key`,
    counted: await app.owner`select metric, count from usage_counters where company_id = ${companyId} and metric in ('sms', 'email') order by metric`,
    queued: await app.owner`select workflow_id from workflow_outbox where company_id = ${companyId} order by workflow_id`,
    runs: await app.owner`select workflow_id from automation_runs where company_id = ${companyId} order by workflow_id`,
  }
}

/** The messages the providers were handed under a key prefix, as a dry run shows them (sms first). */
async function recorded(companyId: string, keyPrefix: string) {
  const rows = await app.owner<{ channel: 'sms' | 'email'; to_address: string; subject: string | null; body: string; text_body: string | null }[]>`
    select channel, to_address, subject, body, text_body from communications
    where company_id = ${companyId} and idempotency_key like ${`${keyPrefix}%`} order by channel desc`
  return rows.map((r) => r.channel === 'sms'
    ? { channel: 'sms', to: r.to_address, subject: null, text: r.body, html: null }
    : { channel: 'email', to: r.to_address, subject: r.subject, text: r.text_body, html: r.body })
}

const settle = (workflowId: string) => temporal.workflow.getHandle(workflowId).result()
const waitForMessages = (companyId: string, keyPrefix: string, count: number) =>
  waitFor(() => recorded(companyId, keyPrefix), (rows) => rows.length >= count, 20_000, 100)

/** A lead, its quote accepted (which opens its job) and, when asked, the job completed. */
async function acceptedQuote(client: McpClient, lead: Record<string, unknown>, complete: boolean) {
  const created = (await tool(client, 'leads.create', lead)).lead
  const { quote } = await tool(client, 'quotes.create', { lead_id: created.id, line_items: [LINE] })
  const accepted = (await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })).quote
  if (complete) await tool(client, 'jobs.complete', { job_id: accepted.job_id })
  return { lead: created, quote: accepted, jobId: accepted.job_id as string }
}

/** The company's local date `days` from today (payment terms count from the issue date). */
async function localDatePlus(client: McpClient, days: number) {
  const { company } = await tool(client, 'company.profile', {})
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: company.time_zone }).format(new Date())
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

describe('leads.create', () => {
  it('shows the instant reply the lead would get and creates nothing; the real call sends that reply', async () => {
    const { id, client } = await ownCompany()
    const lead = { name: 'Jordan Lee', phone: '0412 345 678', email: 'jordan@example.com.au', serviceType: 'leaking tap' }
    const before = await footprint(id)
    const dry = await tool(client, 'leads.create', { ...lead, dry_run: true })
    const thanks = `hanks for contacting ${BUSINESS} about leaking tap. We have your enquiry and will be in touch shortly.`
    expect(dry).toEqual({
      lead: null, dry_run: true, messages: [
        { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `Hi Jordan, t${thanks}` },
        {
          channel: 'email', to: 'jordan@example.com.au', subject: 'Thanks for your enquiry, Jordan',
          html: `<p>Hi Jordan,</p><p>T${thanks}</p><p>${BUSINESS}</p>`, text: `Hi Jordan,\n\nT${thanks}\n\n${BUSINESS}`,
        },
      ],
      next_steps: [{ tool: 'leads.create', why: expect.stringContaining('without dry_run') }],
    })
    expect((await tool(client, 'leads.list', {})).total).toBe(0)
    expect(await footprint(id)).toEqual(before)

    // With the instant response off, no reply would go.
    await tool(client, 'workflows.toggle', { workflow_id: 'instant_response', enabled: false })
    expect(await tool(client, 'leads.create', { ...lead, dry_run: true })).toMatchObject({ lead: null, dry_run: true, messages: [] })
    await tool(client, 'workflows.toggle', { workflow_id: 'instant_response', enabled: true })

    const real = await tool(client, 'leads.create', lead)
    expect(Object.keys(real)).toEqual(['lead', 'next_steps']) // a real call answers {lead} as it always has, and what follows
    expect(real.lead).toMatchObject({ name: 'Jordan Lee', status: 'New' })
    await settle(instantResponseWorkflowId({ companyId: id, leadId: real.lead.id }))
    expect(await recorded(id, `instant-response:${real.lead.id}:`)).toEqual(dry.messages)
  })
})

describe('workflows.instant_response', () => {
  it('shows the reply for a lead still New without starting its run; the run then sends that reply; once Contacted it says why nothing would go', async () => {
    const { id, client } = await ownCompany()
    // No contact at first, so no run starts with the lead; the mobile comes later.
    const { lead } = await tool(client, 'leads.create', { name: 'Robin Park', serviceType: 'hot water' })
    await tool(client, 'leads.update', { lead_id: lead.id, phone: '0400 222 333' })
    const workflowId = instantResponseWorkflowId({ companyId: id, leadId: lead.id })
    const before = await footprint(id)
    const dry = await tool(client, 'workflows.instant_response', { lead_id: lead.id, dry_run: true })
    expect(dry).toEqual({
      workflow_id: workflowId, started: false, skipped: null, dry_run: true,
      messages: [{ channel: 'sms', to: '+61400222333', subject: null, html: null, text: `Hi Robin, thanks for contacting ${BUSINESS} about hot water. We have your enquiry and will be in touch shortly.` }],
      next_steps: [{ tool: 'workflows.instant_response', why: expect.stringContaining('without dry_run') }],
    })
    expect(await footprint(id)).toEqual(before)

    const real = await tool(client, 'workflows.instant_response', { lead_id: lead.id })
    expect(real).toMatchObject({ workflow_id: workflowId, dry_run: false, messages: [] })
    await settle(workflowId)
    expect(await recorded(id, `instant-response:${lead.id}:`)).toEqual(dry.messages)
    expect(await tool(client, 'workflows.instant_response', { lead_id: lead.id, dry_run: true })).toMatchObject({ skipped: 'lead is already Contacted', messages: [] })
  })
})

describe('workflows.follow_up_quote', () => {
  it('shows the first follow-up of the run it would start and when each is due, starting nothing; the run sends that follow-up', async () => {
    const { id, client } = await ownCompany(['instant_response', 'follow_up_quote'])
    const { lead } = await tool(client, 'leads.create', { name: 'Casey Nguyen', phone: '0412 555 001', email: 'casey@example.com.au' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [LINE] })
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true })
    expect(sent.follow_ups).toBeNull() // sent while follow-ups were off
    await settle(sent.delivery.workflow_id)
    await tool(client, 'workflows.toggle', { workflow_id: 'follow_up_quote', enabled: true, settings: { delays_days: [2, 30, 60] } })
    const sentAt = (await app.owner<{ sent_at: Date }[]>`select sent_at from quotes where id = ${quote.id}`)[0]!.sent_at
    const workflowId = quoteFollowUpWorkflowId({ companyId: id, quoteId: quote.id, sendNumber: 1 })
    const before = await footprint(id)

    const dry = await tool(client, 'workflows.follow_up_quote', { quoteId: quote.id, channel: 'both', dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, existing: [], skipped: [], started: [{ quote_id: quote.id, workflow_id: workflowId }] })
    expect(dry.started[0].follow_ups_at).toEqual([2, 30, 60].map((d) => new Date(sentAt.getTime() + d * DAY_MS).toISOString()))
    const text = `Hi Casey, just following up on quote ${quote.quoteNumber} from ${BUSINESS} for ${TOTAL} incl. GST. You can view, accept or decline it here: ${sent.public_url}`
    expect(dry.messages).toEqual([
      { channel: 'sms', to: '+61412555001', subject: null, html: null, text: `${text}${OPT_OUT}` },
      {
        channel: 'email', to: 'casey@example.com.au', subject: `Following up: quote ${quote.quoteNumber} from ${BUSINESS}`,
        html: `<p>${text}</p><p><a href="${sent.public_url}">View, accept or decline quote ${quote.quoteNumber}</a></p><p>${BUSINESS}</p>\n` +
          `<hr><p style="font-size:12px;color:#555">This message is from ${BUSINESS}. Don't want these emails? <a href="&lt;unsubscribe link&gt;">Unsubscribe</a>.</p>`,
        text: `${text}\n\n${BUSINESS}\n\n--\nThis message is from ${BUSINESS}.\nDon't want these emails? Unsubscribe: <unsubscribe link>`,
      },
    ])
    expect(await footprint(id)).toEqual(before)

    const real = await tool(client, 'workflows.follow_up_quote', { quoteId: quote.id, channel: 'both' })
    expect(real).toMatchObject({ dry_run: false, messages: [], started: [{ workflow_id: workflowId, follow_ups_at: dry.started[0].follow_ups_at }] })
    const [sms, email] = await waitForMessages(id, `quote-follow-up:${quote.id}:1:1:`, 2)
    expect(sms).toEqual(dry.messages[0])
    // The real email has its own unsubscribe page where the dry run shows the placeholder.
    const unsubscribe = /Unsubscribe: (\S+)$/.exec(email!.text!)![1]!
    expect(email).toEqual({
      ...dry.messages[1], text: dry.messages[1].text.replace('<unsubscribe link>', unsubscribe), html: dry.messages[1].html.replace('&lt;unsubscribe link&gt;', unsubscribe),
    })
  })
})

describe('workflows.chase_payment', () => {
  it('shows the first reminder of the chase it would start and its cadence, starting nothing; the chase sends that reminder', async () => {
    const { id, client } = await ownCompany(['instant_response', 'chase_payment'])
    const { jobId } = await acceptedQuote(client, { name: 'Jane Citizen', phone: '0412 345 678' }, true)
    const { invoice, delivery } = await tool(client, 'invoicing.generate', { job_id: jobId, due_in_days: 2, send_sms: true }) // sent while the chase is off
    await settle(delivery.workflow_id)
    await tool(client, 'workflows.toggle', { workflow_id: 'chase_payment', enabled: true, settings: { steps: [{ offset_days: 0, tone: 'friendly' }, { offset_days: 30, tone: 'firm' }] } })
    const workflowId = invoiceChaseWorkflowId({ companyId: id, invoiceId: invoice.id })
    const before = await footprint(id)

    const dry = await tool(client, 'workflows.chase_payment', { jobId, dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, existing: [], skipped: [], started: [{ invoice_id: invoice.id, workflow_id: workflowId }] })
    expect(dry.started[0].steps.map((s: any) => [s.step, s.tone])).toEqual([[1, 'friendly'], [2, 'firm']])
    // With one-second days the step's own offset stands for the days overdue: 0, due today.
    expect(dry.messages).toEqual([{
      channel: 'sms', to: '+61412345678', subject: null, html: null,
      text: `Hi Jane, a friendly reminder that invoice ${invoice.invoiceNumber} from ${BUSINESS} for ${TOTAL} is due today. You can view and pay it here: ${invoice.publicUrl}. Thanks!`,
    }])
    expect(await footprint(id)).toEqual(before)

    const real = await tool(client, 'workflows.chase_payment', { jobId })
    expect(real).toMatchObject({ dry_run: false, messages: [], started: [{ workflow_id: workflowId }] })
    expect(await waitForMessages(id, `invoice-chase:${invoice.id}:step1:`, 1)).toEqual(dry.messages)
  })
})

describe('workflows.review_booster', () => {
  it('shows the review request each unasked client would get now, starting and recording nothing; the run sends that request', async () => {
    const { id, client } = await ownCompany(['instant_response'])
    await tool(client, 'reviews.update_settings', { links: { google: REVIEW_LINK }, default_platform: 'google' })
    const { jobId } = await acceptedQuote(client, { name: 'Jane Citizen', phone: '0412 345 678' }, true) // the booster is off by default: no run on completion
    const workflowId = reviewBoosterWorkflowId({ companyId: id, jobId })
    const before = await footprint(id)

    const dry = await tool(client, 'workflows.review_booster', { dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, existing: [], skipped: [], requested: [{ job_id: jobId, workflow_id: workflowId }] })
    expect(dry.messages).toEqual([{
      channel: 'sms', to: '+61412345678', subject: null, html: null,
      text: `Hi Jane, thanks for choosing ${BUSINESS}. We'd appreciate an honest review of our work on Google Business Profile: ${REVIEW_LINK}${OPT_OUT}`,
    }])
    expect(await footprint(id)).toEqual(before)
    expect(await app.owner`select id from review_requests where job_id = ${jobId}`).toEqual([])

    const real = await tool(client, 'workflows.review_booster', {})
    expect(real).toMatchObject({ dry_run: false, messages: [], requested: [{ job_id: jobId, workflow_id: workflowId }] })
    expect(await waitForMessages(id, `review:${jobId}:1:`, 1)).toEqual(dry.messages)
  })
})

describe('workflows.trigger_invoice', () => {
  it('shows the invoice it would issue and its payment link messages, issuing nothing; the run sends them with the real invoice\'s link', async () => {
    const { id, client } = await ownCompany(['instant_response'])
    await tool(client, 'payments.connect_account', {})
    const { jobId } = await acceptedQuote(client, { name: 'Jane Citizen', phone: '0412 345 678', email: 'jane@example.com' }, true)
    const due = await localDatePlus(client, 14) // the default payment terms
    const before = await footprint(id)

    const dry = await tool(client, 'workflows.trigger_invoice', { job_id: jobId, dry_run: true })
    expect(dry).toMatchObject({
      workflow_id: null, status: 'stopped', dry_run: true, already_invoiced: false,
      invoice: { invoice_number: 'INV-00001', total: 363 }, sent: { purpose: 'pay_link', channels: ['sms', 'email'], skipped: null },
    })
    const pay: string = dry.invoice.payment_url
    expect(pay).toMatch(/\/i\/[A-Za-z0-9_-]+\/pay$/)
    expect(dry.messages).toEqual([
      { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `Hi Jane, you can pay invoice INV-00001 from ${BUSINESS} (${TOTAL}) online: ${pay}` },
      {
        channel: 'email', to: 'jane@example.com', subject: `Tax invoice INV-00001 from ${BUSINESS}`,
        text: `Hi Jane,\n\nPlease find attached tax invoice INV-00001 for ${TOTAL} incl. GST, due ${due}.\nPay it online here: ${pay}\n\n${BUSINESS}`,
        html: `<p>Hi Jane,</p><p>Please find attached tax invoice INV-00001 for ${TOTAL} incl. GST, due ${due}.</p><p><a href="${pay}">Pay it online here</a>.</p><p>${BUSINESS}</p>`,
      },
    ])
    expect(await footprint(id)).toEqual(before)
    expect(await app.owner`select id from invoices where job_id = ${jobId}`).toEqual([])

    const real = await tool(client, 'workflows.trigger_invoice', { job_id: jobId })
    expect(real).toMatchObject({ status: 'completed', dry_run: false, messages: [], invoice: { invoice_number: 'INV-00001' }, sent: { purpose: 'pay_link', channels: ['sms', 'email'] } })
    const sent = await waitForMessages(id, `pay_link:${real.invoice.id}:1:`, 2)
    expect(sent).toEqual(dry.messages.map((m: any) => JSON.parse(JSON.stringify(m).replaceAll(pay, real.invoice.payment_url))))
  })
})

describe('workflows.quote_to_invoice', () => {
  it('says nothing goes before the job is Completed; once it is, shows the invoice messages the run would send at once, and the run sends them', async () => {
    const { id, client } = await ownCompany(['instant_response'])
    const { quote, jobId } = await acceptedQuote(client, { name: 'Jane Citizen', phone: '0412 345 678', email: 'jane@example.com' }, false)
    const workflowId = quoteToInvoiceWorkflowId({ companyId: id, quoteId: quote.id })
    const before = await footprint(id)

    const waiting = await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id, dry_run: true })
    expect(waiting).toMatchObject({ workflow_id: workflowId, started: false, job_id: jobId, dry_run: true, messages: [] })
    expect(waiting.outcome).toContain('jobs.complete')

    await tool(client, 'jobs.complete', { job_id: jobId })
    const due = await localDatePlus(client, 14)
    const dry = await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id, dry_run: true })
    expect(dry).toMatchObject({ workflow_id: workflowId, started: false, job_id: jobId, dry_run: true })
    // No payment account: the invoice itself, with its page (an issued-and-rolled-back invoice's token).
    const page = /View and pay: (\S+)$/.exec(dry.messages[0].text)![1]!
    expect(page).toMatch(/\/i\/[A-Za-z0-9_-]+$/)
    expect(dry.messages).toEqual([
      { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `Hi Jane, invoice INV-00001 from ${BUSINESS}: ${TOTAL} due ${due}. View and pay: ${page}` },
      {
        channel: 'email', to: 'jane@example.com', subject: `Tax invoice INV-00001 from ${BUSINESS}`,
        text: `Hi Jane,\n\nPlease find attached tax invoice INV-00001 for ${TOTAL} incl. GST, due ${due}.\nView it and pay online here: ${page}\n\n${BUSINESS}`,
        html: `<p>Hi Jane,</p><p>Please find attached tax invoice INV-00001 for ${TOTAL} incl. GST, due ${due}.</p><p><a href="${page}">View it and pay online here</a>.</p><p>${BUSINESS}</p>`,
      },
    ])
    expect(await app.owner`select id from invoices where job_id = ${jobId}`).toEqual([])
    expect(await footprint(id)).toEqual(before)

    expect(await tool(client, 'workflows.quote_to_invoice', { quote_id: quote.id })).toMatchObject({ workflow_id: workflowId, started: true, dry_run: false, messages: [] })
    await settle(workflowId)
    const [invoice] = await app.owner<{ id: string; public_token: string }[]>`select id, public_token from invoices where job_id = ${jobId}`
    const realPage = page.replace(/[^/]+$/, invoice!.public_token)
    const sent = await waitForMessages(id, `invoice:${invoice!.id}:1:`, 2)
    expect(sent).toEqual(dry.messages.map((m: any) => JSON.parse(JSON.stringify(m).replaceAll(page, realPage))))
  })
})

describe('workflows.approve_action', () => {
  it('shows the held follow-up as it would go, deciding nothing; approving sends exactly that', async () => {
    const { id, client } = await ownCompany(['instant_response'])
    await tool(client, 'workflows.toggle', { workflow_id: 'follow_up_quote', enabled: true, require_approval: true, settings: { delays_days: [1, 30, 60], approval_expiry_hours: 720 } })
    const { lead } = await tool(client, 'leads.create', { name: 'Casey Nguyen', phone: '0412 555 002' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [LINE] })
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true })
    await settle(sent.delivery.workflow_id)
    const { actions } = await waitFor(() => tool(client, 'workflows.pending_actions', {}), (r) => r.actions.length === 1, 20_000, 100)
    const action = actions[0]
    const before = await footprint(id)

    const dry = await tool(client, 'workflows.approve_action', { action_id: action.id, dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, alreadyDecided: false, action: { id: action.id, status: 'pending' } })
    expect(dry.messages).toEqual([{
      channel: 'sms', to: '+61412555002', subject: null, html: null,
      text: `Hi Casey, just following up on quote ${quote.quoteNumber} from ${BUSINESS} for ${TOTAL} incl. GST. You can view, accept or decline it here: ${sent.public_url}${OPT_OUT}`,
    }])
    expect(await footprint(id)).toEqual(before)
    expect((await tool(client, 'workflows.pending_actions', {})).actions).toMatchObject([{ id: action.id, status: 'pending', decidedAt: null }])

    const real = await tool(client, 'workflows.approve_action', { action_id: action.id })
    expect(real).toMatchObject({ dry_run: false, messages: [], action: { id: action.id, status: 'executed' } })
    expect(await recorded(id, `quote-follow-up:${quote.id}:1:1:`)).toEqual(dry.messages)
    // Decided now: a dry run answers as a repeated approval does, and would send nothing.
    expect(await tool(client, 'workflows.approve_action', { action_id: action.id, dry_run: true })).toMatchObject({ dry_run: true, alreadyDecided: true, messages: [] })
  })
})

describe('jobs.complete', () => {
  it('with request_review, shows the review request, completing and recording nothing; the real call sends that request', async () => {
    const { id, client } = await ownCompany(['instant_response'])
    await tool(client, 'reviews.update_settings', { links: { google: REVIEW_LINK }, default_platform: 'google' })
    const { jobId } = await acceptedQuote(client, { name: 'Jane Citizen', phone: '0412 345 678' }, false)
    const before = await footprint(id)

    const dry = await tool(client, 'jobs.complete', { job_id: jobId, request_review: true, satisfaction_rating: 5, dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, job: { id: jobId, status: 'Completed' }, review_request: { sent: true } })
    expect(dry.messages).toEqual([{
      channel: 'sms', to: '+61412345678', subject: null, html: null,
      text: `Hi Jane, thanks for choosing ${BUSINESS}. We'd appreciate an honest review of our work on Google Business Profile: ${REVIEW_LINK}${OPT_OUT}`,
    }])
    expect(dry.next_steps).toEqual([{ tool: 'jobs.complete', why: expect.stringContaining('without dry_run') }])
    expect(await footprint(id)).toEqual(before)
    const [job] = (await tool(client, 'jobs.list', {})).jobs.filter((j: { id: string }) => j.id === jobId)
    expect(job).toMatchObject({ status: 'Quoted', completed_at: null, review_requested_at: null })
    expect(await app.owner`select id from review_requests where job_id = ${jobId}`).toEqual([])

    const real = await tool(client, 'jobs.complete', { job_id: jobId, request_review: true, satisfaction_rating: 5 })
    expect(real).toMatchObject({ dry_run: false, job: { status: 'Completed' }, messages: dry.messages })
    expect(await waitForMessages(id, `review:${jobId}:1:`, 1)).toEqual(dry.messages)
  })
})

describe('workflows.process_lead', () => {
  it('shows the score, priority and the instant reply it would start, changing and starting nothing', async () => {
    const { id, client } = await ownCompany()
    // No contact at first, so the instant response does not run with the lead; the mobile comes later.
    const { lead } = await tool(client, 'leads.create', { name: 'Robin Park', serviceType: 'hot water', message: 'Burst pipe, urgent please' })
    await tool(client, 'leads.update', { lead_id: lead.id, phone: '0400 222 333' })
    const before = await footprint(id)
    const dry = await tool(client, 'workflows.process_lead', { lead_id: lead.id, dry_run: true })
    expect(dry).toMatchObject({ dry_run: true, started: false, status: 'stopped', reminder: null, instant_response: 'would start: the messages below' })
    expect(dry.score).toBeGreaterThan(0)
    expect(dry.messages).toEqual([{ channel: 'sms', to: '+61400222333', subject: null, html: null, text: `Hi Robin, thanks for contacting ${BUSINESS} about hot water. We have your enquiry and will be in touch shortly.` }])
    expect(await footprint(id)).toEqual(before)
    expect((await tool(client, 'leads.list', {})).leads[0]).toMatchObject({ id: lead.id, priority: 'Normal', status: 'New' })
    expect(await app.owner`select id from reminders where lead_id = ${lead.id}`).toEqual([])

    const real = await tool(client, 'workflows.process_lead', { lead_id: lead.id })
    expect(real).toMatchObject({ dry_run: false, messages: [], score: dry.score, priority: dry.priority, reasons: dry.reasons })
  })
})
