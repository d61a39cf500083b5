// The hiring tools (issue 26) through the MCP SDK client, every result checked against the tool's
// output schema (helpers/tools.ts). The figures are checked against values written here from the
// reference sheet, not read from the code: super 12% from 1 July 2025, the National Minimum Wage
// $24.95, QLD workers' compensation $1.343 per $100, NSW payroll tax 5.45% over $1.2m, MA000020
// apprentice percentages 55/65/75/88. The company's clock is moved across 1 July 2026 to see Payday
// Super go from "applies from a future date" to current. Scores are property-tested: more of a good
// input never lowers them, and each explains itself factor by factor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { ManualClock } from '../src/core/clock.js'
import { allFacts, GENERAL_INFORMATION } from '../src/facts/facts.js'
import { createRegistry } from '../src/domains/index.js'
import { capacityScore, CAPACITY_WEIGHTS, type CapacityFigures } from '../src/domains/hiring/capacity-score.js'
import { readinessFactors, READINESS_WEIGHTS } from '../src/domains/hiring/readiness.js'
import { total } from '../src/domains/hiring/factors.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const registry = createRegistry()
const BEFORE_PAYDAY_SUPER = new Date('2026-05-01T02:00:00Z') // 1 May 2026, midday in Brisbane
const AFTER_PAYDAY_SUPER = new Date('2026-07-02T02:00:00Z')
const DAY = 86_400_000

/** What every hiring result must carry: the caveat, cited facts that exist, next steps to real tools. */
function expectWellFormed(result: any) {
  expect(result.disclaimer).toBe(GENERAL_INFORMATION)
  expect(result.summary.length).toBeGreaterThan(0)
  const known = allFacts()
  for (const f of result.facts) expect(known.has(f.id), f.id).toBe(true)
  for (const s of result.next_steps) expect(registry.get(s.tool), s.tool).toBeTruthy()
  for (const i of result.inputs) expect(['supplied', 'company_data', 'assumed']).toContain(i.origin)
}

/** A score that explains itself: weights add to 100, each factor within its weight, the total their sum. */
function expectExplained(result: any) {
  expect(result.factors.reduce((s: number, f: any) => s + f.weight, 0)).toBe(100)
  for (const f of result.factors) {
    expect(f.score_points).toBeGreaterThanOrEqual(0)
    expect(f.score_points).toBeLessThanOrEqual(f.weight)
    expect(f.input.length).toBeGreaterThan(0)
    expect(f.explanation.length).toBeGreaterThan(0)
  }
  expect(result.score).toBe(Math.round(result.factors.reduce((s: number, f: any) => s + f.score_points, 0)))
}

let app: TestApp
let clock: ManualClock
let client: Client
let company: Awaited<ReturnType<typeof onboard>>
let other: Client

async function seedWork(companyId: string, now: Date) {
  const at = (days: number) => new Date(now.getTime() + days * DAY)
  const lead = async (status: string) => (await app.owner`insert into leads (company_id, name, status, created_at) values (${companyId}, 'Seeded', ${status}, ${at(-20)}) returning id`)[0]!.id as string
  const wonLead = await lead('Won')
  // 6 jobs done in the last 12 weeks, 2 scheduled ahead.
  for (let i = 0; i < 6; i++) await app.owner`insert into jobs (company_id, lead_id, title, status, completed_at) values (${companyId}, ${wonLead}, 'Done', 'Completed', ${at(-7 * (i + 1))})`
  for (let i = 0; i < 2; i++) await app.owner`insert into jobs (company_id, lead_id, title, status, scheduled_date) values (${companyId}, ${wonLead}, 'Ahead', 'Scheduled', ${at(3 + i)})`
  // 3 open leads, 2 lost without a quote; quotes: 2 accepted, 1 declined.
  for (const s of ['New', 'Contacted', 'Qualified', 'Lost', 'Lost']) await lead(s)
  for (const [n, status] of [[1, 'Accepted'], [2, 'Accepted'], [3, 'Declined']] as const) {
    await app.owner`
      insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until, public_token, accepted_at, declined_at)
      values (${companyId}, ${wonLead}, ${`Q-H-${n}`}, ${status}, 100000, 10000, 110000, ${at(10).toISOString().slice(0, 10)}, ${`hire-${companyId}-${n}`},
              ${status === 'Accepted' ? at(-10) : null}, ${status === 'Declined' ? at(-10) : null})`
  }
}

