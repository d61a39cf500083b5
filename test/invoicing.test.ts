// Invoicing and payments through the real service: the errors the issue names (each saying what to
// do next), what an invoice contains, numbering and dates, void and credit notes, payments on the
// sandbox card page and by hand (each recorded once), and the card surcharge.
// PDF, the phone page, sending, chase and recovery are in invoicing-recovery.test.ts.
// Expected money is computed here in integer cents, never read back from the invoices under test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

interface Tenant { key: string; client: Client; leadId: string }

let app: TestApp
let a: Tenant // sandbox payment account connected
let b: Tenant // another company, never connected
const clients: Client[] = []

async function tenant(name: string, connect: boolean): Promise<Tenant> {
  const company = await onboard(app, { business_name: name, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', email: 'morgan@example.com', suburb: 'Marrickville' })
  if (connect) expect((await app.call('POST', '/api/v1/payments/account', { key: company.api_key })).body.account).toMatchObject({ status: 'active' })
  return { key: company.api_key, client, leadId: lead.id }
}

beforeAll(async () => {
  app = await startTestApp()
  a = await tenant('Harbour City Plumbing', true)
  b = await tenant('Other Trades Pty Ltd', false)
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
})

const cents = (dollars: number) => Math.round(dollars * 100)
const sydneyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date())
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
const tokenOf = (invoice: { publicUrl: string }) => new URL(invoice.publicUrl).pathname.split('/')[2]!
const rest = (t: Tenant, method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key: t.key, body })

async function completedJob(t: Tenant, amount: number): Promise<string> {
  const { job } = await tool(t.client, 'jobs.create', { lead_id: t.leadId, title: 'Switchboard upgrade', amount })
  await tool(t.client, 'jobs.complete', { job_id: job.id })
  return job.id
}

async function invoiced(t: Tenant, amount: number, extra: Record<string, unknown> = {}) {
  const jobId = await completedJob(t, amount)
  const res = await tool(t.client, 'invoicing.generate', { job_id: jobId, ...extra })
  return { jobId, invoice: res.invoice }
}

/** The sandbox card page's form, posted as a browser would. */
const payOnSandbox = (token: string, amount: string, attempt: string) => fetch(`${app.url}/sandbox/invoices/${token}/pay`, {
  method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ amount, attempt }).toString(), redirect: 'manual',
})
const paymentsOf = (invoiceId: string) => app.owner`select amount_cents, surcharge_cents, method, provider, reference from payments where invoice_id = ${invoiceId} order by created_at`

describe('errors the issue names', () => {
  it('invoicing.generate on a job that is not Completed names its status and jobs.complete', async () => {
    for (const status of ['Quoted', 'Scheduled', 'In Progress']) {
      const { job } = await tool(a.client, 'jobs.create', { lead_id: a.leadId, amount: 500, ...(status === 'Quoted' ? {} : { scheduled_date: '2026-12-01T08:00:00+11:00' }) })
      if (status === 'In Progress') await tool(a.client, 'jobs.update', { job_id: job.id, status })
      const err = await toolError(a.client, 'invoicing.generate', { job_id: job.id })
      expect(err).toMatchObject({ error: 'conflict', current_status: status, next_step: 'jobs.complete' })
      expect(err.message).toContain(`The job is ${status}`)
      expect(err.message).toContain('jobs.complete')
      expect(await app.owner`select id from invoices where job_id = ${job.id}`).toHaveLength(0)
    }
  })

  it('payments.send_link without a payment account says how to connect one', async () => {
    const { jobId } = await invoiced(b, 220)
    const err = await toolError(b.client, 'payments.send_link', { job_id: jobId })
    expect(err).toMatchObject({ error: 'payment_account_required', next_step: 'payments.connect_account' })
    expect(err.message).toContain('the payments.connect_account tool')
    expect(await app.owner`select id from communications where job_id = ${jobId}`).toHaveLength(0)
  })

  it('a payment over the balance is refused (REST and the sandbox card page) and records nothing', async () => {
    const { invoice } = await invoiced(a, 440)
    const over = await rest(a, 'POST', `/invoices/${invoice.id}/payments`, { amount: 440.01, method: 'bank_transfer' })
    expect(over.status).toBe(400)
    expect(over.body).toMatchObject({ error: 'validation_error', balance: 440 })
    expect(over.body.message).toContain('more than is owed')
    expect(over.body.message).toContain('$440.00')
    const page = await payOnSandbox(tokenOf(invoice), '440.01', 'attempt-over-1')
    expect(page.status).toBe(400)
    expect(await page.text()).toContain('That payment is more than is owed')
    expect(await paymentsOf(invoice.id)).toHaveLength(0)
    expect(await app.owner`select id from event_outbox where event_type = 'payment.received' and payload->'invoice'->>'id' = ${invoice.id}`).toHaveLength(0)
    const [row] = await app.owner`select amount_paid_cents, status from invoices where id = ${invoice.id}`
    expect(row).toMatchObject({ amount_paid_cents: '0', status: 'Draft' })
  })

  it("another company's ids are not_found for every operation, and its invoices never list", async () => {
    const theirs = await invoiced(b, 330)
    const missing = (e: any) => expect(e.error).toBe('not_found')
    missing(await toolError(a.client, 'invoicing.generate', { job_id: theirs.jobId }))
    missing(await toolError(a.client, 'invoicing.chase', { jobId: theirs.jobId }))
    missing(await toolError(a.client, 'invoicing.recovery', { job_id: theirs.jobId, state: 'NSW' }))
    missing(await toolError(a.client, 'payments.send_link', { job_id: theirs.jobId }))
    const id = theirs.invoice.id
    const calls: [string, string, unknown?][] = [
      ['GET', `/invoices/${id}`], ['POST', `/invoices/${id}/send`, {}], ['POST', `/invoices/${id}/void`, { reason: 'not mine' }],
      ['POST', `/invoices/${id}/credit-notes`, { amount: 10, reason: 'not mine' }], ['POST', `/invoices/${id}/payments`, { amount: 10, method: 'cash' }],
    ]
    for (const [method, path, body] of calls) {
      const res = await rest(a, method, path, body)
      expect([path, res.status, res.body.error]).toEqual([path, 404, 'not_found'])
    }
    const [row] = await app.owner`select status, amount_paid_cents, amount_credited_cents, sent_count from invoices where id = ${id}`
    expect(row).toMatchObject({ status: 'Draft', amount_paid_cents: '0', amount_credited_cents: '0', sent_count: 0 })
    const listed = (await rest(a, 'GET', '/invoices?limit=100')).body.invoices.map((i: any) => i.id)
    expect(listed.length).toBeGreaterThan(0)
    expect(listed).not.toContain(id)
    expect((await rest(b, 'GET', '/invoices?limit=100')).body.invoices.map((i: any) => i.id)).toContain(id)
  })
})

