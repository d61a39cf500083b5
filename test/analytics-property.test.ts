// Property: for random histories (leads, quotes, jobs, invoices of every kind, voids, credit notes
// and voided credit notes, partial and full payments inside and outside the window, surcharges and
// excess, overdue and not-yet-due invoices, drafts, job costs, recurring costs, several time zones),
// GET /financials and analytics.detailed equal sums and counts computed here from the generated
// history itself: the oracle never queries the tables under test.
//
// Histories go straight into the real tables with the owner connection: 60 histories through the
// invoicing tools would take minutes; the tools themselves are exercised in financials.test.ts.
// Another company's rows stay in the database throughout and must never be counted.
import { randomBytes, randomUUID } from 'node:crypto'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ManualClock } from '../src/core/clock.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const DAY = 86_400_000
const MIN = 60_000
// Midday or early afternoon in every zone used: a minute or a day either side is never ambiguous.
const NOW = new Date(Math.floor(Date.now() / DAY) * DAY + 4 * 3_600_000)
const ZONES = ['Australia/Sydney', 'Australia/Perth', 'Australia/Adelaide', 'Australia/Brisbane'] as const

const formats = new Map<string, Intl.DateTimeFormat>()
const dateIn = (t: Date, zone: string) => {
  if (!formats.has(zone)) formats.set(zone, new Intl.DateTimeFormat('en-CA', { timeZone: zone }))
  return formats.get(zone)!.format(t)
}
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)
const daysFrom = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY)
function plusMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const first = new Date(Date.UTC(y, m - 1 + months, 1))
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10)
}

// ---- the generated history

const leadArb = fc.record({
  minutesAgo: fc.integer({ min: 1, max: 120 * 1440 }),
  service: fc.constantFrom(null, 'Hot water', 'Switchboard'),
  source: fc.constantFrom(null, 'google', 'referral'),
  quotes: fc.array(fc.record({ status: fc.constantFrom('Draft', 'Sent', 'Viewed', 'Accepted', 'Declined'), minutesAgo: fc.integer({ min: 1, max: 120 * 1440 }) }), { maxLength: 2 }),
  jobs: fc.array(fc.record({
    status: fc.constantFrom('Quoted', 'Scheduled', 'Completed', 'Cancelled'),
    amount: fc.option(fc.integer({ min: 100, max: 500_000 }), { nil: null }),
    completedMinutesAgo: fc.integer({ min: 1, max: 100 * 1440 }),
    technician: fc.constantFrom(null, 'Alex', 'Jo'),
    cost: fc.option(fc.record({ cents: fc.integer({ min: 1, max: 90_000 }), minutesAgo: fc.integer({ min: 1, max: 60 * 1440 }) }), { nil: null }),
  }), { maxLength: 2 }),
})

const invoiceArb = fc.record({
  lead: fc.nat(),
  kind: fc.constantFrom('deposit', 'progress', 'final'),
  total: fc.integer({ min: 100, max: 500_000 }),
  issueDaysAgo: fc.integer({ min: 0, max: 90 }),
  dueIn: fc.integer({ min: 0, max: 30 }),
  state: fc.constantFrom('Draft', 'Sent', 'Void', 'paying', 'paying'),
  payments: fc.array(fc.record({ percent: fc.integer({ min: 1, max: 100 }), at: fc.double({ min: 0, max: 1, noNaN: true }), surcharge: fc.constantFrom(0, 0, 150), excess: fc.constantFrom(0, 0, 0, 99) }), { maxLength: 3 }),
  payInFull: fc.boolean(),
  credit: fc.option(fc.record({ percent: fc.integer({ min: 1, max: 40 }), voided: fc.boolean(), daysAgo: fc.integer({ min: 0, max: 90 }) }), { nil: null }),
})

const costArb = fc.record({
  cents: fc.integer({ min: 1, max: 300_000 }),
  frequency: fc.constantFrom('weekly', 'fortnightly', 'monthly', 'quarterly', 'yearly'),
  startsDaysAgo: fc.integer({ min: -10, max: 400 }),
  lastsDays: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
})

const historyArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  days: fc.integer({ min: 1, max: 60 }),
  leads: fc.array(leadArb, { minLength: 1, maxLength: 5 }),
  invoices: fc.array(invoiceArb, { maxLength: 8 }),
  costs: fc.array(costArb, { maxLength: 2 }),
  detailFromDaysAgo: fc.integer({ min: 0, max: 110 }),
  detailSpan: fc.integer({ min: 0, max: 120 }),
})
type History = typeof historyArb extends fc.Arbitrary<infer T> ? T : never

interface Payment { cents: number; surcharge: number; excess: number; at: Date }
interface Inv { id: string; leadIndex: number; kind: string; status: string; total: number; paid: number; credited: number; issue: string; due: string; payments: Payment[]; credit: { cents: number; issue: string; voided: boolean } | null }

/** Turns the generated choices into concrete rows (what the test inserts and what the oracle reads). */
function concrete(h: History) {
  const invoices: Inv[] = h.invoices.map((g) => {
    const issue = dateIn(new Date(NOW.getTime() - g.issueDaysAgo * DAY), h.zone)
    const inv: Inv = { id: randomUUID(), leadIndex: g.lead % h.leads.length, kind: g.kind, status: g.state === 'paying' ? 'Sent' : g.state, total: g.total, paid: 0, credited: 0, issue, due: plusDays(issue, g.dueIn), payments: [], credit: null }
    if (g.state !== 'paying') return inv
    if (g.credit) {
      const cents = Math.max(1, Math.floor((g.total * g.credit.percent) / 100))
      inv.credit = { cents, issue: dateIn(new Date(NOW.getTime() - Math.min(g.credit.daysAgo, g.issueDaysAgo) * DAY), h.zone), voided: g.credit.voided }
      if (!g.credit.voided) inv.credited = cents
    }
    const span = Math.max(1, g.issueDaysAgo * 1440) // minutes from the issue date's midday to now
    g.payments.forEach((p, i) => {
      const left = inv.total - inv.credited - inv.paid
      if (left <= 0) return
      const last = i === g.payments.length - 1
      const cents = last && g.payInFull ? left : Math.max(1, Math.floor((left * p.percent) / 100))
      inv.payments.push({ cents, surcharge: p.surcharge, excess: p.excess, at: new Date(NOW.getTime() - Math.max(1, Math.round(span * p.at)) * MIN) })
      inv.paid += cents
    })
    inv.status = inv.paid + inv.credited === inv.total ? 'Paid' : inv.paid > 0 ? 'Partially Paid' : 'Sent'
    return inv
  })
  const today = dateIn(NOW, h.zone)
  const costs = h.costs.map((c) => {
    const starts = plusDays(today, -c.startsDaysAgo)
    return { ...c, starts, ends: c.lastsDays === null ? null : plusDays(starts, c.lastsDays) }
  })
  return { invoices, costs, today }
}

// ---- the oracle: sums and counts over the generated rows

function occurrences(c: { frequency: string; starts: string; ends: string | null; cents: number }, from: string, to: string): number {
  let n = 0
  for (let k = 0; k < 2000; k++) {
    const step = { weekly: [0, 7], fortnightly: [0, 14], monthly: [1, 0], quarterly: [3, 0], yearly: [12, 0] }[c.frequency]!
    const on = step[0] ? plusMonths(c.starts, step[0] * k) : plusDays(c.starts, step[1]! * k)
    if (on > to || (c.ends && on > c.ends)) break
    if (on >= from) n++
  }
  return n * c.cents
}

