// cashflow.forecast, the recurring costs it reads (REST only) and analytics.dashboard, through the
// real service. Dates are computed here with Intl in the company's zone; amounts in integer cents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

interface Tenant { key: string; companyId: string; client: Client; leadId: string }

let app: TestApp
let a: Tenant
let b: Tenant
const clients: Client[] = []
const cents = (dollars: number) => Math.round(dollars * 100)
const localToday = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date())
const plusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10)
const rest = (t: Tenant, method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key: t.key, body })

async function tenant(name: string): Promise<Tenant> {
  const company = await onboard(app, { business_name: name, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const { lead } = await tool(client, 'leads.create', { name: 'Sam Reliable', email: 'sam@example.com' })
  return { key: company.api_key, companyId: company.company_id, client, leadId: lead.id }
}

async function invoice(t: Tenant, amount: number, dueInDays: number, leadId = t.leadId) {
  const { job } = await tool(t.client, 'jobs.create', { lead_id: leadId, title: 'Rewire', amount })
  await tool(t.client, 'jobs.complete', { job_id: job.id })
  const { invoice: inv } = await tool(t.client, 'invoicing.generate', { job_id: job.id, due_in_days: dueInDays })
  expect((await rest(t, 'POST', `/invoices/${inv.id}/send`, { send_email: true })).status).toBe(200)
  return inv as { id: string; invoiceNumber: string }
}

beforeAll(async () => {
  app = await startTestApp()
  a = await tenant('Reliable Electrical')
  b = await tenant('Someone Else Plumbing')
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
})

describe('recurring costs (REST only)', () => {
  it('are created, listed, deactivated, and are not_found across companies', async () => {
    const created = await rest(a, 'POST', '/recurring-costs', { name: 'Van lease', amount: 250, frequency: 'weekly' })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const cost = created.body.recurring_cost
    const today = localToday('Australia/Sydney')
    expect(cost).toMatchObject({ name: 'Van lease', amount: 250, frequency: 'weekly', starts_on: today, ends_on: null, active: true, next_on: today })
    expect((await rest(a, 'GET', '/recurring-costs')).body.recurring_costs.map((c: any) => c.id)).toEqual([cost.id])

    const theirs = (await rest(b, 'POST', '/recurring-costs', { name: 'Workshop rent', amount: 900, frequency: 'monthly' })).body.recurring_cost
    const cross = await rest(a, 'DELETE', `/recurring-costs/${theirs.id}`)
    expect([cross.status, cross.body.error]).toEqual([404, 'not_found'])
    expect((await rest(b, 'GET', '/recurring-costs')).body.recurring_costs[0]).toMatchObject({ id: theirs.id, active: true })
    expect((await rest(a, 'GET', '/recurring-costs')).body.recurring_costs.map((c: any) => c.id)).not.toContain(theirs.id)

    const bad = await rest(a, 'POST', '/recurring-costs', { name: 'x', amount: 10, frequency: 'daily' })
    expect([bad.status, bad.body.error]).toEqual([400, 'validation_error'])
    const order = await rest(a, 'POST', '/recurring-costs', { name: 'x', amount: 10, frequency: 'yearly', starts_on: '2026-05-01', ends_on: '2026-04-01' })
    expect(order.body.messages).toEqual(['ends_on: must be on or after starts_on'])

    const temp = (await rest(a, 'POST', '/recurring-costs', { name: 'Skip bin', amount: 80, frequency: 'fortnightly' })).body.recurring_cost
    const gone = await rest(a, 'DELETE', `/recurring-costs/${temp.id}`)
    expect(gone.body.recurring_cost).toMatchObject({ active: false, ends_on: today })
    expect((await rest(a, 'DELETE', `/recurring-costs/${temp.id}`)).body.recurring_cost).toEqual(gone.body.recurring_cost)
    expect((await rest(a, 'GET', '/recurring-costs')).body.recurring_costs.map((c: any) => c.id)).toEqual([cost.id])
    expect((await rest(a, 'GET', '/recurring-costs?include_inactive=true')).body.recurring_costs).toHaveLength(2)
  })
})

describe('cashflow.forecast', () => {
  it('puts an invoice due in week 2 of a client who always paid in week 2 at full weight, a weekly cost in every week, and the weeks add up', async () => {
    // The client's history: one invoice paid in full.
    const past = await invoice(a, 330, 14)
    expect((await rest(a, 'POST', `/invoices/${past.id}/payments`, { amount: 330, method: 'bank_transfer' })).status).toBe(201)
    // Due in 10 days: week 2 is days 7..13 from today.
    const due = await invoice(a, 1_210, 10)
    // A new client with no history, due in 3 days (week 1): the default weight.
    const { lead: stranger } = await tool(a.client, 'leads.create', { name: 'New Person', email: 'new@example.com' })
    const fresh = await invoice(a, 100, 3, stranger.id)

    const f = await tool(a.client, 'cashflow.forecast', { opening_balance: 1_000 })
    const today = localToday('Australia/Sydney')
    expect([f.from, f.to]).toEqual([today, plusDays(today, 29)])
    expect(f.weeks.map((w: any) => [w.from, w.to])).toEqual([0, 7, 14, 21, 28].map((d) => [plusDays(today, d), plusDays(today, Math.min(d + 6, 29))]))

    const week2 = f.weeks[1]
    const src = week2.sources.find((s: any) => s.id === due.id)
    expect(src).toMatchObject({ type: 'invoice', weight: 1, amount: 1_210, expected: 1_210, date: plusDays(today, 10) })
    expect(src.label).toContain(due.invoiceNumber)
    expect(src.basis).toContain('paid 1 of 1')
    const newcomer = f.weeks[0].sources.find((s: any) => s.id === fresh.id)
    expect(newcomer).toMatchObject({ weight: f.default_weight, amount: 100, expected: Math.round(100 * f.default_weight * 100) / 100 })

    // The weekly van lease ($250, from today) falls in each of the five weeks.
    for (const w of f.weeks) {
      const lease = w.sources.filter((s: any) => s.type === 'recurring_cost' && s.label === 'Van lease')
      expect(lease.map((s: any) => s.expected), `week ${w.week}`).toEqual([250])
    }
    // The deactivated skip bin falls due today only (it stopped after today).
    const bins = f.weeks.flatMap((w: any) => w.sources).filter((s: any) => s.label === 'Skip bin')
    expect(bins.map((s: any) => s.date)).toEqual([today])

    // Each week's figures are the sum of its sources, and the weeks add up to the totals.
    let balance = cents(f.opening_balance)
    for (const w of f.weeks) {
      const sum = (type: string) => w.sources.filter((s: any) => s.type === type).reduce((t: number, s: any) => t + cents(s.expected), 0)
      expect(cents(w.from_invoices)).toBe(sum('invoice'))
      expect(cents(w.from_jobs)).toBe(sum('job'))
      expect(cents(w.expected_out)).toBe(sum('recurring_cost'))
      expect(cents(w.net)).toBe(sum('invoice') + sum('job') - sum('recurring_cost'))
      balance += cents(w.net)
      expect(cents(w.closing_balance)).toBe(balance)
    }
    const total = (k: string) => f.weeks.reduce((t: number, w: any) => t + cents(w[k]), 0)
    for (const k of ['expected_in', 'from_invoices', 'from_jobs', 'expected_out', 'net']) expect(cents(f.totals[k]), k).toBe(total(k))
    expect(cents(f.totals.closing_balance)).toBe(balance)

    // B sees none of A's invoices or costs.
    const theirs = await tool(b.client, 'cashflow.forecast', {})
    const ids = theirs.weeks.flatMap((w: any) => w.sources.map((s: any) => s.id))
    expect(ids).not.toContain(due.id)
    expect(theirs.weeks.flatMap((w: any) => w.sources).every((s: any) => s.label !== 'Van lease')).toBe(true)
    expect(theirs.totals.closing_balance).toBeNull()
  })

  it('counts a booked job not yet invoiced at its date plus payment terms, net of its deposit', async () => {
    const when = plusDays(localToday('Australia/Sydney'), 3)
    const { job } = await tool(a.client, 'jobs.create', { lead_id: a.leadId, title: 'Switchboard', amount: 2_000, scheduled_date: `${when}T12:00:00+10:00` })
    expect((await tool(a.client, 'invoicing.generate', { job_id: job.id, progress_claim: { amount: 500 } })).invoice.total).toBe(500)
    const f = await tool(a.client, 'cashflow.forecast', {})
    const src = f.weeks.flatMap((w: any) => w.sources).find((s: any) => s.id === job.id)
    expect(src).toMatchObject({ type: 'job', amount: 1_500, date: plusDays(when, f.payment_terms_days) })
  })

  it('refuses a balance with more than two decimals', async () => {
    expect(await toolError(a.client, 'cashflow.forecast', { opening_balance: 1.234 })).toMatchObject({ error: 'validation_error' })
  })
})

describe('analytics.dashboard', () => {
  it('shows a job booked today in a Perth company under today, and one booked just after midnight under tomorrow', async () => {
    await app.owner`update companies set time_zone = 'Australia/Perth' where id = ${b.companyId}`
    const today = localToday('Australia/Perth')
    const tomorrow = plusDays(today, 1)
    // 23:30 in Perth (UTC+8, no daylight saving) is already tomorrow in Sydney.
    const late = (await tool(b.client, 'jobs.create', { lead_id: b.leadId, title: 'Late call-out', scheduled_date: `${today}T23:30:00+08:00` })).job
    const early = (await tool(b.client, 'jobs.create', { lead_id: b.leadId, title: 'Early start', scheduled_date: `${tomorrow}T00:30:00+08:00` })).job
    const d = await tool(b.client, 'analytics.dashboard', {})
    expect([d.time_zone, d.today, d.tomorrow]).toEqual(['Australia/Perth', today, tomorrow])
    expect(d.jobs_today.map((j: any) => j.id)).toEqual([late.id])
    expect(d.jobs_today[0]).toMatchObject({ local_time: '23:30', clientName: 'Sam Reliable' })
    expect(d.jobs_tomorrow.map((j: any) => j.id)).toEqual([early.id])
    expect(d.new_leads.count).toBe(1)
    // A's jobs and leads are not B's.
    const ours = await tool(a.client, 'analytics.dashboard', { days: 30 })
    expect(ours.jobs_today.map((j: any) => j.id)).not.toContain(late.id)
    expect(ours.new_leads.count).toBe(2)
  })

  it('lists overdue invoices, quotes waiting and reminders due', async () => {
    const overdue = await invoice(a, 440, 0)
    await app.owner`update invoices set due_date = due_date - 8 where id = ${overdue.id}`
    const { quote } = await tool(a.client, 'quotes.create', { lead_id: a.leadId, line_items: [{ description: 'Downlights', quantity: 4, unitPrice: 50 }] })
    await tool(a.client, 'quotes.send', { quote_id: quote.id })
    const [company] = await app.owner`select company_id from leads where id = ${a.leadId}`
    await app.owner`insert into reminders (company_id, title, due_at) values
      (${company!.company_id}, 'Call supplier', now() - interval '1 hour'), (${company!.company_id}, 'Next month', now() + interval '40 days')`
    const d = await tool(a.client, 'analytics.dashboard', {})
    expect(d.overdue_invoices.items.find((i: any) => i.id === overdue.id)).toMatchObject({ days_overdue: 8, balance: 440 })
    expect(d.quotes_waiting.items.map((q: any) => q.id)).toContain(quote.id)
    expect(d.reminders_due.items.map((r: any) => [r.title, r.overdue])).toEqual([['Call supplier', true]])
  })
})