describe('what an invoice contains', () => {
  it('a job with an amount and no quote: one line, GST one eleventh of the amount', async () => {
    const { invoice } = await invoiced(a, 1000.05)
    const gst = Math.round(100005 / 11) // 9091.36 -> 9091
    expect(invoice.lineItems).toEqual([{ description: 'Switchboard upgrade', quantity: 1, unitPrice: (100005 - gst) / 100, total: (100005 - gst) / 100, gst: gst / 100 }])
    expect(invoice).toMatchObject({ kind: 'final', status: 'Draft', subtotal: (100005 - gst) / 100, gst: gst / 100, total: 1000.05, balance: 1000.05 })
  })

  it("a job from a quote: the quote's lines, per-line GST adding up to the quote's GST; extras with 10% GST", async () => {
    // Three lines of $12.35: rounding each line's GST would give $3.72; 10% of the $37.05 subtotal is $3.71.
    const lines = ['hallway', 'bedroom 1', 'bedroom 2'].map((room) => ({ description: `Smoke alarm (${room})`, quantity: 1, unitPrice: 12.35 }))
    const { quote } = await tool(a.client, 'quotes.create', { lead_id: a.leadId, line_items: lines })
    expect(quote).toMatchObject({ subtotal: 37.05, gst: 3.71, total: 40.76 })
    const job = { id: (await tool(a.client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })).quote.job_id }
    // 3 x $33.35 = $100.05 ex GST; 10% is 1000.5 cents, half up to $10.01.
    await tool(a.client, 'jobs.update', { job_id: job.id, add_extras: [{ description: 'Extra power point', quantity: 3, unitPrice: 33.35 }] })
    await tool(a.client, 'jobs.complete', { job_id: job.id })
    const { invoice } = await tool(a.client, 'invoicing.generate', { job_id: job.id })
    const fromQuote = invoice.lineItems.slice(0, 3)
    expect(fromQuote.map((l: any) => [l.description, l.total])).toEqual(lines.map((l) => [l.description, 12.35]))
    expect(fromQuote.reduce((s: number, l: any) => s + cents(l.gst), 0)).toBe(371)
    for (const l of fromQuote) expect(Math.abs(cents(l.gst) - cents(l.total) / 10)).toBeLessThanOrEqual(1)
    expect(invoice.lineItems[3]).toEqual({ description: 'Extra power point', quantity: 3, unitPrice: 33.35, total: 100.05, gst: 10.01 })
    expect(invoice).toMatchObject({ subtotal: 137.1, gst: 13.72, total: 150.82, quoteId: quote.id })
  })

  it('numbers are gapless per company, dates follow the payment terms, a second final invoice names the first', async () => {
    const c = await tenant('Numbering Electrical', false)
    const today = sydneyToday()
    const first = await invoiced(c, 110)
    expect(first.invoice).toMatchObject({ invoiceNumber: 'INV-00001', issueDate: today, dueDate: plusDays(today, 14) })
    const again = await toolError(c.client, 'invoicing.generate', { job_id: first.jobId })
    expect(again).toMatchObject({ error: 'conflict', invoice_number: 'INV-00001', invoice_id: first.invoice.id })
    expect(again.message).toContain('already has its invoice INV-00001')
    const terms = await rest(c, 'PATCH', '/settings/invoicing', { payment_terms_days: 30 })
    expect([terms.status, terms.body.settings.payment_terms_days]).toEqual([200, 30])
    const second = await invoiced(c, 220)
    expect(second.invoice).toMatchObject({ invoiceNumber: 'INV-00002', dueDate: plusDays(today, 30) })
    expect((await invoiced(c, 330, { due_in_days: 0 })).invoice).toMatchObject({ invoiceNumber: 'INV-00003', dueDate: today })
    // b has invoices of its own; a fresh company starts at INV-00001 whatever others have issued.
    expect((await invoiced(await tenant('Fresh Start Roofing', false), 99)).invoice.invoiceNumber).toBe('INV-00001')
  })

  it('void then generate again: the void invoice keeps its number and is left out', async () => {
    const first = await invoiced(a, 770)
    const voided = await rest(a, 'POST', `/invoices/${first.invoice.id}/void`, { reason: 'Wrong client address' })
    expect([voided.status, voided.body.invoice.status, voided.body.invoice.voidReason]).toEqual([200, 'Void', 'Wrong client address'])
    const { invoice } = await tool(a.client, 'invoicing.generate', { job_id: first.jobId })
    const n = (s: string) => Number(s.slice(4))
    expect(n(invoice.invoiceNumber)).toBeGreaterThan(n(first.invoice.invoiceNumber))
    expect(invoice.total).toBe(770)
    expect((await rest(a, 'GET', `/invoices/${first.invoice.id}`)).body.invoice).toMatchObject({ invoiceNumber: first.invoice.invoiceNumber, status: 'Void' })
  })

  it('a paid invoice cannot be voided', async () => {
    const { invoice } = await invoiced(a, 150)
    expect((await rest(a, 'POST', `/invoices/${invoice.id}/payments`, { amount: 150, method: 'cash' })).status).toBe(201)
    const res = await rest(a, 'POST', `/invoices/${invoice.id}/void`, { reason: 'Client changed mind' })
    expect([res.status, res.body.error]).toEqual([409, 'conflict'])
    expect(res.body.message).toContain('credit note')
    expect((await app.owner`select status from invoices where id = ${invoice.id}`)[0]!.status).toBe('Paid')
  })

  it('a credit note (CN-00001) reduces the balance, at most the balance; crediting the whole unpaid balance says void', async () => {
    const { invoice } = await invoiced(a, 880)
    const whole = await rest(a, 'POST', `/invoices/${invoice.id}/credit-notes`, { amount: 880, reason: 'Job cancelled' })
    expect([whole.status, whole.body.error]).toEqual([400, 'validation_error'])
    expect(whole.body.message).toContain('void it instead')
    const cn = await rest(a, 'POST', `/invoices/${invoice.id}/credit-notes`, { amount: 100, reason: 'Discount agreed on site' })
    expect(cn.status).toBe(201)
    // The note carries the invoice's GST share: 10000 x 8000 / 88000 = 909.09 -> $9.09.
    expect(cn.body.credit_note).toMatchObject({ invoiceNumber: 'CN-00001', kind: 'credit_note', creditsInvoiceId: invoice.id, total: 100, gst: 9.09 })
    expect(cn.body.invoice).toMatchObject({ balance: 780, total: 880 })
    const over = await rest(a, 'POST', `/invoices/${invoice.id}/credit-notes`, { amount: 780.01, reason: 'Too much' })
    expect([over.status, over.body.error]).toEqual([400, 'validation_error'])
    expect(over.body.message).toContain('at most its balance of $780.00')
    const [row] = await app.owner`select amount_credited_cents from invoices where id = ${invoice.id}`
    expect(row!.amount_credited_cents).toBe('10000')
  })
})

