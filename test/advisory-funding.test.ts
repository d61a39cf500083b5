// formation.funding, funding.eligibility_scan, funding.program_details, lifecycle.assess and
// scaling.readiness_score through the MCP SDK client, every result checked against the tool's output
// schema (helpers/tools.ts). Programs, amounts and dates are checked against values written here from
// the reference sheet's Funding section, not from the code; every cited fact exists in src/facts;
// the scaling score never falls when revenue grows (fast-check); the lifecycle stage rests on the
// company's seeded figures.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ManualClock } from '../src/core/clock.js'
import { allFacts } from '../src/facts/facts.js'
import { scalingFactors, scoreOf, type ScoreFigures } from '../src/domains/scaling/score.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const DAY = 86_400_000
// A fixed day, so what is open or closed does not drift with the calendar (KAP runs to 2026-12-31).
const NOW = new Date('2026-11-26T01:00:00Z')
const ago = (days: number) => new Date(NOW.getTime() - days * DAY)
const isoDay = (d: Date) => d.toISOString().slice(0, 10)

function expectCitedFactsExist(result: { facts: { id: string }[] }) {
  const known = allFacts()
  for (const f of result.facts) expect(known.has(f.id), f.id).toBe(true)
}

/**
 * 10 leads in the last year, 4 won. Paid: $55,000 incl. GST ($50,000 ex) 500 days ago and $110,000
 * incl. GST ($100,000 ex) 100 days ago. Two jobs completed 100 days ago, one invoiced; $20,000 of job
 * costs. One invoice of $11,000 incl. GST sent and 30 days overdue.
 */
async function seed(app: TestApp, company: string) {
  const sql = app.owner
  const leads = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), company_id: company, name: `Lead ${i}`, status: i < 4 ? 'Won' : 'Lost', created_at: ago(200) }))
  await sql`insert into leads ${sql(leads)}`
  const lead = leads[0]!.id
  const jobs = [0, 1].map(() => ({ id: randomUUID(), company_id: company, lead_id: lead, title: 'Switchboard', status: 'Completed', completed_at: ago(100), updated_at: ago(100) }))
  await sql`insert into jobs ${sql(jobs)}`
  await sql`insert into job_costs ${sql({ company_id: company, job_id: jobs[0]!.id, description: 'Materials', amount_cents: 2_000_000, created_at: ago(100) })}`
  const invoice = (n: number, sub: number, status: string, issued: Date, due: Date, paid: number, job: string | null) => ({
    id: randomUUID(), company_id: company, lead_id: lead, job_id: job, invoice_number: `INV-${n}`, kind: 'final', status,
    subtotal_cents: sub, gst_cents: sub / 10, total_cents: sub * 1.1, amount_paid_cents: paid, issue_date: isoDay(issued), due_date: isoDay(due), public_token: `t-${randomUUID()}`,
  })
  const invoices = [
    invoice(1, 5_000_000, 'Paid', ago(510), ago(496), 5_500_000, null),
    invoice(2, 10_000_000, 'Paid', ago(110), ago(96), 11_000_000, jobs[0]!.id),
    invoice(3, 1_000_000, 'Sent', ago(44), ago(30), 0, null),
  ]
  await sql`insert into invoices ${sql(invoices)}`
  const payment = (i: number, amount: number, at: Date) => ({ company_id: company, invoice_id: invoices[i]!.id, amount_cents: amount, method: 'bank_transfer', provider: 'manual', provider_payment_id: randomUUID(), received_at: at })
  await sql`insert into payments ${sql([payment(0, 5_500_000, ago(500)), payment(1, 11_000_000, ago(100))])}`
}

let app: TestApp
let clock: ManualClock
let client: Client
let empty: Client

beforeAll(async () => {
  clock = new ManualClock(NOW)
  app = await startTestApp({ clock })
  const company = await onboard(app, { business_name: 'Volt Works', trade_type: 'electrician', state: 'QLD' })
  await seed(app, company.company_id)
  client = await connectHttp(app, company.api_key)
  empty = await connectHttp(app, (await onboard(app, { business_name: 'Brand New Plumbing', trade_type: 'plumber', state: 'NSW' })).api_key)
})
afterAll(async () => {
  await client?.close()
  await empty?.close()
  await app?.stop()
})