function expectedFinancials(h: History, rows: ReturnType<typeof concrete>) {
  const from = plusDays(rows.today, -(h.days - 1))
  // Overdue is read in the company's own zone, like every other local date.
  const companyToday = dateIn(NOW, h.zone)
  const inWindow = (t: Date) => dateIn(t, h.zone) >= from && t < NOW
  const pays = rows.invoices.flatMap((i) => i.payments).filter((p) => inWindow(p.at))
  const live = rows.invoices.filter((i) => i.status !== 'Void')
  const issued = live.filter((i) => i.issue >= from && i.issue <= rows.today)
  const credits = rows.invoices.flatMap((i) => (i.credit && !i.credit.voided && i.credit.issue >= from && i.credit.issue <= rows.today ? [i.credit.cents] : []))
  const open = rows.invoices.filter((i) => i.status === 'Sent' || i.status === 'Partially Paid')
  const overdue = open.filter((i) => i.due < companyToday)
  const balance = (i: Inv) => i.total - i.paid - i.credited
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  const settled = rows.invoices.filter((i) => i.status === 'Paid' && i.payments.length > 0)
    .map((i) => ({ i, last: new Date(Math.max(...i.payments.map((p) => p.at.getTime()))) }))
    .filter(({ last }) => inWindow(last))
  const toPay = settled.map(({ i, last }) => daysFrom(i.issue, dateIn(last, h.zone)))
  const jobCosts = sum(h.leads.flatMap((l) => l.jobs.flatMap((j) => (j.cost && inWindow(new Date(NOW.getTime() - j.cost.minutesAgo * MIN)) ? [j.cost.cents] : []))))
  const recurring = sum(rows.costs.map((c) => occurrences(c, from, rows.today)))
  const revenue = sum(pays.map((p) => p.cents))
  // GST in a payment: its invoice's share (cents x GST / total), half up, by exact remainder.
  const share = (c: number, gst: number, total: number) => {
    if (total === 0) return 0
    const num = BigInt(c) * BigInt(gst)
    return Number(num / BigInt(total) + (2n * (num % BigInt(total)) >= BigInt(total) ? 1n : 0n))
  }
  const gstCollected = sum(rows.invoices.flatMap((i) => i.payments.filter((p) => inWindow(p.at)).map((p) => share(p.cents, Math.round(i.total / 11), i.total))))
  const creditedGst = sum(rows.invoices.flatMap((i) => (i.credit && !i.credit.voided && i.credit.issue >= from && i.credit.issue <= rows.today ? [Math.round(i.credit.cents / 11)] : [])))
  const cashIn = revenue + sum(pays.map((p) => p.surcharge + p.excess))
  return {
    from, revenue, gst_collected: gstCollected, revenue_ex_gst: revenue - gstCollected, credited_gst: creditedGst, payments_received: pays.length,
    invoiced: sum(issued.map((i) => i.total)), invoices_issued: issued.length, credited: sum(credits), credit_notes_issued: credits.length,
    outstanding: sum(open.map(balance)), outstanding_count: open.length, overdue: sum(overdue.map(balance)), overdue_count: overdue.length,
    unsent_drafts: sum(rows.invoices.filter((i) => i.status === 'Draft').map((i) => i.total)), unsent_draft_count: rows.invoices.filter((i) => i.status === 'Draft').length,
    invoices_paid: toPay.length, average_days_to_pay: toPay.length ? Math.round((sum(toPay) * 10) / toPay.length) / 10 : null,
    cash_in: cashIn, cash_out: jobCosts + recurring, job_costs: jobCosts, recurring,
  }
}

function expectedDetailed(h: History, rows: ReturnType<typeof concrete>, from: string, to: string) {
  const local = (minutesAgo: number) => dateIn(new Date(NOW.getTime() - minutesAgo * MIN), h.zone)
  const inside = (d: string) => d >= from && d <= to
  const leads = h.leads.map((l, index) => ({ l, index })).filter(({ l }) => inside(local(l.minutesAgo)))
  const count = (test: (l: History['leads'][number], index: number) => boolean) => leads.filter(({ l, index }) => test(l, index)).length
  const quotes = h.leads.flatMap((l) => l.quotes).filter((q) => inside(local(q.minutesAgo)))
  const revenueBySource = new Map<string | null, number>()
  for (const i of rows.invoices) {
    for (const p of i.payments) {
      if (!inside(dateIn(p.at, h.zone))) continue
      const source = h.leads[i.leadIndex]!.source
      revenueBySource.set(source, (revenueBySource.get(source) ?? 0) + p.cents)
    }
  }
  return {
    conversion: {
      leads: leads.length,
      quoted: count((l) => l.quotes.length > 0),
      accepted: count((l) => l.quotes.some((q) => q.status === 'Accepted')),
      job: count((l) => l.jobs.some((j) => j.status !== 'Cancelled')),
      paid: count((_, index) => rows.invoices.some((i) => i.leadIndex === index && i.kind === 'final' && i.status === 'Paid')),
    },
    quotes: { created: quotes.length, sent: quotes.filter((q) => q.status !== 'Draft').length, accepted: quotes.filter((q) => q.status === 'Accepted').length },
    revenue: [...revenueBySource.values()].reduce((a, b) => a + b, 0),
    revenueBySource,
  }
}

// ---- inserting a history

let app: TestApp
let client: Client
let key: string
let companyId: string
let counter = 0