describe('payments', () => {
  it('sandbox card page: part then the rest; a double submit is one payment; one payment.received each; invoice.sent once', async () => {
    const { invoice } = await invoiced(a, 600)
    const sent = await rest(a, 'POST', `/invoices/${invoice.id}/send`, { send_email: true })
    expect([sent.status, sent.body.invoice.status]).toEqual([200, 'Sent'])
    const token = tokenOf(invoice)
    const page = await fetch(`${app.url}/sandbox/invoices/${token}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('$600.00')
    for (let i = 0; i < 2; i++) {
      const res = await payOnSandbox(token, '250.00', 'attempt-part-0001')
      expect([res.status, res.headers.get('location')]).toEqual([303, `/i/${token}?paid=1`])
    }
    expect((await rest(a, 'GET', `/invoices/${invoice.id}`)).body.invoice).toMatchObject({ status: 'Partially Paid', amountPaid: 250, balance: 350 })
    expect((await payOnSandbox(token, '350', 'attempt-rest-0002')).status).toBe(303)
    expect((await rest(a, 'GET', `/invoices/${invoice.id}`)).body.invoice).toMatchObject({ status: 'Paid', amountPaid: 600, balance: 0 })
    expect((await paymentsOf(invoice.id)).map((p) => [p.amount_cents, p.method, p.provider])).toEqual([['25000', 'card', 'sandbox'], ['35000', 'card', 'sandbox']])
    const received = await app.owner`select entity_id from event_outbox where event_type = 'payment.received' and payload->'invoice'->>'id' = ${invoice.id}`
    expect(received).toHaveLength(2)
    const sentEvents = await app.owner`select id from event_outbox where event_type = 'invoice.sent' and entity_id = ${invoice.id}`
    expect(sentEvents).toHaveLength(1)
  })

  it('a manual payment with the same reference twice records one payment', async () => {
    const { invoice } = await invoiced(a, 500)
    const body = { amount: 200, method: 'bank_transfer', reference: 'CBA 4471 Blake' }
    const one = await rest(a, 'POST', `/invoices/${invoice.id}/payments`, body)
    const two = await rest(a, 'POST', `/invoices/${invoice.id}/payments`, body)
    expect([one.status, one.body.already_recorded, one.body.invoice.balance]).toEqual([201, false, 300])
    expect([two.body.already_recorded, two.body.payment.id, two.body.invoice.balance]).toEqual([true, one.body.payment.id, 300])
    expect(await paymentsOf(invoice.id)).toEqual([{ amount_cents: '20000', surcharge_cents: '0', method: 'bank_transfer', provider: 'manual', reference: 'CBA 4471 Blake' }])
    expect(await app.owner`select id from event_outbox where event_type = 'payment.received' and payload->'invoice'->>'id' = ${invoice.id}`).toHaveLength(1)
  })
})

describe('card surcharge', () => {
  it('is off by default, capped by the stated cost, then its own line; the balance drops by the amount only', async () => {
    const d = await tenant('Surcharge Sparkies', true)
    // $331.00: 1.5% is 496.5 cents, half up to $4.97.
    const { invoice } = await invoiced(d, 331)
    const token = tokenOf(invoice)
    const before = await (await fetch(`${app.url}/sandbox/invoices/${token}`)).text()
    expect(before).not.toContain('Card surcharge')
    expect(before).not.toContain('id="surcharge"')

    const settings = (body: unknown) => rest(d, 'PATCH', '/settings/invoicing', body)
    const uncapped = await settings({ card_surcharge_percent: 1.5 })
    expect([uncapped.status, uncapped.body.error]).toEqual([400, 'validation_error'])
    expect(uncapped.body.messages.join()).toContain('card_acceptance_cost_percent')
    const above = await settings({ card_acceptance_cost_percent: 1.2, card_surcharge_percent: 1.5 })
    expect([above.status, above.body.error]).toEqual([400, 'validation_error'])
    expect(above.body.messages.join()).toContain('above your stated cost')
    expect((await settings({ card_acceptance_cost_percent: 1.75, card_surcharge_percent: 1.75 })).status).toBe(200)
    const at = await settings({ card_surcharge_percent: 1.5 })
    expect([at.status, at.body.settings.card_surcharge_percent, at.body.settings.card_acceptance_cost_percent]).toEqual([200, 1.5, 1.75])

    const halfUp = (amountCents: number) => Math.round((amountCents * 15) / 1000)
    expect(halfUp(33_100)).toBe(497)
    const after = await (await fetch(`${app.url}/sandbox/invoices/${token}`)).text()
    expect(after).toContain('Card surcharge (1.5%)')
    expect(after).toContain('<dd id="surcharge">$4.97</dd>')
    expect(after).toContain('<dd id="charged">$335.97</dd>')

    // Paying $123.00: its surcharge is 184.5 cents -> 185, recorded apart from the amount.
    expect((await payOnSandbox(token, '123.00', 'attempt-surcharge-1')).status).toBe(303)
    expect(await paymentsOf(invoice.id)).toMatchObject([{ amount_cents: '12300', surcharge_cents: String(halfUp(12_300)) }])
    expect((await rest(d, 'GET', `/invoices/${invoice.id}`)).body.invoice).toMatchObject({ amountPaid: 123, balance: 208, status: 'Partially Paid' })
  })
})