describe('formation.funding', () => {
  it('a closed round is reported closed with its date: ASBAS Digital Solutions Round 3 closed on 5 December 2025 (sheet, section 4)', async () => {
    clock.set(new Date('2026-01-15T00:00:00Z'))
    try {
      const after = await tool(client, 'formation.funding', { category: 'digital', include_closed: true })
      const asbas = after.programs.find((p: any) => p.program_id === 'asbas_digital')
      expect(asbas).toMatchObject({ status: 'closed', closes: '2025-12-05', category: 'digital' })
      expect(asbas.status_sentence).toMatch(/Closed on 2025-12-05/)
      expect(after.facts.find((f: any) => f.id === 'funding.asbas_digital.applications')).toMatchObject({ standing: 'past_its_date' })
      // Not asked for closed ones: left out of the list, but named in the summary with its date.
      const hidden = await tool(client, 'formation.funding', { category: 'digital' })
      expect(hidden.programs).toEqual([])
      expect(hidden.closed_not_listed.join(' ')).toMatch(/ASBAS Digital Solutions.*Closed on 2025-12-05/)
      expect(hidden.summary.join(' ')).toMatch(/Closed and not listed: ASBAS/)

      clock.set(new Date('2025-11-20T00:00:00Z'))
      const before = await tool(client, 'formation.funding', { category: 'digital' })
      expect(before.programs.find((p: any) => p.program_id === 'asbas_digital')).toMatchObject({ status: 'open', closes: '2025-12-05' })
    } finally {
      clock.set(NOW)
    }
  })

  it('EMDG Round 4 is reported closed (the sheet says so without a date)', async () => {
    const r = await tool(client, 'formation.funding', { category: 'export', include_closed: true })
    expect(r.programs.map((p: any) => p.program_id)).toEqual(['emdg'])
    expect(r.programs[0]).toMatchObject({ status: 'closed', category: 'export' })
    expect(r.programs[0].status_sentence).toMatch(/Closed: .*Round 4/)
  })

  it('the category filter: only apprenticeship programs, national plus the company\'s state (QLD), with the sheet\'s amounts', async () => {
    const r = await tool(client, 'formation.funding', { category: 'apprenticeship', include_closed: true })
    expectCitedFactsExist(r)
    expect(new Set(r.programs.map((p: any) => p.category))).toEqual(new Set(['apprenticeship']))
    const ids = r.programs.map((p: any) => p.program_id)
    expect(ids).toEqual(expect.arrayContaining(['kap', 'phi', 'aatsp', 'qld_payroll_tax_apprentice_exemption']))
    expect(ids).not.toContain('nsw_payroll_tax_apprentice_rebate')
    expect(ids).not.toContain('emdg')
    const kap = r.programs.find((p: any) => p.program_id === 'kap')
    // Sheet: apprentice $10,000 full time; employer up to $5,000; commencements from 1 Jul 2025.
    expect(kap.amounts.map((a: any) => a.amount)).toEqual(expect.arrayContaining([10_000, 5_000]))
    expect(kap.opens).toBe('2025-07-01')
    // Sheet: Priority Hiring Incentive $5,000 extended to 31 Dec 2025, then $2,500 for non-KAP occupations.
    const phi = r.programs.find((p: any) => p.program_id === 'phi')
    expect(phi.amounts).toEqual(expect.arrayContaining([
      expect.objectContaining({ amount: 5_000, standing: 'past_its_date' }),
      expect.objectContaining({ amount: 2_500, standing: 'current' }),
    ]))
    const nsw = await tool(client, 'formation.funding', { category: 'apprenticeship', state: 'NSW' })
    expect(nsw.programs.map((p: any) => p.program_id)).toContain('nsw_payroll_tax_apprentice_rebate')
    expect(nsw.programs.map((p: any) => p.program_id)).not.toContain('qld_payroll_tax_apprentice_exemption')
    expect(nsw.disclaimer).toMatch(/General information only/)
  })

  it('a category with no sourced program says so rather than invent one', async () => {
    const r = await tool(client, 'formation.funding', { category: 'small-business' })
    expect(r.programs).toEqual([])
    expect(r.summary.join(' ')).toMatch(/none is shown without a source/)
  })
})