async function insertHistory(company: string, h: History, rows: ReturnType<typeof concrete>) {
  const sql = app.owner
  const token = () => randomBytes(16).toString('hex')
  const leadIds = h.leads.map(() => randomUUID())
  await sql`insert into leads ${sql(h.leads.map((l, i) => ({ id: leadIds[i], company_id: company, name: `Lead ${i}`, service_type: l.service, source: l.source, created_at: new Date(NOW.getTime() - l.minutesAgo * MIN) })))}`
  const quotes = h.leads.flatMap((l, i) => l.quotes.map((q) => ({
    company_id: company, lead_id: leadIds[i], quote_number: `Q-${++counter}`, status: q.status, subtotal_cents: 1000, gst_cents: 100, total_cents: 1100,
    valid_until: plusDays(rows.today, 30), public_token: token(), created_at: new Date(NOW.getTime() - q.minutesAgo * MIN),
  })))
  if (quotes.length) await sql`insert into quotes ${sql(quotes)}`
  const jobs = h.leads.flatMap((l, i) => l.jobs.map((j) => ({
    id: randomUUID(), company_id: company, lead_id: leadIds[i], title: 'Job', status: j.status, amount_cents: j.amount, technician: j.technician,
    completed_at: j.status === 'Completed' ? new Date(NOW.getTime() - j.completedMinutesAgo * MIN) : null, cost: j.cost,
  })))
  if (jobs.length) await sql`insert into jobs ${sql(jobs.map(({ cost: _, ...j }) => j))}`
  const costs = jobs.filter((j) => j.cost).map((j) => ({ company_id: company, job_id: j.id, description: 'Materials', amount_cents: j.cost!.cents, created_at: new Date(NOW.getTime() - j.cost!.minutesAgo * MIN) }))
  if (costs.length) await sql`insert into job_costs ${sql(costs)}`
  const invoiceRows = rows.invoices.flatMap((i) => {
    const gst = Math.round(i.total / 11)
    const base = { company_id: company, lead_id: leadIds[i.leadIndex], gst_cents: gst, issue_date: i.issue, due_date: i.due }
    const own = { ...base, public_token: token(), id: i.id, invoice_number: `INV-${++counter}`, kind: i.kind, status: i.status, subtotal_cents: i.total - gst, total_cents: i.total, amount_paid_cents: i.paid, amount_credited_cents: i.credited, credits_invoice_id: null }
    if (!i.credit) return [own]
    const cgst = Math.round(i.credit.cents / 11)
    return [own, { ...base, public_token: token(), id: randomUUID(), invoice_number: `CN-${++counter}`, kind: 'credit_note', status: i.credit.voided ? 'Void' : 'Sent', gst_cents: cgst, subtotal_cents: i.credit.cents - cgst, total_cents: i.credit.cents, amount_paid_cents: 0, amount_credited_cents: 0, issue_date: i.credit.issue, due_date: i.credit.issue, credits_invoice_id: i.id }]
  })
  // Credit notes reference their invoice: invoices first.
  const own = invoiceRows.filter((r) => r.credits_invoice_id === null)
  const notes = invoiceRows.filter((r) => r.credits_invoice_id !== null)
  if (own.length) await sql`insert into invoices ${sql(own)}`
  if (notes.length) await sql`insert into invoices ${sql(notes)}`
  const payments = rows.invoices.flatMap((i) => i.payments.map((p) => ({
    company_id: company, invoice_id: i.id, amount_cents: p.cents, surcharge_cents: p.surcharge, excess_cents: p.excess, method: 'bank_transfer', provider: 'manual',
    provider_payment_id: randomUUID(), received_at: p.at,
  })))
  if (payments.length) await sql`insert into payments ${sql(payments)}`
  const recurring = rows.costs.map((c) => ({ company_id: company, name: `Cost ${c.frequency}`, amount_cents: c.cents, frequency: c.frequency, starts_on: c.starts, ends_on: c.ends }))
  if (recurring.length) await sql`insert into recurring_costs ${sql(recurring)}`
  await sql`update companies set time_zone = ${h.zone} where id = ${company}`
}

