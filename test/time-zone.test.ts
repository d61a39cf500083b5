// The company's own time zone decides every local date: the same scenario for a Perth company
// (UTC+8, no daylight saving) and a Sydney company, with the clock at an instant where it is already
// tomorrow in Sydney but still today in Perth. "Today", quote validity and expiry, invoice issue and
// due dates, overdue, the dashboard, job profit periods and the dates printed on the quote page, the
// invoice page and the PDF are checked for both. Expected values come from Intl in this file, never
// from the code under test.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ManualClock } from '../src/core/clock.js'
import { quoteExpiresAt } from '../src/domains/automations/quote-follow-up/follow-up-quote.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const HOUR = 3_600_000
const DAY = 24 * HOUR
// 14:30 UTC: 22:30 in Perth (+8) and 00:30 or 01:30 the next day in Sydney (+10 in winter, +11 in
// summer), whatever the season the suite runs in. A day near the real date keeps trials and keys live.
const UTC_MIDNIGHT = Math.floor(Date.now() / DAY) * DAY + DAY
const NOW = new Date(UTC_MIDNIGHT + 14.5 * HOUR)
// Twelve hours earlier both zones read the same date (10:30 in Perth, 12:30 or 13:30 in Sydney).
const EARLIER = new Date(NOW.getTime() - 12 * HOUR)

const clock = new ManualClock(EARLIER)
let app: TestApp
let outDir: string
const clients: Client[] = []

/** The local calendar date in a zone, YYYY-MM-DD. */
const dateIn = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
/** A date as the pages and the PDF print it ("10 December 2026"). */
const longDateIn = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-AU', { dateStyle: 'long', timeZone }).format(at)
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)
const longOf = (date: string) => longDateIn(new Date(`${date}T12:00:00Z`), 'UTC')

const ZONES = ['Australia/Perth', 'Australia/Sydney'] as const
type Zone = (typeof ZONES)[number]

interface Company {
  zone: Zone
  key: string
  client: Client
  leadId: string
  /** Quote valid until the Perth date of NOW, created and sent while both zones still read that date. */
  quote: { id: string; url: string }
  /** Invoice due on the Perth date of NOW (due_in_days 0), sent while both zones read that date. */
  dueToday: { id: string; url: string }
}

const items = [{ description: 'Replace 250L hot water system', quantity: 1, unitPrice: 1650 }]
const rest = (c: Company, method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key: c.key, body })

async function setUp(zone: Zone): Promise<Company> {
  const company = await onboard(app, { business_name: `${zone.split('/')[1]} Plumbing`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const set = await app.call('PATCH', '/api/v1/settings/company', { key: company.api_key, body: { time_zone: zone } })
  expect(set.body.settings.time_zone).toBe(zone)
  const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', phone: '0412 987 654', email: 'morgan@example.com', suburb: 'Marrickville' })
  const c = { zone, key: company.api_key, client, leadId: lead.id } as Company

  const validUntil = dateIn(EARLIER, 'Australia/Perth')
  const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: items, valid_until: validUntil })
  const sent = await tool(client, 'quotes.send', { quote_id: quote.id, send_sms: false, send_email: true })
  c.quote = { id: quote.id, url: sent.public_url }

  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount: 440 })
  await tool(client, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id, due_in_days: 0 })
  expect((await rest(c, 'POST', `/invoices/${invoice.id}/send`, { send_email: true })).status).toBe(200)
  c.dueToday = { id: invoice.id, url: invoice.publicUrl }
  return c
}

const companies = {} as Record<Zone, Company>

beforeAll(async () => {
  // The scenario only tests something if the two zones disagree about the date at NOW.
  expect(dateIn(NOW, 'Australia/Sydney')).toBe(plusDays(dateIn(NOW, 'Australia/Perth'), 1))
  expect(dateIn(EARLIER, 'Australia/Sydney')).toBe(dateIn(EARLIER, 'Australia/Perth'))
  outDir = mkdtempSync(join(tmpdir(), 'time-zone-'))
  app = await startTestApp({ clock })
  for (const zone of ZONES) companies[zone] = await setUp(zone)
  clock.set(NOW)
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
  if (outDir) rmSync(outDir, { recursive: true, force: true })
})

