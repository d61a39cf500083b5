// The client's side of an invoice and getting paid late: the tax invoice PDF read back with poppler,
// the invoice page in Debian's chromium at phone width (Pay -> sandbox card page -> Paid), sending
// by email (PDF attached) and SMS through the delivery workflow, chasing overdue invoices by tier,
// and recovery options per state. Time passes by moving due dates back with app.owner (the service
// runs on the wall clock), so "N days overdue" is exact against the Sydney date of the test.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchChromium, phoneContext } from './helpers/browser.js'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

interface Tenant { key: string; client: Client; leadId: string }

const SHOTS = 'test-results/screenshots'
const outDir = mkdtempSync(join(tmpdir(), 'invoicing-recovery-'))
let app: TestApp
let browser: Browser
let shop: Tenant // ABN, sandbox payment account connected
const clients: Client[] = []

async function tenant(name: string, options: { connect?: boolean; abn?: string } = {}): Promise<Tenant> {
  const company = await onboard(app, { business_name: name, plan: 'business', stripe_payment_method_id: 'pm_card_visa', ...(options.abn ? { abn: options.abn } : {}) })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', email: 'morgan@example.com', suburb: 'Marrickville' })
  if (options.connect) expect((await app.call('POST', '/api/v1/payments/account', { key: company.api_key })).body.account.status).toBe('active')
  return { key: company.api_key, client, leadId: lead.id }
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  app = await startTestApp()
  shop = await tenant('Harbour City Plumbing', { connect: true, abn: '51 824 753 556' })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  for (const c of clients) await c.close()
  await app?.stop()
  rmSync(outDir, { recursive: true, force: true })
})

const cents = (dollars: number) => Math.round(dollars * 100)
const sydneyToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(new Date())
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
const aud = (c: number) => new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD' }).format(c / 100)

async function invoiced(t: Tenant, amount: number, extra: Record<string, unknown> = {}) {
  const { job } = await tool(t.client, 'jobs.create', { lead_id: t.leadId, title: 'Hot water system replacement', amount })
  await tool(t.client, 'jobs.complete', { job_id: job.id })
  const res = await tool(t.client, 'invoicing.generate', { job_id: job.id, ...extra })
  return { jobId: job.id as string, invoice: res.invoice, delivery: res.delivery }
}

/** The communications rows the delivery workflow wrote for an invoice, once `count` have left the outbox (up to 15 s). */
async function delivered(invoiceId: string, count: number, messageType?: string) {
  const deadline = Date.now() + 15_000
  for (;;) {
    const rows = await app.owner`select channel, message_type, to_address, body, attachments, invoice_id, status from communications
      where invoice_id = ${invoiceId} ${messageType ? app.owner`and message_type = ${messageType}` : app.owner``} and status <> 'pending' order by channel`
    if (rows.length >= count || Date.now() > deadline) return rows
    await new Promise((r) => setTimeout(r, 250))
  }
}

describe('the tax invoice PDF', () => {
  it('is a PDF at pdfUrl with the seller ABN, GST, total and number; pdftoppm renders it; an unknown token has none', async () => {
    // $1,234.56 incl. GST: GST is 123456 / 11 = 11223.3 -> $112.23.
    const { invoice } = await invoiced(shop, 1234.56)
    expect(new URL(invoice.pdfUrl).pathname).toMatch(/^\/i\/[A-Za-z0-9_-]+\/pdf$/)
    const res = await fetch(invoice.pdfUrl)
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/pdf'])
    const file = join(outDir, `${invoice.invoiceNumber}.pdf`)
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' })
    for (const expected of ['Tax invoice', 'ABN 51 824 753 556', 'GST', '$1,234.56', aud(11_223), invoice.invoiceNumber]) expect(text).toContain(expected)
    execFileSync('pdftoppm', ['-png', '-r', '60', file, join(outDir, 'page')])
    const pngs = readdirSync(outDir).filter((f) => f.startsWith('page') && f.endsWith('.png'))
    expect(pngs.length).toBeGreaterThan(0)
    expect(statSync(join(outDir, pngs[0]!)).size).toBeGreaterThan(1000)

    const unknown = await fetch(`${app.url}/i/${'x'.repeat(32)}/pdf`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('content-type')).not.toContain('application/pdf')
  })
})