describe('funding.eligibility_scan and program_details', () => {
  it('shows the criterion each program meets or misses, from the answers and the company\'s records', async () => {
    const r = await tool(client, 'funding.eligibility_scan', { hiring_apprentice: true, exports: true })
    expectCitedFactsExist(r)
    const by = Object.fromEntries(r.programs.map((p: any) => [p.program.program_id, p]))
    const criterion = (id: string, text: RegExp) => by[id].criteria.find((c: any) => text.test(c.criterion))
    // EMDG: exports and turnover under $20m (sheet) met, from 12 months of payments ($100,000 ex GST); the round is closed.
    expect(criterion('emdg', /overseas/)).toMatchObject({ result: 'meets' })
    expect(criterion('emdg', /Turnover under \$20,000,000\.00/)).toMatchObject({ result: 'meets', fact_id: 'funding.emdg.turnover_limit' })
    expect(criterion('emdg', /Turnover/).because).toMatch(/\$100,000\.00/)
    expect(criterion('emdg', /Open/)).toMatchObject({ result: 'misses' })
    expect(by.emdg.verdict).toBe('not_eligible')
    // KAP: open on the company's date, an apprentice taken on; the clean-energy or housing exposure cannot be judged here.
    expect(criterion('kap', /Open/)).toMatchObject({ result: 'meets' })
    expect(criterion('kap', /apprentice/i)).toMatchObject({ result: 'meets' })
    expect(criterion('kap', /clean energy or housing/)).toMatchObject({ result: 'unknown' })
    expect(by.kap.verdict).toBe('possible')
    // A NSW program misses for a QLD business; ASBAS pays providers, not businesses.
    expect(criterion('nsw_payroll_tax_apprentice_rebate', /operates in NSW/)).toMatchObject({ result: 'misses', because: 'state is QLD' })
    expect(criterion('asbas_digital', /paid to the business/)).toMatchObject({ result: 'misses' })
    expect(r.inputs.find((i: any) => i.name === 'annual_turnover')).toMatchObject({ provenance: 'company_data' })
    expect(r.inputs.find((i: any) => i.name === 'state')).toMatchObject({ value: 'QLD', provenance: 'company_data' })
    expect(r.next_steps[0]).toMatchObject({ tool: 'funding.program_details' })

    const exportOnly = await tool(client, 'funding.eligibility_scan', { categories: ['export'], exports: false, annual_turnover: 25_000_000 })
    expect(exportOnly.programs).toHaveLength(1)
    expect(exportOnly.programs[0].criteria.filter((c: any) => c.result === 'misses').map((c: any) => c.criterion).join(' | '))
      .toMatch(/Open.*overseas.*Turnover/)
  })

  it('program_details: amounts, dates, how to apply and the sources; an unknown id says which exist', async () => {
    const r = await tool(client, 'funding.program_details', { program_id: 'kap' })
    expectCitedFactsExist(r)
    expect(r.program).toMatchObject({ program_id: 'kap', status: 'open', opens: '2025-07-01' })
    expect(r.summary.join(' ')).toMatch(/\$10,000/)
    expect(r.facts.map((f: any) => f.id)).toEqual(expect.arrayContaining(['funding.kap.apprentice_amount', 'funding.kap.employer_amount']))
    expect(r.next_steps.map((s: any) => s.tool)).toContain('hiring.apprentice_workflow')
    const qld = await tool(client, 'funding.program_details', { program_id: 'qld_payroll_tax_apprentice_exemption' })
    // Sheet: the QLD 50% rebate runs to 30 Jun 2026, past on the company's date.
    expect(qld.facts.find((f: any) => f.id === 'funding.payroll_tax_apprentice.qld_rebate')).toMatchObject({ applies_to: '2026-06-30' })
    const err = await toolError(client, 'funding.program_details', { program_id: 'nope' })
    expect(err).toMatchObject({ error: 'not_found' })
    expect(err.message).toMatch(/kap/)
  })
})

