// A job taken to cash by an agent through MCP alone, with the client's side in a real browser
// (Debian's chromium at phone width): lead -> quote asking a 20% deposit -> send -> the client
// accepts on the quote page and lands on the deposit's pay page -> pays on the sandbox -> job ->
// progress claim of 50% -> complete -> the final invoice nets both -> paid. The owner's one step
// outside MCP is connecting the payment account (a processor sign-up is the owner's to finish).
// Expected amounts are worked out here from the quote's lines, not read back from the service.
import { mkdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchChromium, phoneContext } from './helpers/browser.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const SHOTS = 'test-results/screenshots'
let app: TestApp
let client: Client
let browser: Browser
let company: Awaited<ReturnType<typeof onboard>>

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  app = await startTestApp()
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa', business_name: 'Harbour City Plumbing', abn: '51 824 753 556' })
  const connected = await app.call('POST', '/api/v1/payments/account', { key: company.api_key })
  expect(connected.body.account).toMatchObject({ status: 'active', provider: 'sandbox' })
  client = await connectHttp(app, company.api_key)
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await client?.close()
  await app?.stop()
})

const phone = (): Promise<BrowserContext> => phoneContext(browser)
const cents = (dollars: number) => Math.round(dollars * 100)
/** Round half up of n / d, in integers (the quote's own rule, written again here). */
const divRound = (n: number, d: number) => Math.floor((2 * n + d) / (2 * d))

