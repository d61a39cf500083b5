// GET /api/v1/financials and analytics.financials through the real service, on a history made with
// the real invoicing tools (generate, send, manual payments, void, credit notes): the spec's `days`
// parameter and its default, every returned figure in the OpenAPI response schema, the resource,
// and tenancy (another company's invoices never counted, its ids not_found).
// Expected money is computed here in integer cents from what the test did, never read back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { capturePlans } from './helpers/query-plans.js'
import type { Principal } from '../src/core/access.js'
import { getFinancials } from '../src/domains/analytics/financials.js'
import { detailedAnalytics } from '../src/domains/analytics/detailed.js'
import { dashboard } from '../src/domains/analytics/dashboard.js'
import { forecast } from '../src/domains/cashflow/forecast.js'

interface Tenant { key: string; client: Client; leadId: string }

let app: TestApp
let a: Tenant
let b: Tenant
const clients: Client[] = []
const DAY = 86_400_000

async function tenant(name: string): Promise<Tenant> {
  const company = await onboard(app, { business_name: name, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const client = await connectHttp(app, company.api_key)
  clients.push(client)
  const { lead } = await tool(client, 'leads.create', { name: 'Morgan Blake', email: 'morgan@example.com', serviceType: 'Hot water' })
  return { key: company.api_key, client, leadId: lead.id }
}

const rest = (t: Tenant, method: string, path: string, body?: unknown) => app.call(method, `/api/v1${path}`, { key: t.key, body })

async function invoice(t: Tenant, amount: number, dueInDays = 14) {
  const { job } = await tool(t.client, 'jobs.create', { lead_id: t.leadId, title: 'Hot water system', amount })
  await tool(t.client, 'jobs.complete', { job_id: job.id })
  const { invoice: inv } = await tool(t.client, 'invoicing.generate', { job_id: job.id, due_in_days: dueInDays })
  return inv as { id: string; total: number }
}

async function send(t: Tenant, id: string) {
  const res = await rest(t, 'POST', `/invoices/${id}/send`, { send_email: true })
  expect(res.status).toBe(200)
}

async function pay(t: Tenant, id: string, amount: number, receivedAt?: Date) {
  const res = await rest(t, 'POST', `/invoices/${id}/payments`, { amount, method: 'bank_transfer', ...(receivedAt ? { received_at: receivedAt.toISOString() } : {}) })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
}

// What company A did, in cents, as the expectations.
const expected = { revenue30: 0, revenue7: 0, payments30: 0, payments7: 0, invoiced: 0, invoices: 0, credited: 0, outstanding: 0, outstandingN: 0, overdue: 0, overdueN: 0, drafts: 0, draftsN: 0 }

beforeAll(async () => {
  app = await startTestApp()
  a = await tenant('Harbour City Plumbing')
  b = await tenant('Other Trades Pty Ltd')

  // 1. $1,100 sent, $300 paid 10 days ago (in the 30-day window, not the 7-day one), $200 today.
  const one = await invoice(a, 1100)
  await send(a, one.id)
  await pay(a, one.id, 300, new Date(Date.now() - 10 * DAY))
  await pay(a, one.id, 200)
  // 2. $550 sent and voided: never counted.
  const two = await invoice(a, 550)
  await send(a, two.id)
  expect((await rest(a, 'POST', `/invoices/${two.id}/void`, { reason: 'wrong client' })).status).toBe(200)
  // 3. $880 sent, $80 paid 40 days ago (outside every window asked), credit note of $100.
  const three = await invoice(a, 880)
  await send(a, three.id)
  await pay(a, three.id, 80, new Date(Date.now() - 40 * DAY))
  expect((await rest(a, 'POST', `/invoices/${three.id}/credit-notes`, { amount: 100, reason: 'discount agreed' })).status).toBe(201)
  // 4. $440 due on receipt, sent, made overdue by moving its due date back (Overdue is read from dates).
  const four = await invoice(a, 440, 0)
  await send(a, four.id)
  await app.owner`update invoices set due_date = due_date - 5 where id = ${four.id}`
  // 5. $220 left as a Draft.
  await invoice(a, 220)

  Object.assign(expected, {
    revenue30: 50_000, revenue7: 20_000, payments30: 2, payments7: 1,
    invoiced: 110_000 + 88_000 + 44_000 + 22_000, invoices: 4, credited: 10_000,
    outstanding: (110_000 - 50_000) + (88_000 - 8_000 - 10_000) + 44_000, outstandingN: 3,
    overdue: 44_000, overdueN: 1, drafts: 22_000, draftsN: 1,
  })

  // Company B's money, which A must never see.
  const theirs = await invoice(b, 9_999)
  await send(b, theirs.id)
  await pay(b, theirs.id, 5_000)
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
})

const cents = (dollars: number) => Math.round(dollars * 100)

describe('GET /api/v1/financials', () => {
  it('defaults to 30 days and adds up what the invoices and payments say', async () => {
    const res = await rest(a, 'GET', '/financials')
    expect(res.status).toBe(200)
    const f = res.body
    expect(f.period.days).toBe(30)
    expect(cents(f.revenue)).toBe(expected.revenue30)
    expect(f.payments_received).toBe(expected.payments30)
    expect(cents(f.invoiced)).toBe(expected.invoiced)
    expect(f.invoices_issued).toBe(expected.invoices)
    expect(cents(f.credited)).toBe(expected.credited)
    expect(f.credit_notes_issued).toBe(1)
    expect(cents(f.net_invoiced)).toBe(expected.invoiced - expected.credited)
    expect([cents(f.outstanding), f.outstanding_count]).toEqual([expected.outstanding, expected.outstandingN])
    expect([cents(f.overdue), f.overdue_count]).toEqual([expected.overdue, expected.overdueN])
    expect([cents(f.unsent_drafts), f.unsent_draft_count]).toEqual([expected.drafts, expected.draftsN])
    expect(cents(f.cash_flow.in)).toBe(expected.revenue30)
    expect(cents(f.cash_flow.out)).toBe(0)
    expect(f.average_days_to_pay).toBeNull() // nothing was paid in full
  })

  it('days=7 narrows the window; the overdue and outstanding figures stay as of now', async () => {
    const week = (await rest(a, 'GET', '/financials?days=7')).body
    expect(week.period.days).toBe(7)
    expect(cents(week.revenue)).toBe(expected.revenue7)
    expect(week.payments_received).toBe(expected.payments7)
    expect(cents(week.outstanding)).toBe(expected.outstanding)
    const days = (Date.parse(`${week.period.to}T00:00:00Z`) - Date.parse(`${week.period.from}T00:00:00Z`)) / DAY
    expect(days).toBe(6)
  })

  it('a bad days is a validation_error naming days', async () => {
    for (const bad of ['0', '366', 'abc', '1.5', '-3']) {
      const res = await rest(a, 'GET', `/financials?days=${bad}`)
      expect([bad, res.status, res.body.error]).toEqual([bad, 400, 'validation_error'])
      expect(res.body.messages.join(' ')).toContain('days')
    }
  })

  it('the MCP tool answers the same as REST', async () => {
    const viaMcp = await tool(a.client, 'analytics.financials', { days: 7 })
    const viaRest = (await rest(a, 'GET', '/financials?days=7')).body
    expect({ ...viaMcp, as_of: null, period: { ...viaMcp.period, end: null } }).toEqual({ ...viaRest, as_of: null, period: { ...viaRest.period, end: null } })
  })

  it('every returned figure is in the OpenAPI 200 schema, each with a description', async () => {
    const doc = (await app.call('GET', '/api/v1/openapi.json')).body
    const op = doc.paths['/financials'].get
    expect(op.parameters).toEqual([
      expect.objectContaining({ name: 'days', in: 'query', required: false, schema: expect.objectContaining({ type: 'integer', default: 30 }) }),
      expect.objectContaining({ name: 'period', in: 'query', required: false, schema: expect.objectContaining({ enum: ['this_month', 'last_month', 'this_quarter', 'this_fy'] }) }),
    ])
    const schema = op.responses['200'].content['application/json'].schema
    const body = (await rest(a, 'GET', '/financials')).body
    const missing: string[] = []
    const walk = (value: unknown, node: any, path: string) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return
      for (const [key, child] of Object.entries(value)) {
        const prop = node?.properties?.[key]
        if (!prop) missing.push(`${path}${key}`)
        else {
          if (!prop.description) missing.push(`${path}${key} (no description)`)
          walk(child, prop, `${path}${key}.`)
        }
      }
    }
    walk(body, schema, '')
    expect(missing).toEqual([])
    expect(Object.keys(body)).toEqual(expect.arrayContaining(['revenue', 'invoiced', 'outstanding', 'overdue', 'cash_flow', 'average_days_to_pay']))
  })

  it("another company's invoices are never counted", async () => {
    const theirs = (await rest(b, 'GET', '/financials')).body
    expect(cents(theirs.revenue)).toBe(500_000)
    expect(cents(theirs.outstanding)).toBe(999_900 - 500_000)
    const ours = (await rest(a, 'GET', '/financials')).body
    expect(cents(ours.revenue)).toBe(expected.revenue30)
  })

  it('needs the financials scope', async () => {
    const res = await app.call('POST', '/api/v1/keys', { key: a.key, body: { name: 'leads only', scopes: ['leads'], permission: 'read' } })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const denied = await app.call('GET', '/api/v1/financials', { key: res.body.api_key })
    expect([denied.status, denied.body.error]).toEqual([403, 'forbidden'])
  })
})

describe('service://financials', () => {
  it('reads revenue, conversion and invoice status', async () => {
    const res = await a.client.readResource({ uri: 'service://financials' })
    const data = JSON.parse((res.contents[0] as { text: string }).text)
    expect(cents(data.financials.revenue)).toBe(expected.revenue30)
    expect(data.conversion.leads).toBe(1)
    expect(data.conversion.job.count).toBe(1)
    const byStatus = Object.fromEntries(data.invoice_status.map((s: any) => [s.status, s.count]))
    expect(byStatus).toEqual({ 'Partially Paid': 2, Overdue: 1, Void: 1, Draft: 1 })
  })
})

describe('query plans', () => {
  // With sequential scans priced out, Postgres still chooses one where no index can serve the
  // condition; so a Seq Scan left in any plan is a query that is not sargable on company_id + time.
  it('every table the financial reads touch is reached through an index', async () => {
    const [row] = await app.owner`select company_id from leads where id = ${a.leadId}`
    const principal = { companyId: row!.company_id } as Principal
    const plans = await capturePlans(app, async (deps) => {
      await deps.db.app`set enable_seqscan = off`
      await getFinancials(deps, principal, { days: 30 })
      await detailedAnalytics(deps, principal, {})
      await dashboard(deps, principal, {})
      await forecast(deps, principal, {})
    })
    expect(plans.length).toBeGreaterThan(10)
    const seq = plans.flatMap((p) => p.nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] !== 'companies' && n['Relation Name'] !== 'invoicing_settings')
      .map((n) => `${n['Relation Name']}: ${p.query.slice(0, 120)}`))
    expect(seq).toEqual([])
  })
})