async function clear(company: string) {
  const sql = app.owner
  await sql`delete from payments where company_id = ${company}`
  await sql`delete from invoices where company_id = ${company}`
  await sql`delete from job_costs where company_id = ${company}`
  await sql`delete from jobs where company_id = ${company}`
  await sql`delete from quotes where company_id = ${company}`
  await sql`delete from recurring_costs where company_id = ${company}`
  await sql`delete from leads where company_id = ${company}`
}

beforeAll(async () => {
  app = await startTestApp({ clock: new ManualClock(NOW) })
  const company = await onboard(app, { business_name: 'Random Histories Pty Ltd' })
  key = company.api_key
  companyId = company.company_id
  client = await connectHttp(app, key)
  // The other company: every kind of row, in every window, for the whole run.
  const other = await onboard(app, { business_name: 'Never Counted Pty Ltd' })
  const noise = fc.sample(historyArb, { numRuns: 1, seed: 7 })[0]!
  noise.invoices.push({ lead: 0, kind: 'final', total: 123_456, issueDaysAgo: 1, dueIn: 0, state: 'paying', payments: [{ percent: 50, at: 0.5, surcharge: 0, excess: 0 }], payInFull: false, credit: null })
  await insertHistory(other.company_id, noise, concrete(noise))
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

const cents = (dollars: number | null) => (dollars === null ? null : Math.round(dollars * 100))

describe('financials and analytics over random histories', () => {
  it('GET /financials and analytics.detailed equal the sums and counts of the generated history', async () => {
    await fc.assert(
      fc.asyncProperty(historyArb, async (h) => {
        await clear(companyId)
        const rows = concrete(h)
        await insertHistory(companyId, h, rows)

        const want = expectedFinancials(h, rows)
        const res = await app.call('GET', `/api/v1/financials?days=${h.days}`, { key })
        expect(res.status).toBe(200)
        const f = res.body
        expect({
          from: f.period.from, revenue: cents(f.revenue), gst_collected: cents(f.gst_collected), revenue_ex_gst: cents(f.revenue_ex_gst), credited_gst: cents(f.credited_gst), payments_received: f.payments_received, invoiced: cents(f.invoiced), invoices_issued: f.invoices_issued,
          credited: cents(f.credited), credit_notes_issued: f.credit_notes_issued, outstanding: cents(f.outstanding), outstanding_count: f.outstanding_count,
          overdue: cents(f.overdue), overdue_count: f.overdue_count, unsent_drafts: cents(f.unsent_drafts), unsent_draft_count: f.unsent_draft_count,
          invoices_paid: f.invoices_paid, average_days_to_pay: f.average_days_to_pay, cash_in: cents(f.cash_flow.in), cash_out: cents(f.cash_flow.out),
          job_costs: cents(f.cash_flow.job_costs), recurring: cents(f.cash_flow.recurring_costs),
        }).toEqual(want)
        expect(cents(f.net_invoiced)).toBe(want.invoiced - want.credited)
        expect(cents(f.cash_flow.net)).toBe(want.cash_in - want.cash_out)

        const from = plusDays(rows.today, -h.detailFromDaysAgo)
        const to = plusDays(from, h.detailSpan)
        const d = await tool(client, 'analytics.detailed', { from, to })
        const dw = expectedDetailed(h, rows, from, to)
        expect({
          leads: d.conversion.leads, quoted: d.conversion.quoted.count, accepted: d.conversion.accepted.count, job: d.conversion.job.count, paid: d.conversion.paid.count,
        }).toEqual(dw.conversion)
        expect(d.conversion.quoted.rate).toBe(dw.conversion.leads ? Math.round((dw.conversion.quoted / dw.conversion.leads) * 10_000) / 10_000 : null)
        expect({ created: d.quotes.created, sent: d.quotes.sent, accepted: d.quotes.accepted }).toEqual(dw.quotes)
        expect(cents(d.revenue)).toBe(dw.revenue)
        const bySource = new Map<string | null, number>(d.by_source.filter((g: any) => g.revenue > 0).map((g: any) => [g.key, cents(g.revenue)]))
        expect(bySource).toEqual(new Map([...dw.revenueBySource].filter(([, v]) => v > 0)))
        // Every lead of the window lands in exactly one service-type group.
        expect(d.by_service_type.reduce((t: number, g: any) => t + g.leads, 0)).toBe(dw.conversion.leads)
      }),
      { numRuns: 60, seed: Number(process.env.FC_SEED ?? Date.now() % 1_000_000), endOnFailure: true },
    )
  }, 120_000)
})