beforeAll(async () => {
  // Onboarded on the later date, so the business trial still runs on both dates the test uses.
  clock = new ManualClock(AFTER_PAYDAY_SUPER)
  app = await startTestApp({ clock })
  company = await onboard(app, { trade_type: 'plumber', state: 'QLD' })
  await app.owner`update companies set time_zone = 'Australia/Brisbane' where id = ${company.company_id}`
  client = await connectHttp(app, company.api_key)
  await seedWork(company.company_id, BEFORE_PAYDAY_SUPER)
  other = await connectHttp(app, (await onboard(app, { trade_type: 'electrician' })).api_key)
  clock.set(BEFORE_PAYDAY_SUPER)
})
afterAll(async () => {
  await app?.stop()
})

describe('hiring.capacity_analysis', () => {
  it('scores the company\'s own jobs, leads and quotes factor by factor, saying what was assumed', async () => {
    const r = await tool(client, 'hiring.capacity_analysis', { weeks: 12, team_size: 1 })
    expectWellFormed(r)
    expectExplained(r)
    expect(r).toMatchObject({ team_size: 1, open_leads: 3, turned_down_leads: 2, win_rate_percent: 66.7, capacity_hours_per_week: 38 })
    // 6 jobs x 8 assumed hours over 12 weeks = 4 hours a week of 38.
    expect(r.booked_hours_per_week).toBe(4)
    expect(r.inputs.find((i: any) => i.name === 'hours_per_job')).toMatchObject({ value: '8', origin: 'assumed' })
    expect(r.inputs.find((i: any) => i.name === 'team_size').origin).toBe('supplied')
    expect(r.facts.map((f: any) => f.id)).toEqual(['employment.ordinary_hours_per_week'])
    expect(r.factors.map((f: any) => f.factor)).toEqual(Object.keys(CAPACITY_WEIGHTS))
  })

  it('more hours per job (more booked hours) never lowers the score; another company sees none of this work', async () => {
    const light = await tool(client, 'hiring.capacity_analysis', { hours_per_job: 4 })
    const heavy = await tool(client, 'hiring.capacity_analysis', { hours_per_job: 30 })
    expect(heavy.score).toBeGreaterThan(light.score)
    expect(heavy.verdict).not.toBe('room_to_grow')
    const theirs = await tool(other, 'hiring.capacity_analysis', {})
    expect(theirs).toMatchObject({ booked_hours_per_week: 0, open_leads: 0, turned_down_leads: 0, win_rate_percent: null })
    expect(theirs.factors.find((f: any) => f.factor === 'win_rate').origin).toBe('assumed')
  })

  it('property: more booked jobs (or forward jobs, open leads, turned-down leads) never lowers the score', () => {
    const figures = fc.record({
      weeks: fc.integer({ min: 1, max: 52 }), team_size: fc.integer({ min: 1, max: 20 }), hours_per_person_per_week: fc.integer({ min: 1, max: 80 }),
      hours_per_job: fc.double({ min: 0.5, max: 200, noNaN: true }), booked_jobs: fc.integer({ min: 0, max: 2000 }), forward_jobs: fc.integer({ min: 0, max: 500 }),
      open_leads: fc.integer({ min: 0, max: 500 }), quotes_accepted: fc.integer({ min: 0, max: 200 }), quotes_lost: fc.integer({ min: 0, max: 200 }),
      leads: fc.integer({ min: 0, max: 500 }), turned_down: fc.integer({ min: 0, max: 500 }),
    }).map((f): CapacityFigures => ({ ...f, turned_down: Math.min(f.turned_down, f.leads), team_origin: 'supplied', hours_origin: 'supplied' }))
    fc.assert(fc.property(figures, fc.integer({ min: 1, max: 500 }), (f, more) => {
      const base = capacityScore(f).score
      expect(capacityScore({ ...f, booked_jobs: f.booked_jobs + more }).score).toBeGreaterThanOrEqual(base)
      expect(capacityScore({ ...f, forward_jobs: f.forward_jobs + more }).score).toBeGreaterThanOrEqual(base)
      expect(capacityScore({ ...f, open_leads: f.open_leads + more }).score).toBeGreaterThanOrEqual(base)
      if (f.turned_down < f.leads) expect(capacityScore({ ...f, turned_down: f.turned_down + 1 }).score).toBeGreaterThanOrEqual(base)
      const r = capacityScore(f)
      expect(r.score).toBe(total(r.factors))
    }), { numRuns: 300 })
  })
})