/** On the sandbox card page: pay the whole balance, and come back to the invoice page showing Paid. */
async function payOnSandbox(page: Page, invoiceNumber: string) {
  await page.waitForURL(/\/sandbox\/invoices\//)
  expect(await page.locator('h1').textContent()).toContain('Harbour City Plumbing')
  expect(await page.locator('body').innerText()).toContain(invoiceNumber)
  await page.getByRole('button', { name: 'Pay with test card' }).click()
  await page.waitForURL(/\/i\/[^/]+\?paid=1$/)
  expect(await page.locator('#invoice-status').getAttribute('data-status')).toBe('Paid')
  expect(await page.locator('#balance').textContent()).toBe('$0.00')
}

describe('lead to cash through MCP', () => {
  it('deposit, progress claim and final invoice add up to the quote to the cent, each payment recorded once', async () => {
    const lines = [
      { description: 'Supply & install 250L electric hot water system', quantity: 1, unitPrice: 1650 },
      { description: 'Labour (hours)', quantity: 2.5, unitPrice: 95.5 },
      { description: 'Tempering valve', quantity: 1, unitPrice: 129.99 },
    ]
    // The quote's money, independently: line totals, GST 10% of the subtotal half up.
    const subtotal = lines.reduce((a, l) => a + divRound(Math.round(l.quantity * 1000) * cents(l.unitPrice), 1000), 0)
    const gst = divRound(subtotal * 10, 100)
    const total = subtotal + gst
    const deposit = divRound(total * 20, 100)
    const claim = divRound(total * 70, 100) - deposit // percentages accumulate: 20% + 50% is 70% of the total
    const final = total - deposit - claim

    const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', email: 'morgan@example.com.au', suburb: 'Marrickville' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: lines, deposit_percent: 20 })
    expect(cents(quote.total)).toBe(total)
    expect(quote.deposit).toEqual({ percent: 20, amount: deposit / 100, invoiceId: null })
    const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: true })

    // The client accepts on the quote page and goes straight to paying the deposit.
    const context = await phone()
    const page = await context.newPage()
    await page.goto(sent.public_url)
    await page.getByLabel('Type your full name to accept').fill('Morgan Blake')
    await page.getByRole('button', { name: /Accept and pay .* deposit/ }).click()
    await page.waitForURL(/\/sandbox\/invoices\//)
    expect(await page.locator('#balance').textContent()).toBe(`$${(deposit / 100).toFixed(2)}`)
    await page.screenshot({ path: `${SHOTS}/deposit-pay-phone.png`, fullPage: true })
    const depositInvoiceId = (await tool(client, 'quotes.list', { lead_id: lead.id })).quotes[0].deposit.invoiceId as string
    const [depositRow] = await app.owner`select invoice_number from invoices where id = ${depositInvoiceId}`
    await payOnSandbox(page, depositRow!.invoice_number)
    await page.screenshot({ path: `${SHOTS}/deposit-paid-phone.png`, fullPage: true })

    // The job, a 50% progress claim while it is under way, paid from the link the agent sends.
    // Opened when the client accepted; scheduling it is the next step.
    const jobId = (await tool(client, 'quotes.list', { lead_id: lead.id })).quotes[0].job_id as string
    const { job } = await tool(client, 'jobs.update', { job_id: jobId, scheduled_date: new Date(Date.now() + 86_400_000).toISOString() })
    expect(job.invoicing).toEqual({ invoiced: deposit / 100, paid: deposit / 100, outstanding: 0, invoice_count: 1 })
    await tool(client, 'jobs.update', { job_id: job.id, status: 'In Progress' })
    const progress = await tool(client, 'invoicing.generate', { job_id: job.id, progress_claim: { percent: 50 } })
    expect(progress.invoice).toMatchObject({ kind: 'progress', status: 'Draft' })
    expect(cents(progress.total)).toBe(claim)
    const link = await tool(client, 'payments.send_link', { job_id: job.id, channel: 'both' })
    expect(link.invoice.id).toBe(progress.invoice.id)
    expect(link.invoice.status).toBe('Sent')
    expect(link.delivery.channels).toEqual(['sms', 'email'])
    await page.goto(link.payment_url)
    await payOnSandbox(page, progress.invoice_number)

    // Completed: the final invoice bills the quote and takes off the deposit and the claim.
    await tool(client, 'jobs.complete', { job_id: job.id })
    const finalInvoice = await tool(client, 'invoicing.generate', { job_id: job.id, send_email: true })
    expect(finalInvoice.invoice.kind).toBe('final')
    expect(cents(finalInvoice.total)).toBe(final)
    expect(finalInvoice.payment_url).toBe(finalInvoice.invoice.paymentUrl)
    const netting = finalInvoice.invoice.lineItems.filter((l: any) => l.total < 0)
    expect(netting.map((l: any) => l.description)).toEqual([`Less deposit ${depositRow!.invoice_number}`, `Less progress claim ${progress.invoice_number}`])
    expect(finalInvoice.invoice.lineItems.slice(0, 3).map((l: any) => l.description)).toEqual(lines.map((l) => l.description))
    await page.goto(finalInvoice.payment_url)
    await payOnSandbox(page, finalInvoice.invoice_number)
    await page.screenshot({ path: `${SHOTS}/final-paid-phone.png`, fullPage: true })
    await context.close()

    // Every invoice of the job adds up to the quote, in total and in GST, and none is negative.
    const invoices = await app.owner`select id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents from invoices where job_id = ${job.id} order by invoice_number`
    expect(invoices.map((i) => [i.kind, i.status])).toEqual([['deposit', 'Paid'], ['progress', 'Paid'], ['final', 'Paid']])
    expect(invoices.map((i) => Number(i.total_cents))).toEqual([deposit, claim, final])
    expect(invoices.reduce((a, i) => a + Number(i.total_cents), 0)).toBe(total)
    expect(invoices.reduce((a, i) => a + Number(i.gst_cents), 0)).toBe(gst)
    expect(invoices.reduce((a, i) => a + Number(i.subtotal_cents), 0)).toBe(subtotal)
    for (const i of invoices) for (const field of ['subtotal_cents', 'gst_cents', 'total_cents']) expect(Number(i[field])).toBeGreaterThanOrEqual(0)

    // payment.received once per payment, each naming its invoice; the money received is the quote's total.
    const payments = await app.owner`select id, invoice_id, amount_cents from payments where company_id = ${company.company_id} order by received_at`
    expect(payments.map((p) => p.invoice_id)).toEqual(invoices.map((i) => i.id))
    expect(payments.reduce((a, p) => a + Number(p.amount_cents), 0)).toBe(total)
    const received = await app.owner`select entity_id, payload from event_outbox where company_id = ${company.company_id} and event_type = 'payment.received' order by id`
    expect(received.map((e) => e.entity_id)).toEqual(payments.map((p) => p.id))
    expect(received.map((e) => e.payload.invoice.id)).toEqual(invoices.map((i) => i.id))
    const sentEvents = await app.owner`select entity_id from event_outbox where company_id = ${company.company_id} and event_type = 'invoice.sent' order by id`
    expect(sentEvents.map((e) => e.entity_id)).toEqual(invoices.map((i) => i.id))

    // The job shows its invoices over MCP and REST alike.
    const listed = (await tool(client, 'jobs.list', { lead_id: lead.id })).jobs[0]
    expect(listed.invoice).toMatchObject({ number: finalInvoice.invoice_number, kind: 'final', status: 'Paid', balance: 0 })
    expect(listed.invoicing).toEqual({ invoiced: total / 100, paid: total / 100, outstanding: 0, invoice_count: 3 })
    const rest = await app.call('GET', '/api/v1/jobs?status=Completed', { key: company.api_key })
    expect(rest.body.jobs.find((j: any) => j.id === job.id).invoicing).toEqual(listed.invoicing)
  })
})