describe('the invoice page at phone width', () => {
  it('shows status and totals, Pays on the sandbox card page and comes back Paid', async () => {
    const { invoice } = await invoiced(shop, 1234.56, { send_email: true })
    const context = await phoneContext(browser)
    const page = await context.newPage()
    expect((await page.goto(invoice.publicUrl))!.status()).toBe(200)
    expect(await page.locator('#invoice-status').getAttribute('data-status')).toBe('Sent')
    const totals = { subtotal: aud(123_456 - 11_223), gst: aud(11_223), total: '$1,234.56', balance: '$1,234.56' }
    for (const [id, value] of Object.entries(totals)) expect([id, await page.locator(`#${id}`).textContent()]).toEqual([id, value])
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
    await page.screenshot({ path: `${SHOTS}/invoice-page-phone.png`, fullPage: true })

    await page.locator('#pay').click()
    await page.waitForURL(/\/sandbox\/invoices\//)
    expect(new URL(page.url()).pathname).toBe(`/sandbox/invoices/${new URL(invoice.publicUrl).pathname.split('/')[2]}`)
    expect(await page.locator('#balance').textContent()).toBe('$1,234.56')
    await page.getByRole('button', { name: 'Pay with test card' }).click()
    await page.waitForURL(/\/i\/[^/]+\?paid=1$/)
    expect(await page.locator('#invoice-status').getAttribute('data-status')).toBe('Paid')
    expect(await page.locator('#balance').textContent()).toBe('$0.00')
    expect(await page.locator('#pay').count()).toBe(0)
    await context.close()
    const [row] = await app.owner`select status, amount_paid_cents from invoices where id = ${invoice.id}`
    expect(row).toMatchObject({ status: 'Paid', amount_paid_cents: '123456' })
  })

  it('has no Pay button without a connected payment account', async () => {
    const other = await tenant('No Card Electrical')
    const { invoice } = await invoiced(other, 300, { send_email: true })
    expect(invoice.paymentUrl).toBeNull()
    const html = await (await fetch(invoice.publicUrl)).text()
    expect(html).toContain('data-status="Sent"')
    expect(html).not.toContain('id="pay"')
  })
})

describe('sending', () => {
  it('send_email moves Draft -> Sent, emits invoice.sent and emails the PDF; send_sms texts the link', async () => {
    const emailed = await invoiced(shop, 550, { send_email: true })
    expect(emailed.invoice.status).toBe('Sent')
    expect(emailed.delivery).toMatchObject({ channels: ['email'], skipped: [] })
    expect(await app.owner`select id from event_outbox where event_type = 'invoice.sent' and entity_id = ${emailed.invoice.id}`).toHaveLength(1)
    const [mail] = await delivered(emailed.invoice.id, 1)
    expect(mail).toMatchObject({ channel: 'email', message_type: 'invoice', invoice_id: emailed.invoice.id, attachments: [{ kind: 'invoice_pdf', invoice_id: emailed.invoice.id }] })

    const texted = await invoiced(shop, 660, { send_sms: true })
    expect(texted.delivery.channels).toEqual(['sms'])
    const [sms] = await delivered(texted.invoice.id, 1)
    expect(sms).toMatchObject({ channel: 'sms', message_type: 'invoice', invoice_id: texted.invoice.id })
    expect(sms!.body).toContain(texted.invoice.publicUrl)
    expect(sms!.body).toContain('$660.00')
  })
})

describe('chasing and recovery', () => {
  let t: Tenant
  const jobs: Record<number, string> = {}
  let notDueJob: string
  // Amounts owed per days overdue; the 15-day one is part paid ($100) and still owing $340.
  const owed: Record<number, number> = { 31: 100_001, 15: 34_000, 8: 22_000, 3: 11_000 }

  beforeAll(async () => {
    t = await tenant('Late Payers Plumbing')
    const today = sydneyToday()
    for (const [days, amount] of [[31, 1000.01], [15, 440], [8, 220], [3, 110]] as const) {
      const { jobId, invoice } = await invoiced(t, amount, { send_email: true })
      jobs[days] = jobId
      await app.owner`update invoices set issue_date = ${plusDays(today, -days - 14)}, due_date = ${plusDays(today, -days)} where id = ${invoice.id}`
      if (days === 15) expect((await app.call('POST', `/api/v1/invoices/${invoice.id}/payments`, { key: t.key, body: { amount: 100, method: 'cash' } })).status).toBe(201)
    }
    notDueJob = (await invoiced(t, 99, { send_email: true })).jobId
  })

  it('lists overdue invoices with days overdue, chase levels and the total outstanding', async () => {
    const res = await tool(t.client, 'invoicing.chase', {})
    expect(res.overdue.map((o: any) => [o.jobId, o.daysOverdue, o.chaseLevel, cents(o.balance)])).toEqual([
      [jobs[31], 31, 'final', owed[31]], [jobs[15], 15, 'firm', owed[15]], [jobs[8], 8, 'friendly', owed[8]], [jobs[3], 3, null, owed[3]],
    ])
    expect(cents(res.total_outstanding)).toBe(Object.values(owed).reduce((s, c) => s + c, 0))
    expect(res.reminder).toBeNull()
    expect(await app.owner`select id from invoice_reminders`).toHaveLength(0)
  })

  it('with jobId queues a reminder at its tier (or the tone given), recorded and delivered', async () => {
    const first = await tool(t.client, 'invoicing.chase', { jobId: jobs[8] })
    expect(first.reminder).toMatchObject({ tone: 'friendly', daysOverdue: 8, delivery: { channels: ['sms', 'email'], skipped: [] } })
    const final = await tool(t.client, 'invoicing.chase', { jobId: jobs[8], tone: 'final' })
    expect(final.reminder).toMatchObject({ tone: 'final', daysOverdue: 8 })
    const invoiceId = first.overdue.find((o: any) => o.jobId === jobs[8]).invoiceId
    const reminders = await app.owner`select tone, days_overdue, channels from invoice_reminders where invoice_id = ${invoiceId} order by created_at`
    expect(reminders).toEqual([{ tone: 'friendly', days_overdue: 8, channels: ['sms', 'email'] }, { tone: 'final', days_overdue: 8, channels: ['sms', 'email'] }])
    const friendly = await delivered(invoiceId, 2, 'payment_reminder_friendly')
    expect(friendly.map((r) => r.channel)).toEqual(['email', 'sms'])
    expect(friendly.find((r) => r.channel === 'sms')!.body).toContain('$220.00')
    expect((await delivered(invoiceId, 2, 'payment_reminder_final')).map((r) => r.channel)).toEqual(['email', 'sms'])
    expect(final.overdue.find((o: any) => o.jobId === jobs[8]).lastReminder.tone).toBe('final')

    const nothing = await toolError(t.client, 'invoicing.chase', { jobId: notDueJob })
    expect(nothing.error).toBe('conflict')
    expect(nothing.message).toContain('no overdue invoice')
  })

  it('recovery names the state forum and limit, with a payment plan adding up to the balance', async () => {
    const forums = { NSW: ['Local Court, Small Claims Division', 20_000], QLD: ['QCAT', 25_000] } as const
    for (const [state, [forum, limit]] of Object.entries(forums)) {
      const res = await tool(t.client, 'invoicing.recovery', { job_id: jobs[31], state })
      expect(res).toMatchObject({ state, advice_only: true })
      expect(res.invoices).toHaveLength(1)
      const [inv] = res.invoices
      expect([cents(inv.balance), inv.daysOverdue]).toEqual([owed[31], 31])
      const option = (name: string) => inv.options.find((o: any) => o.option === name)
      expect(option('small_claims').details.forum).toContain(forum)
      expect(option('small_claims').details.limit).toBe(limit)
      const instalments = option('payment_plan').details.instalments
      expect(instalments.length).toBeGreaterThan(1)
      expect(instalments.reduce((s: number, i: any) => s + cents(i.amount), 0)).toBe(owed[31])
      expect(res.sources.length).toBeGreaterThan(0)
      for (const s of res.sources) expect([typeof s.source, s.source.length > 0, s.asOf.length > 0]).toEqual(['string', true, true])
    }
    const unset = await tool(t.client, 'invoicing.recovery', { job_id: jobs[31] })
    expect(unset.state).toBeNull()
    const claims = unset.invoices[0].options.find((o: any) => o.option === 'small_claims')
    expect(claims.summary).toContain('give state (or set it in the invoicing settings)')
    expect(claims.steps).toEqual(['Set your state, then ask again.'])
    // Once the company's state is set, it is used without being given.
    await app.call('PATCH', '/api/v1/settings/invoicing', { key: t.key, body: { state: 'QLD' } })
    expect((await tool(t.client, 'invoicing.recovery', {})).state).toBe('QLD')
  })
})