describe('hiring.cost_calculator', () => {
  it('applies super at 12% on a date after 1 July 2025, QLD workers\' compensation at $1.343 per $100, and no leave loading where it is unconfirmed', async () => {
    const r = await tool(client, 'hiring.cost_calculator', { hourly_rate: 40, hours_per_week: 38 })
    expectWellFormed(r)
    // Written from the sheet: super 12% of OTE from 1 Jul 2025; QLD average 1.343% for 2025-26.
    const wage = 40 * 38 * 52
    const superPerYear = Math.round(wage * 0.12 * 100) / 100
    const workersComp = Math.round(wage * 0.01343 * 100) / 100
    const line = (name: string) => r.lines.find((l: any) => l.name === name)
    expect(line('Wage').per_year).toBe(79_040)
    expect(line('Super guarantee').per_year).toBe(superPerYear)
    expect(superPerYear).toBe(9_484.8)
    expect(line("Workers' compensation")).toMatchObject({ per_year: workersComp, included: true })
    expect(line('Annual leave loading')).toMatchObject({ per_year: 0, included: false }) // plumber: MA000036, loading unconfirmed
    expect(line('Payroll tax')).toMatchObject({ per_year: 0, included: true })
    expect(r).toMatchObject({ award: 'MA000036', state: 'QLD', wage_basis: 'supplied' })
    const perYear = Math.round((wage + superPerYear + workersComp) * 100) / 100
    expect(r.total).toEqual({ per_year: perYear, per_week: Math.round((perYear / 52) * 100) / 100, per_hour: Math.round((perYear / (38 * 52)) * 100) / 100 })
    const superFact = r.facts.find((f: any) => f.id === 'super.guarantee_rate')
    expect(superFact).toMatchObject({ standing: 'current', applies_from: '2025-07-01' })
  })

  it('without a rate, uses the National Minimum Wage of $24.95 only as a labelled floor and says the award rate is not held', async () => {
    const r = await tool(client, 'hiring.cost_calculator', { trade: 'carpentry', state: 'NSW', existing_annual_payroll: 1_200_000 })
    expectWellFormed(r)
    expect(r).toMatchObject({ award: 'MA000020', hourly_rate: 24.95, wage_basis: 'minimum_wage_floor', hours_per_week: 38 })
    expect(r.summary.join(' ')).toMatch(/not held.*floor/)
    expect(r.facts.find((f: any) => f.id === 'employment.award.ma000020.trade_rate')).toMatchObject({ confidence: 'unconfirmed' })
    const wage = 24.95 * 38 * 52
    // Already at the NSW threshold of $1.2m: the whole wage is taxed at 5.45%; MA000020 leave loading 17.5% on 4 weeks.
    expect(r.lines.find((l: any) => l.name === 'Payroll tax').per_year).toBe(Math.round(wage * 0.0545 * 100) / 100)
    expect(r.lines.find((l: any) => l.name === 'Annual leave loading').per_year).toBe(Math.round(24.95 * 38 * 4 * 0.175 * 100) / 100)
    expect(r.lines.find((l: any) => l.name === "Workers' compensation")).toMatchObject({ per_year: 240, included: true })
  })

  it('an apprentice: the year\'s percentage of the floor, labelled as an illustration', async () => {
    const r = await tool(client, 'hiring.cost_calculator', { role: 'apprentice', award: 'MA000020', apprentice_year: 2 })
    expect(r).toMatchObject({ wage_basis: 'apprentice_percentage_of_minimum_wage', hourly_rate: Math.round(24.95 * 0.65 * 100) / 100 })
    expect(r.next_steps.map((s: any) => s.tool)).toContain('hiring.apprentice_workflow')
  })
})

describe('Payday Super on the company\'s date', () => {
  it('applies from a future date before 1 July 2026, and is current after', async () => {
    clock.set(BEFORE_PAYDAY_SUPER)
    const before = await tool(client, 'hiring.compliance_checklist', { employment_type: 'casual' })
    expectWellFormed(before)
    expect(before.items.find((i: any) => i.item === 'Payday Super').standing).toBe('from_a_future_date')
    expect(before.facts.find((f: any) => f.id === 'super.payday_super')).toMatchObject({ standing: 'from_a_future_date' })
    expect(before.summary.join(' ')).toMatch(/Payday Super applies from a future date \(2026-07-01\), not yet on your date \(2026-05-01\)/)
    expect(before.items.map((i: any) => i.item)).toEqual(expect.arrayContaining([
      'Register for PAYG withholding', 'Report pay through Single Touch Payroll', 'Give the Fair Work Information Statement', 'Tax file number declaration',
      'Offer super choice', 'Pay the super guarantee', "Take out workers' compensation insurance", 'WHS induction (White Card) before construction work',
    ]))
    expect(before.items.find((i: any) => i.item === 'Give the Fair Work Information Statement').detail).toMatch(/Casual Employment Information Statement/)
    expect(before.items.find((i: any) => i.item === 'Watch the payroll tax threshold').detail).toMatch(/\$1,300,000\.00/)
    const cost = await tool(client, 'hiring.cost_calculator', {})
    expect(cost.facts.find((f: any) => f.id === 'super.payday_super').standing).toBe('from_a_future_date')

    clock.set(AFTER_PAYDAY_SUPER)
    const after = await tool(client, 'hiring.compliance_checklist', {})
    expect(after.items.find((i: any) => i.item === 'Payday Super').standing).toBe('current')
    expect(after.summary.join(' ')).toMatch(/Payday Super applies now: super reaches the fund within 7 business days/)
    clock.set(BEFORE_PAYDAY_SUPER)
  })
})

