// Operators (issue 23, item 3) through the MCP SDK client and REST, on real Postgres: a user who
// belongs to two companies switches between them and back; a company the user does not belong to
// is refused; the portfolio's figures match a count made here from the stored rows; shared
// subcontractors are matched by ABN; and a cross-tenant matrix: company B, using company A's ids
// with every operator tool, sees nothing of A and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

let app: TestApp
// The operator signs up A, then owns B too (B's admin adds A's user); C belongs to someone else.
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let c: Awaited<ReturnType<typeof onboard>>
let clientA: McpClient
let clientB: McpClient
let clientC: McpClient
beforeAll(async () => {
  app = await startTestApp()
  a = await onboard(app, { business_name: 'Alpha Plumbing', plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { business_name: 'Bravo Electrical', plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  c = await onboard(app, { business_name: 'Charlie Carpentry', plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  clientA = await connectHttp(app, a.api_key)
  clientB = await connectHttp(app, b.api_key)
  clientC = await connectHttp(app, c.api_key)
  await tool(clientB, 'operator.add_member', { email: a.email })
})
afterAll(async () => {
  await clientA?.close()
  await clientB?.close()
  await clientC?.close()
  await app?.stop()
})

/** Which company a key acts for, as the service itself reports it. */
const actingFor = async (client: McpClient) => (await tool(client, 'operator.get_portfolio')).active_company_id as string

describe('operator.switch_company', () => {
  it('switches to a second company the user belongs to, acts there, records it, and switches back', async () => {
    const lead = (await tool(clientA, 'leads.create', { name: 'Before Switch' })).lead
    const switched = await tool(clientA, 'operator.switch_company', { company_id: b.company_id })
    expect(switched).toMatchObject({ company_id: b.company_id, business_name: 'Bravo Electrical', previous_company_id: a.company_id, switched: true })
    expect(switched.next_steps.map((s: { tool: string }) => s.tool)).toContain('operator.get_portfolio')
    expect(await actingFor(clientA)).toBe(b.company_id)
    // A lead made now lands in B, and A's lead is out of reach.
    const inB = (await tool(clientA, 'leads.create', { name: 'After Switch' })).lead
    const [stored] = await app.owner<{ company_id: string }[]>`select company_id from leads where id = ${inB.id}`
    expect(stored!.company_id).toBe(b.company_id)
    expect((await toolError(clientA, 'leads.update', { lead_id: lead.id, priority: 'High' })).error).toBe('not_found')

    const back = await tool(clientA, 'operator.switch_company', { company_id: a.company_id })
    expect(back).toMatchObject({ company_id: a.company_id, previous_company_id: b.company_id, switched: true })
    expect(await actingFor(clientA)).toBe(a.company_id)
    expect((await tool(clientA, 'leads.update', { lead_id: lead.id, priority: 'High' })).lead.id).toBe(lead.id)

    const records = await app.owner<{ company_id: string; from_company_id: string }[]>`
      select company_id, from_company_id from company_switches where key_id in (select id from api_keys where company_id = ${a.company_id}) order by id`
    expect(records).toEqual([
      { company_id: b.company_id, from_company_id: a.company_id },
      { company_id: a.company_id, from_company_id: b.company_id },
    ])
  })

  it('refuses a company the user does not belong to, and a made-up id, changing nothing', async () => {
    for (const id of [c.company_id, '00000000-0000-4000-8000-000000000000']) {
      const err = await toolError(clientA, 'operator.switch_company', { company_id: id })
      expect(err.error).toBe('forbidden')
      expect(err.message).toContain('operator.get_portfolio')
    }
    expect(await actingFor(clientA)).toBe(a.company_id)
  })

  it('over REST: POST /operator/switch answers 200 and the next call acts for the new company', async () => {
    const res = await app.call('POST', '/api/v1/operator/switch', { key: a.api_key, body: { company_id: b.company_id } })
    expect(res.status).toBe(200)
    expect((await app.call('GET', '/api/v1/operator/portfolio', { key: a.api_key })).body.active_company_id).toBe(b.company_id)
    expect((await app.call('POST', '/api/v1/operator/switch', { key: a.api_key, body: { company_id: a.company_id } })).status).toBe(200)
  })
})

// An independent count of one company's figures from its stored rows, dated in its time zone here.
const localDate = (d: Date, tz: string) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(d)
async function countedFigures(companyId: string) {
  const [co] = await app.owner<{ time_zone: string; plan_slug: string }[]>`
    select c.time_zone, s.plan_slug from companies c join subscriptions s on s.company_id = c.id where c.id = ${companyId}`
  const tz = co!.time_zone
  const today = localDate(new Date(), tz)
  const leads = await app.owner<{ created_at: Date }[]>`select created_at from leads where company_id = ${companyId}`
  const quotes = await app.owner<{ status: string }[]>`select status from quotes where company_id = ${companyId}`
  const jobs = await app.owner<{ status: string; scheduled_date: Date | null }[]>`select status, scheduled_date from jobs where company_id = ${companyId}`
  const invoices = await app.owner<{ status: string; total_cents: string; amount_paid_cents: string; due_date: string }[]>`
    select status, total_cents, amount_paid_cents, due_date::text from invoices where company_id = ${companyId}`
  const dayOfWeek = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7
  const monday = new Date(Date.parse(`${today}T00:00:00Z`) - dayOfWeek * 86_400_000).toISOString().slice(0, 10)
  const sunday = new Date(Date.parse(`${monday}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10)
  const open = invoices.filter((i) => ['Sent', 'Partially Paid'].includes(i.status) && Number(i.total_cents) > Number(i.amount_paid_cents))
  const overdue = open.filter((i) => i.due_date < today)
  const balance = (list: typeof open) => list.reduce((n, i) => n + Number(i.total_cents) - Number(i.amount_paid_cents), 0) / 100
  return {
    plan_slug: co!.plan_slug,
    leads_this_month: leads.filter((l) => localDate(l.created_at, tz).slice(0, 7) === today.slice(0, 7)).length,
    open_quotes: quotes.filter((q) => ['Draft', 'Sent', 'Viewed'].includes(q.status)).length,
    jobs_this_week: jobs.filter((j) => j.status !== 'Cancelled' && j.scheduled_date && localDate(j.scheduled_date, tz) >= monday && localDate(j.scheduled_date, tz) <= sunday).length,
    outstanding_invoices: open.length,
    outstanding_amount: balance(open),
    overdue_invoices: overdue.length,
    overdue_amount: balance(overdue),
  }
}

describe('operator.get_portfolio and operator.dashboard', () => {
  it("lists both of the user's companies with figures matching an independent count, and the dashboard totals them", async () => {
    const lead = (await tool(clientA, 'leads.create', { name: 'Portfolio Lead' })).lead
    await tool(clientA, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Tap', quantity: 1, unitPrice: 200 }] })
    const bravo = (await tool(clientB, 'leads.create', { name: 'Bravo Lead', email: 'bravo-client@example.com.au' })).lead
    // A job scheduled now is this week wherever the week boundary falls; a completed one is invoiced.
    await tool(clientB, 'jobs.create', { lead_id: bravo.id, title: 'Fan install', amount: 330, scheduled_date: new Date().toISOString() })
    const { job } = await tool(clientB, 'jobs.create', { lead_id: bravo.id, title: 'Switchboard', amount: 440 })
    await tool(clientB, 'jobs.complete', { job_id: job.id })
    await tool(clientB, 'invoicing.generate', { job_id: job.id, send_email: true })

    const portfolio = await tool(clientA, 'operator.get_portfolio')
    expect(portfolio.companies.map((x: { company_id: string }) => x.company_id).sort()).toEqual([a.company_id, b.company_id].sort())
    for (const company of portfolio.companies) {
      expect(company).toMatchObject(await countedFigures(company.company_id))
      expect(company.active).toBe(company.company_id === a.company_id)
    }
    const alpha = portfolio.companies.find((x: { company_id: string }) => x.company_id === a.company_id)
    expect(alpha.leads_this_month).toBeGreaterThanOrEqual(2)
    expect(alpha.open_quotes).toBeGreaterThanOrEqual(1)
    const bravoFigures = portfolio.companies.find((x: { company_id: string }) => x.company_id === b.company_id)
    expect(bravoFigures.jobs_this_week).toBeGreaterThanOrEqual(1)
    expect(bravoFigures.outstanding_invoices).toBeGreaterThanOrEqual(1)
    expect(bravoFigures.outstanding_amount).toBeGreaterThanOrEqual(440)

    const dash = await tool(clientA, 'operator.dashboard')
    expect(dash.companies).toEqual(portfolio.companies)
    for (const k of ['leads_this_month', 'open_quotes', 'jobs_this_week', 'outstanding_invoices', 'overdue_invoices'] as const) {
      expect(dash.totals[k]).toBe(portfolio.companies.reduce((n: number, x: Record<string, number>) => n + x[k]!, 0))
    }
    expect(dash.totals.companies).toBe(2)
  })
})

describe('operator.get_shared_suppliers', () => {
  it('matches subcontractors by ABN across the user\'s companies only, and says price-book suppliers are not recorded', async () => {
    const shared = '51824753556'
    const onlyA = '53004085616'
    await tool(clientA, 'subcontractors.register', { name: 'Sam Sparks', trades: ['electrical'], abn: shared })
    await tool(clientB, 'subcontractors.register', { name: 'Samuel Sparks Pty Ltd', trades: ['electrical'], abn: shared })
    await tool(clientA, 'subcontractors.register', { name: 'Only Alpha', trades: ['plumbing'], abn: onlyA })
    // C is not the operator's: its use of the same ABN neither shows nor counts.
    await tool(clientC, 'subcontractors.register', { name: 'Sam at Charlie', trades: ['electrical'], abn: onlyA })

    const result = await tool(clientA, 'operator.get_shared_suppliers')
    expect(result.price_book_suppliers).toBe('not_recorded')
    expect(result.note).toContain('Price-book suppliers')
    expect(result.suppliers).toHaveLength(1)
    expect(result.suppliers[0].abn).toBe(shared)
    expect(result.suppliers[0].companies.map((x: { company_id: string }) => x.company_id).sort()).toEqual([a.company_id, b.company_id].sort())
    expect((await tool(clientA, 'operator.get_shared_suppliers', { trade: 'plumbing' })).suppliers).toEqual([])
  })
})

// B and C each hold a key whose user belongs to their own company only (B's admin let A's user in,
// not the other way round). Each, given A's ids, gets nothing of A through any operator tool.
describe.each([
  ['B', () => ({ client: clientB, own: b, others: [a], names: ['Alpha Plumbing', 'Charlie Carpentry'] })],
  ['C', () => ({ client: clientC, own: c, others: [a, b], names: ['Alpha Plumbing', 'Bravo Electrical'] })],
])('cross-tenant matrix: company %s with company A\'s ids', (_label, who) => {
  it('every operator tool leaks nothing of A and changes nothing', async () => {
    const { client, own, others, names } = who()
    const snapshot = async () => ({
      keys: await app.owner`select id, company_id, acting_company_id from api_keys order by id`,
      members: await app.owner`select user_id, company_id, role from memberships order by user_id, company_id`,
      switches: await app.owner`select id from company_switches order by id`,
    })
    const before = await snapshot()
    const calls: [string, Record<string, unknown>][] = [
      ...others.map((o) => ['operator.switch_company', { company_id: o.company_id }] as [string, Record<string, unknown>]),
      ['operator.get_portfolio', {}],
      ['operator.get_shared_suppliers', {}],
      ['operator.get_shared_suppliers', { trade: 'electrical' }],
      ['operator.dashboard', {}],
    ]
    for (const [name, args] of calls) {
      const res = await client.callTool({ name, arguments: args })
      const text = JSON.stringify(res)
      if (name === 'operator.switch_company') expect(res.isError).toBe(true)
      else expect(res.isError).toBeFalsy()
      // Only the id the caller itself sent may come back (in the refusal); no other id of A's or B's.
      for (const o of others) {
        for (const id of [o.company_id, o.user_id].filter((x) => x !== args.company_id)) expect(text).not.toContain(id)
      }
      for (const n of names) expect(text).not.toContain(n)
    }
    const portfolio = await tool(client, 'operator.get_portfolio')
    expect(portfolio.companies.map((x: { company_id: string }) => x.company_id)).toEqual([own.company_id])
    expect((await tool(client, 'operator.get_shared_suppliers')).suppliers).toEqual([])
    expect(await snapshot()).toEqual(before)
  })
})
