// What a customer reads: the exact SMS and email of quotes.send, payments.send_link and
// jobs.send_eta, with and without the owner's note, shown by dry_run through a real MCP client.
// One greeting (none added when the note brings its own), amounts as "$3,272.50", the business
// name and the link; a dry run sends, records and counts nothing and changes nothing, and the real
// send then sends exactly the text the dry run showed. Expected texts are written out here.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { connectClient } from '../src/temporal/connection.js'

const BUSINESS = 'Harbour City Plumbing'
// 2,500.00 + 5 x 95.00 = 2,975.00 ex GST; with 10% GST 3,272.50.
const LINES = [{ description: 'Hot water system, 250L', quantity: 1, unitPrice: 2500 }, { description: 'Labour (hours)', quantity: 5, unitPrice: 95 }]
// Every automation that would message the lead on its own is off, so each message here is the tool's.
const AUTOMATIONS = ['instant_response', 'schedule_job', 'trigger_invoice', 'quote_to_invoice', 'process_lead', 'chase_payment', 'follow_up_quote', 'sync_contact', 'team_notify']

let app: TestApp
let client: Client
let company: Awaited<ReturnType<typeof onboard>>
let leadId: string

beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { business_name: BUSINESS, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  for (const workflow_id of AUTOMATIONS) await tool(client, 'workflows.toggle', { workflow_id, enabled: false })
  leadId = (await tool(client, 'leads.create', { name: 'Jane Citizen', phone: '0412 345 678', email: 'jane@example.com', suburb: 'Glebe' })).lead.id
  expect((await app.call('POST', '/api/v1/payments/account', { key: company.api_key })).body.account).toMatchObject({ status: 'active' })
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

async function settle(workflowId: string) {
  const temporal = await connectClient(inject('temporalAddress'), 'default')
  try {
    await temporal.workflow.getHandle(workflowId).result()
  } finally {
    await temporal.connection.close()
  }
}

/** What the providers were handed (the local providers record it and nothing else). */
const sent = (column: 'quote_id' | 'job_id', id: string) =>
  app.owner`select channel, to_address, subject, body, text_body, status from communications where ${app.owner(column)} = ${id} order by channel`
// The message limits (a dry run is still an API call, counted as any call is).
const counted = () => app.owner`select metric, count from usage_counters where company_id = ${company.company_id} and metric in ('sms', 'email') order by metric`
const queuedDeliveries = () => app.owner`select workflow_id from workflow_outbox where company_id = ${company.company_id} and workflow_id like 'deliver:%'`

/** A dry run's messages as the communications table records a real send. */
const asRecorded = (messages: any[]) => messages.map((m) => ({
  channel: m.channel, to_address: m.to, subject: m.subject, body: m.channel === 'sms' ? m.text : m.html, text_body: m.channel === 'sms' ? null : m.text,
}))

async function draftQuote() {
  const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: LINES })
  expect(quote.total).toBe(3272.5)
  return quote
}

describe('quotes.send', () => {
  it('shows one greeting, the note as written, $3,272.50, the business and the link; nothing happens until the real send, which sends that text', async () => {
    const quote = await draftQuote()
    const about = `${quote.quoteNumber} from ${BUSINESS} for $3,272.50 incl. GST`
    const before = { counted: await counted(), deliveries: await queuedDeliveries() }

    const plain = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true, send_email: true, dry_run: true })
    const url: string = plain.public_url
    expect(url).toMatch(/\/q\/[A-Za-z0-9_-]{32}$/)
    expect(plain).toMatchObject({ dry_run: true, quote: { status: 'Draft' }, delivery: { workflow_id: null, channels: ['sms', 'email'] }, follow_ups: null })
    expect(plain.messages).toEqual([
      { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `Hi Jane, your quote ${about}: ${url}` },
      {
        channel: 'email', to: 'jane@example.com', subject: `Your quote ${quote.quoteNumber} from ${BUSINESS}`,
        text: `Hi Jane,\n\nYour quote ${about} is ready. View, accept or decline it here: ${url}\n\n${BUSINESS}`,
        html: `<p>Hi Jane,</p><p>Your quote ${about} is ready: <a href="${url}">view, accept or decline it here</a>.</p><p>${BUSINESS}</p>`,
      },
    ])

    const note = 'Hi Jane, here is our quote for the new hot water system.'
    const greeted = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true, send_email: true, message: note, dry_run: true })
    expect(greeted.messages.map((m: any) => m.text)).toEqual([
      `${note}\nYour quote ${about}: ${url}`,
      `${note}\n\nYour quote ${about} is ready. View, accept or decline it here: ${url}\n\n${BUSINESS}`,
    ])
    expect(greeted.messages[1].html).toBe(`<p>${note}</p><p>Your quote ${about} is ready: <a href="${url}">view, accept or decline it here</a>.</p><p>${BUSINESS}</p>`)

    const plainNote = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true, message: 'As discussed on site, price includes removal of the old unit.', dry_run: true })
    expect(plainNote.messages.map((m: any) => m.text)).toEqual([`Hi Jane,\nAs discussed on site, price includes removal of the old unit.\nYour quote ${about}: ${url}`])

    // Three dry runs: nothing sent, recorded, counted, queued or changed.
    expect(await sent('quote_id', quote.id)).toEqual([])
    expect(await counted()).toEqual(before.counted)
    expect(await queuedDeliveries()).toEqual(before.deliveries)
    const [row] = await app.owner`select status, sent_count, sent_at from quotes where id = ${quote.id}`
    expect(row).toEqual({ status: 'Draft', sent_count: 0, sent_at: null })
    expect(await app.owner`select 1 from event_outbox where entity_id = ${quote.id} and event_type = 'quote.sent'`).toHaveLength(0)

    const real = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true, send_email: true, message: note })
    expect(real).toMatchObject({ dry_run: false, public_url: url, quote: { status: 'Sent' } })
    expect(real.messages).toEqual(greeted.messages)
    await settle(real.delivery.workflow_id)
    const recorded = await sent('quote_id', quote.id)
    expect(recorded.map(({ status: _, ...m }) => m)).toEqual(asRecorded([greeted.messages[1], greeted.messages[0]]))
    expect(recorded.map((m) => m.status)).toEqual(['recorded', 'recorded'])
  })
})