describe('lifecycle.assess', () => {
  it('stage from the seeded figures, with the evidence and what moves it on', async () => {
    const solo = await tool(client, 'lifecycle.assess')
    expect(solo.stage).toBe('capacity')
    const findings = solo.evidence.map((e: any) => e.finding).join(' ')
    expect(findings).toMatch(/\$100,000\.00 revenue in the last 12 months \(payments received, ex GST\), against \$50,000\.00/)
    expect(findings).toMatch(/\$80,000\.00 left after \$20,000\.00/)
    expect(findings).toMatch(/\$11,000\.00 overdue/)
    expect(solo.evidence.find((e: any) => /employees/.test(e.finding))).toMatchObject({ provenance: 'assumed' })
    expect(solo.next_stage).toBe('funding')
    expect(solo.to_next_stage[0]).toMatch(/first employee or apprentice/)
    expect(solo.next_steps[0]).toMatchObject({ tool: 'hiring.capacity_analysis' })

    const team = await tool(client, 'lifecycle.assess', { employees: 2 })
    expect(team.stage).toBe('funding')
    expect(team.to_next_stage[0]).toMatch(/To reach scaling: nothing overdue/)
    expect(team.inputs.find((i: any) => i.name === 'employees')).toMatchObject({ provenance: 'supplied', value: '2' })

    const fresh = await tool(empty, 'lifecycle.assess')
    expect(fresh.stage).toBe('formation')
    expect(fresh.rules[0]).toMatchObject({ stage: 'formation', holds: true })
  })
})

describe('scaling.readiness_score', () => {
  it('scores the seeded company factor by factor, as computed here by hand', async () => {
    const r = await tool(client, 'scaling.readiness_score', { goal: 'add_crew', target_annual_revenue: 150_000 })
    const points = Object.fromEntries(r.factors.map((f: any) => [f.factor, f.score_points]))
    // growth 100% -> 30 x 1; margin (100,000 - 20,000) / 100,000 -> 25 x 0.8; collected 110,000 / 121,000 -> 15 x 0.909;
    // win rate 4 / 10 -> 15 x 0.4; jobs invoiced 1 / 2 -> 15 x 0.5.
    expect(points).toEqual({ revenue_growth: 30, margin: 20, cash_collection: 13.6, win_rate: 6, jobs_invoiced: 7.5 })
    expect(r.score).toBe(77)
    expect(r.factors.reduce((s: number, f: any) => s + f.weight, 0)).toBe(100)
    expect(r.target).toEqual({ target_annual_revenue: 150_000, revenue_last_12_months: 100_000, growth_needed_percent: 50 })
    expect(r.gaps[0]).toMatch(/^win_rate/)
    const fresh = await tool(empty, 'scaling.readiness_score')
    expect(fresh.score).toBe(0)
    expect(fresh.factors.every((f: any) => f.origin === 'no_data')).toBe(true)
  })

  it('more revenue growth never lowers the score; nor does a higher win rate (property)', () => {
    const money = fc.integer({ min: 0, max: 5_000_000 })
    const figures = fc.record({
      revenue_12m: money, revenue_prev_12m: money, received_12m: money, job_costs_12m: money, recurring_costs_12m: money, overdue: money,
      leads_12m: fc.integer({ min: 0, max: 500 }), won_12m: fc.integer({ min: 0, max: 500 }),
      completed_jobs_12m: fc.integer({ min: 0, max: 500 }), completed_jobs_invoiced_12m: fc.integer({ min: 0, max: 500 }),
    }) as fc.Arbitrary<ScoreFigures>
    fc.assert(fc.property(figures, money, fc.integer({ min: 0, max: 500 }), (f, more, wins) => {
      const base = scoreOf(scalingFactors(f))
      expect(scoreOf(scalingFactors({ ...f, revenue_12m: f.revenue_12m + more }))).toBeGreaterThanOrEqual(base)
      expect(scoreOf(scalingFactors({ ...f, won_12m: f.won_12m + wins }))).toBeGreaterThanOrEqual(base)
      expect(base).toBeGreaterThanOrEqual(0)
      expect(base).toBeLessThanOrEqual(100)
    }), { numRuns: 500 })
  })
})