describe('hiring.apprentice_workflow', () => {
  it('gives the MA000020 percentages from the sheet (55, 65, 75, 88) and the steps', async () => {
    const r = await tool(client, 'hiring.apprentice_workflow', { trade: 'carpentry', state: 'QLD', adult_apprentice: true })
    expectWellFormed(r)
    expect(r.award).toBe('MA000020')
    expect(r.wage_percentages.map((w: any) => w.percent_of_trade_rate)).toEqual([55, 65, 75, 88])
    expect(r.steps.length).toBeGreaterThanOrEqual(6)
    expect(r.steps.find((s: any) => s.title === 'Payroll tax relief').detail).toMatch(/exempt/)
    expect(r.steps[0].detail).toMatch(/CW1/)
    expect(r.facts.find((f: any) => f.id === 'apprentice.priority_hiring_incentive_2026')).toMatchObject({ standing: 'current' })
  })

  it('shows the percentages the sheet leaves unconfirmed as unconfirmed (MA000025 all years; MA000036 after year 1)', async () => {
    const electrical = await tool(other, 'hiring.apprentice_workflow', {})
    expect(electrical.award).toBe('MA000025')
    expect(electrical.award_origin).toBe('company_data')
    expect(electrical.wage_percentages.every((w: any) => w.percent_of_trade_rate === null && w.confidence === 'unconfirmed')).toBe(true)
    expect(electrical.summary.join(' ')).toMatch(/Years 1, 2, 3, 4 unconfirmed/)
    const plumbing = await tool(client, 'hiring.apprentice_workflow', {})
    expect(plumbing.wage_percentages.map((w: any) => w.percent_of_trade_rate)).toEqual([55, null, null, null])
    expect(plumbing.facts.find((f: any) => f.id === 'apprentice.ma000036.year2').caution).toMatch(/Unconfirmed/)
  })
})

describe('hiring.readiness_score', () => {
  it('explains itself factor by factor, and more cash never lowers it', async () => {
    const none = await tool(client, 'hiring.readiness_score', {})
    const some = await tool(client, 'hiring.readiness_score', { cash_reserves: 5_000 })
    const plenty = await tool(client, 'hiring.readiness_score', { cash_reserves: 500_000 })
    for (const r of [none, some, plenty]) { expectWellFormed(r); expectExplained(r) }
    expect(none.factors.find((f: any) => f.factor === 'cash_reserves')).toMatchObject({ origin: 'assumed', score_points: 0 })
    expect(plenty.factors.find((f: any) => f.factor === 'cash_reserves').score_points).toBe(READINESS_WEIGHTS.cash)
    expect(some.score).toBeGreaterThanOrEqual(none.score)
    expect(plenty.score).toBeGreaterThan(some.score)
    expect(none.gaps.join(' ')).toMatch(/PAYG withholding/)
    expect(none.quarter_cost).toBeGreaterThan(0)
  })

  it('property: more cash, a higher capacity score or more work in sight never lowers it', () => {
    const figures = fc.record({
      capacity_score: fc.integer({ min: 0, max: 100 }), cash_reserves: fc.option(fc.double({ min: 0, max: 1e7, noNaN: true }), { nil: null }),
      quarter_cost: fc.double({ min: 0, max: 1e6, noNaN: true }), weeks_of_work_in_sight: fc.double({ min: 0, max: 52, noNaN: true }),
    })
    fc.assert(fc.property(figures, fc.double({ min: 0, max: 1e6, noNaN: true }), (f, more) => {
      const base = total(readinessFactors(f))
      expect(total(readinessFactors({ ...f, cash_reserves: (f.cash_reserves ?? 0) + more }))).toBeGreaterThanOrEqual(base)
      expect(total(readinessFactors({ ...f, capacity_score: Math.min(100, f.capacity_score + 1) }))).toBeGreaterThanOrEqual(base)
      expect(total(readinessFactors({ ...f, weeks_of_work_in_sight: f.weeks_of_work_in_sight + more }))).toBeGreaterThanOrEqual(base)
    }), { numRuns: 300 })
  })
})