describe('payments.send_link', () => {
  it("shows the link SMS and email for the job's invoice without a second greeting; the real send sends that text", async () => {
    const quote = await draftQuote()
    const job = { id: (await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })).quote.job_id }
    await tool(client, 'jobs.complete', { job_id: job.id })
    // invoicing.generate's dry run issues nothing: the invoice it shows is rolled back.
    const preview = await tool(client, 'invoicing.generate', { job_id: job.id, send_sms: true, dry_run: true })
    expect(preview).toMatchObject({ dry_run: true, total: 3272.5, delivery: { workflow_id: null, channels: ['sms'] } })
    expect(preview.messages).toEqual([{
      channel: 'sms', to: '+61412345678', subject: null, html: null,
      text: `Hi Jane, invoice ${preview.invoice_number} from ${BUSINESS}: $3,272.50 due ${preview.invoice.dueDate}. View and pay: ${preview.invoice.publicUrl}`,
    }])
    expect(await app.owner`select id from invoices where job_id = ${job.id}`).toEqual([])
    const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id })
    expect(invoice.invoiceNumber).toBe(preview.invoice_number)
    expect(invoice.total).toBe(3272.5)
    const pay = `${invoice.publicUrl}/pay`
    const before = await counted()

    const plain = await tool(client, 'payments.send_link', { job_id: job.id, channel: 'both', dry_run: true })
    expect(plain).toMatchObject({ dry_run: true, payment_url: pay, amount: 3272.5, delivery: { workflow_id: null, channels: ['sms', 'email'] } })
    const due = invoice.dueDate
    expect(plain.messages).toEqual([
      { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `Hi Jane, you can pay invoice ${invoice.invoiceNumber} from ${BUSINESS} ($3,272.50) online: ${pay}` },
      {
        channel: 'email', to: 'jane@example.com', subject: `Tax invoice ${invoice.invoiceNumber} from ${BUSINESS}`,
        text: `Hi Jane,\n\nPlease find attached tax invoice ${invoice.invoiceNumber} for $3,272.50 incl. GST, due ${due}.\nPay it online here: ${pay}\n\n${BUSINESS}`,
        html: `<p>Hi Jane,</p><p>Please find attached tax invoice ${invoice.invoiceNumber} for $3,272.50 incl. GST, due ${due}.</p><p><a href="${pay}">Pay it online here</a>.</p><p>${BUSINESS}</p>`,
      },
    ])

    // The note of the issue: "Thanks Jane" greets, so no "Hi Jane," goes in front of it.
    const note = 'Thanks Jane, it was great working with you.'
    const greeted = await tool(client, 'payments.send_link', { job_id: job.id, message: note, dry_run: true })
    expect(greeted.messages).toEqual([
      { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `${note}\nYou can pay invoice ${invoice.invoiceNumber} from ${BUSINESS} ($3,272.50) online: ${pay}` },
    ])

    expect(await sent('job_id', job.id)).toEqual([])
    expect(await counted()).toEqual(before)
    const [row] = await app.owner`select sent_count from invoices where id = ${invoice.id}`
    expect(row!.sent_count).toBe(0)

    const real = await tool(client, 'payments.send_link', { job_id: job.id, message: note })
    expect(real).toMatchObject({ dry_run: false, messages: greeted.messages })
    await settle(real.delivery.workflow_id)
    expect((await sent('job_id', job.id)).map(({ status: _, ...m }) => m)).toEqual(asRecorded(greeted.messages))
  })
})