const perthToday = () => dateIn(NOW, 'Australia/Perth')

describe.each(ZONES)('a company in %s, at 22:30 Perth time', (zone) => {
  const today = () => dateIn(NOW, zone)
  // Perth is still on the day everything was due; Sydney has moved past it.
  const pastIt = zone === 'Australia/Sydney'

  it('reads "today" as its own local date on the dashboard', async () => {
    const c = companies[zone]
    const d = await tool(c.client, 'analytics.dashboard', {})
    expect(d).toMatchObject({ time_zone: zone, today: today(), tomorrow: plusDays(today(), 1) })
    expect(d.overdue_invoices.items.map((i: { id: string }) => i.id)).toEqual(pastIt ? [c.dueToday.id] : [])
    expect(d.quotes_waiting.items.map((q: { id: string }) => q.id)).toEqual(pastIt ? [] : [c.quote.id])
  })

  it('expires a quote at the end of its valid-until date in its own zone', async () => {
    const c = companies[zone]
    const { quotes } = await tool(c.client, 'quotes.list', { lead_id: c.leadId })
    const quote = quotes.find((q: { id: string }) => q.id === c.quote.id)
    expect(quote).toMatchObject({ validUntil: perthToday(), status: pastIt ? 'Expired' : 'Sent' })
    // A new quote: valid for 30 local days by default; a valid-until before the local today is refused.
    const fresh = await tool(c.client, 'quotes.create', { lead_id: c.leadId, line_items: items })
    expect(fresh.quote.validUntil).toBe(plusDays(today(), 30))
    if (pastIt) expect((await toolError(c.client, 'quotes.create', { lead_id: c.leadId, line_items: items, valid_until: perthToday() })).error).toBe('validation_error')
    else expect((await tool(c.client, 'quotes.create', { lead_id: c.leadId, line_items: items, valid_until: perthToday() })).quote.status).toBe('Draft')
    // The follow-up run's end: the first instant of the next local day, found by stepping a quarter
    // hour at a time until the zone's calendar turns over.
    const nextDay = plusDays(perthToday(), 1)
    let turn = Date.parse(`${nextDay}T00:00:00Z`) - 14 * HOUR
    while (dateIn(new Date(turn), zone) !== nextDay) turn += HOUR / 4
    expect(quoteExpiresAt(perthToday(), zone).toISOString()).toBe(new Date(turn).toISOString())
  })

  it('shows the quote page with its own dates, expired or still open', async () => {
    const c = companies[zone]
    const html = await (await fetch(c.quote.url)).text()
    const until = longOf(perthToday())
    if (pastIt) expect(html).toContain(`This quote expired on ${until}`)
    else expect(html).toContain(`Valid until ${until}`)
    // Created while both zones read the same date.
    expect(html).toContain(longDateIn(EARLIER, zone))
    // A quote created now is dated the company's today.
    const { quote } = await tool(c.client, 'quotes.create', { lead_id: c.leadId, line_items: items })
    const sent = await tool(c.client, 'quotes.send', { quote_id: quote.id, send_sms: false, send_email: true })
    const page = await (await fetch(sent.public_url)).text()
    expect(page).toContain(`· ${longDateIn(NOW, zone)}</p>`)
    expect(page).toContain(`Valid until ${longOf(plusDays(today(), 30))}`)
  })

  it('reads an invoice due "today" as overdue only once its own date has passed', async () => {
    const c = companies[zone]
    const got = (await rest(c, 'GET', `/invoices/${c.dueToday.id}`)).body.invoice
    expect(got).toMatchObject({ dueDate: perthToday(), status: pastIt ? 'Overdue' : 'Sent' })
    const chase = await tool(c.client, 'invoicing.chase', {})
    expect(chase.overdue.map((i: { invoiceId: string }) => i.invoiceId)).toEqual(pastIt ? [c.dueToday.id] : [])
    const page = await (await fetch(c.dueToday.url)).text()
    expect(page).toContain(`data-status="${pastIt ? 'Overdue' : 'Sent'}"`)
    expect(page).toContain(`${pastIt ? 'was due by' : 'due by'} ${longOf(perthToday())}`)
  })

  it('issues an invoice on its own date, due after its own payment terms, printed so on the page and the PDF', async () => {
    const c = companies[zone]
    const { job } = await tool(c.client, 'jobs.create', { lead_id: c.leadId, title: 'Hot water service', amount: 220 })
    await tool(c.client, 'jobs.complete', { job_id: job.id })
    const { invoice } = await tool(c.client, 'invoicing.generate', { job_id: job.id, due_in_days: 14 })
    expect(invoice).toMatchObject({ issueDate: today(), dueDate: plusDays(today(), 14) })
    const page = await (await fetch(invoice.publicUrl)).text()
    expect(page).toContain(`<dt>Issue date</dt><dd>${longDateIn(NOW, zone)}</dd>`)
    expect(page).toContain(`<dt>Due date</dt><dd>${longOf(plusDays(today(), 14))}</dd>`)

    const res = await fetch(invoice.pdfUrl)
    expect(res.status).toBe(200)
    const file = join(outDir, `${zone.split('/')[1]}-${invoice.invoiceNumber}.pdf`)
    writeFileSync(file, Buffer.from(await res.arrayBuffer()))
    const lines = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\n')
    const fact = (label: string) => lines.find((l) => l.includes(label))?.replace(/\s+/g, ' ')
    expect(fact('Issue date')).toContain(`Issue date ${longDateIn(NOW, zone)}`)
    expect(fact('Due date')).toContain(`Due date ${longOf(plusDays(today(), 14))}`)

    // Paid now: the page reads the payment's instant as the company's date.
    expect((await rest(c, 'POST', `/invoices/${invoice.id}/payments`, { amount: 220, method: 'cash' })).status).toBe(201)
    const paid = await (await fetch(invoice.publicUrl)).text()
    expect(paid).toContain(`Paid in full on ${longDateIn(NOW, zone)}`)
  })

  it('counts a job completed now in the profit period of its own date', async () => {
    const c = companies[zone]
    const { job } = await tool(c.client, 'jobs.create', { lead_id: c.leadId, title: `Late call-out ${zone}`, amount: 330 })
    await tool(c.client, 'jobs.complete', { job_id: job.id })
    const ids = async (args: Record<string, unknown>) => (await tool(c.client, 'jobs.profit_summary', args)).jobs.map((j: { jobId: string }) => j.jobId)
    // Perth's today is Sydney's yesterday: the job counts on the company's own date only.
    expect((await ids({ from: perthToday(), to: perthToday() })).includes(job.id)).toBe(!pastIt)
    expect((await ids({ from: today(), to: today() })).includes(job.id)).toBe(true)
    const defaults = await tool(c.client, 'jobs.profit_summary', {})
    expect(defaults.period).toEqual({ from: plusDays(today(), -30), to: today() })
  })

  it('books the dashboard\'s jobs today by its own date', async () => {
    const c = companies[zone]
    // Two hours before NOW: 20:30 in Perth (today), 22:30 or 23:30 the day before NOW's date in Sydney.
    const at = new Date(NOW.getTime() - 2 * HOUR)
    expect(dateIn(at, 'Australia/Perth')).toBe(perthToday())
    expect(dateIn(at, 'Australia/Sydney')).toBe(perthToday())
    const { job } = await tool(c.client, 'jobs.create', { lead_id: c.leadId, title: 'Evening booking', scheduled_date: at.toISOString() })
    const d = await tool(c.client, 'analytics.dashboard', {})
    expect(d.jobs_today.map((j: { id: string }) => j.id).includes(job.id)).toBe(!pastIt)
  })
})