describe('jobs.send_eta', () => {
  it('shows the on-my-way notice with and without a note; the real send sends that text', async () => {
    const { job } = await tool(client, 'jobs.create', { lead_id: leadId, title: 'Hot water install', scheduled_date: '2026-12-01T08:00:00+11:00', technician: 'Sam' })
    const before = await counted()
    const notice = `Sam from ${BUSINESS} is on the way and should arrive in about 20 minutes.`

    const plain = await tool(client, 'jobs.send_eta', { job_id: job.id, eta_minutes: 20, channel: 'both', dry_run: true })
    expect(plain).toMatchObject({ dry_run: true, job: { id: job.id }, delivery: { workflow_id: null, channels: ['sms', 'email'] } })
    expect(plain.messages).toEqual([
      { channel: 'sms', to: '+61412345678', subject: null, html: null, text: `Hi Jane, ${notice}` },
      {
        channel: 'email', to: 'jane@example.com', subject: `${BUSINESS} is on the way`,
        text: `Hi Jane,\n\n${notice}\n\n${BUSINESS}`, html: `<p>Hi Jane,</p><p>${notice}</p><p>${BUSINESS}</p>`,
      },
    ])

    const note = "G'day Jane, running ten minutes behind, sorry!"
    const greeted = await tool(client, 'jobs.send_eta', { job_id: job.id, eta_minutes: 20, message: note, dry_run: true })
    expect(greeted.messages).toEqual([{ channel: 'sms', to: '+61412345678', subject: null, html: null, text: `${note}\n${notice}` }])

    expect(await sent('job_id', job.id)).toEqual([])
    expect(await counted()).toEqual(before)
    const [row] = await app.owner`select eta_count from jobs where id = ${job.id}`
    expect(row!.eta_count).toBe(0)

    const real = await tool(client, 'jobs.send_eta', { job_id: job.id, eta_minutes: 20, message: note })
    expect(real).toMatchObject({ dry_run: false, messages: greeted.messages })
    await settle(real.delivery.workflow_id)
    expect((await sent('job_id', job.id)).map(({ status: _, ...m }) => m)).toEqual(asRecorded(greeted.messages))
  })
})

describe('comms.send_sms and comms.send_email', () => {
  const toJane = () => app.owner`select channel, to_address, subject, body, text_body from communications where lead_id = ${leadId} and message_type in ('manual', 'marketing') order by created_at, channel`

  it('a dry run shows the message as the provider gets it (a marketing SMS with who it is from and the opt-out) and records nothing; the real send records that text', async () => {
    const before = await counted()
    const dry = await tool(client, 'comms.send_sms', { to: '0412 345 678', message: 'Winter special: 10% off hot water services this month.', message_type: 'marketing', lead_id: leadId, dry_run: true })
    expect(dry).toMatchObject({ message: null, dry_run: true, skipped: [], delivery: { workflow_id: null } })
    // The company has no ABN on file, so it is identified by name.
    expect(dry.messages).toEqual([{
      channel: 'sms', to: '+61412345678', subject: null, html: null,
      text: `Winter special: 10% off hot water services this month.\n- ${BUSINESS}. Reply STOP to opt out`,
    }])
    const email = await tool(client, 'comms.send_email', { to: 'jane@example.com', subject: 'Your booking', body: '<p>Hi Jane, see you <b>Monday</b>.</p>', lead_id: leadId, dry_run: true })
    expect(email.messages).toEqual([{ channel: 'email', to: 'jane@example.com', subject: 'Your booking', html: '<p>Hi Jane, see you <b>Monday</b>.</p>', text: 'Hi Jane, see you Monday.' }])
    expect(await toJane()).toEqual([])
    expect(await counted()).toEqual(before)

    const real = await tool(client, 'comms.send_sms', { to: '0412 345 678', message: 'Winter special: 10% off hot water services this month.', message_type: 'marketing', lead_id: leadId })
    expect(real).toMatchObject({ dry_run: false, messages: dry.messages, message: { status: 'queued' } })
    await settle(real.delivery.workflow_id)
    expect(await toJane()).toEqual(asRecorded(dry.messages))
  })
})
