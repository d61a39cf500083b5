// formation.simulate_business, formation.demand_hotspots and formation.location_score through the
// MCP SDK client, every result checked against the tool's output schema (helpers/tools.ts). The
// simulation is checked against an independent month-by-month computation written here from the
// rules the tool states; the reference figures (GST at $75,000, super 12%, company tax 25% under
// $50m turnover) are written from the reference sheet, not read from the code. Location scores are
// property-tested: more won work in a suburb never lowers its score.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { allFacts, factById, GENERAL_INFORMATION } from '../src/facts/facts.js'
import { ownDataFactors, scoreOf, travelFactor, type SuburbFigures } from '../src/domains/formation/location-score.js'

// From the reference sheet (au-trade-facts.md), copied by hand.
const GST_THRESHOLD = 75_000
const SUPER_RATE = 0.12
const COMPANY_BASE_RATE = 0.25

const cents = (dollars: number) => Math.round(dollars * 100)

/** The scenario's months, computed independently: every line in cents, rounded once. */
function expectedMonths(s: { rate: number; hours: number; ramp: number; apprenticeWage: number; materials: number; markup: number; startup: number; overheads: number; insurance: number }) {
  const weeks = 52 / 12
  const rows: any[] = []
  let cash = 0
  let profitSoFar = 0
  let taxSoFar = 0
  const revenues: number[] = []
  for (let month = 1; month <= 12; month++) {
    const share = Math.min(1, month / (s.ramp + 1))
    const labour = cents(s.rate * s.hours * weeks * share)
    const materials = Math.round(cents(s.materials) * share)
    const revenue = labour + Math.round(materials * (1 + s.markup / 100))
    const wages = cents(s.apprenticeWage * s.hours * weeks)
    const superCents = Math.round(wages * SUPER_RATE)
    const profit = revenue - materials - wages - superCents - cents(s.insurance) - cents(s.overheads)
    profitSoFar += profit
    const taxDue = Math.round(Math.max(0, profitSoFar) * COMPANY_BASE_RATE)
    const tax = taxDue - taxSoFar
    taxSoFar = taxDue
    cash += profit - tax - (month === 1 ? cents(s.startup) : 0)
    revenues.push(revenue)
    rows.push({ month, revenue, materials, wages, super: superCents, profit, tax, cash })
  }
  // GST: registered from the first month whose revenue with the previous 11, or with the next 11
  // (past month 12 at month 12's figure), reaches the threshold.
  const rev = (m: number) => revenues[Math.min(m, 12) - 1]!
  const gstMonth = rows.find((r) => {
    let current = 0, projected = 0
    for (let m = Math.max(1, r.month - 11); m <= r.month; m++) current += rev(m)
    for (let m = r.month; m <= r.month + 11; m++) projected += rev(m)
    return current >= cents(GST_THRESHOLD) || projected >= cents(GST_THRESHOLD)
  })?.month ?? null
  return { rows, gstMonth, breakEven: rows.find((r) => r.cash >= 0)?.month ?? null }
}

const knownIds = () => new Set(allFacts().keys())

describe('formation simulation and location tools', () => {
  let app: TestApp
  let client: Client
  let company: Awaited<ReturnType<typeof onboard>>
  let empty: Client

  async function lead(suburb: string | null, status = 'New') {
    const [row] = await app.owner`insert into leads (company_id, name, suburb, status) values (${company.company_id}, 'Seeded', ${suburb}, ${status}) returning id`
    return row!.id as string
  }
  async function job(leadId: string, amountCents: number | null, status = 'Completed') {
    await app.owner`insert into jobs (company_id, lead_id, title, status, amount_cents) values (${company.company_id}, ${leadId}, 'Seeded job', ${status}, ${amountCents})`
  }

  beforeAll(async () => {
    app = await startTestApp()
    company = await onboard(app, { trade_type: 'plumber', business_name: 'Pipe Dream Plumbing' })
    client = await connectHttp(app, company.api_key)
    const other = await onboard(app, { trade_type: 'electrician' })
    empty = await connectHttp(app, other.api_key)
    // Newtown: 4 leads (one spelt "newtown "), 2 won: a $1,000.00 job and a $2,200.00 accepted quote.
    await job(await lead('Newtown', 'Won'), 100_000)
    const quoted = await lead('newtown ', 'Quoted')
    await app.owner`
      insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until, public_token)
      values (${company.company_id}, ${quoted}, 'Q-SIM-1', 'Accepted', 200000, 20000, 220000, current_date + 30, ${`sim-${company.company_id}`})`
    await lead('Newtown', 'Lost')
    await lead('Newtown', 'New')
    // Marrickville: 2 leads, none won (a cancelled job is not won work).
    await job(await lead('Marrickville', 'Lost'), 50_000, 'Cancelled')
    await lead('Marrickville', 'Contacted')
    await lead(null, 'Won')
  })
  afterAll(async () => {
    await client?.close()
    await empty?.close()
    await app?.stop()
  })

  it('the reference figures it relies on are as the sheet gives them', () => {
    expect(factById('gst.registration_threshold')).toMatchObject({ value: cents(GST_THRESHOLD), unit: 'cents' })
    expect(factById('super.guarantee_rate')).toMatchObject({ value: SUPER_RATE, applies_from: '2025-07-01' })
    expect(factById('simulation.tax.company_base_rate')).toMatchObject({ value: COMPANY_BASE_RATE, unit: 'fraction' })
    expect(factById('simulation.tax.company_full_rate')).toMatchObject({ value: 0.3 })
    expect(factById('simulation.tax.base_rate_turnover_limit')).toMatchObject({ value: cents(50_000_000) })
    expect(factById('simulation.tax.individual_rates')).toMatchObject({ value: null, confidence: 'unconfirmed' })
  })

  it('simulate_business matches an independent month-by-month computation: revenue, costs, super, GST once over the threshold, tax, cash and break-even', async () => {
    const scenario = { rate: 80, hours: 20, ramp: 11, apprenticeWage: 20, materials: 600, markup: 25, startup: 5000, overheads: 500, insurance: 200 }
    const r = await tool(client, 'formation.simulate_business', {
      structure: 'company', hourly_rate: scenario.rate, billable_hours_per_week: scenario.hours, ramp_up_months: scenario.ramp,
      apprentices: 1, apprentice_hourly_wage: scenario.apprenticeWage, monthly_materials_cost: scenario.materials, materials_markup_percent: scenario.markup,
      startup_costs: scenario.startup, monthly_overheads: scenario.overheads, monthly_insurance: scenario.insurance,
    })
    const want = expectedMonths(scenario)
    expect(r.months).toHaveLength(12)
    for (const [i, w] of want.rows.entries()) {
      const m = r.months[i]
      expect(m.month).toBe(w.month)
      expect(cents(m.revenue), `month ${w.month} revenue`).toBe(w.revenue)
      expect(cents(m.materials_cost)).toBe(w.materials)
      expect(cents(m.wages)).toBe(w.wages)
      expect(cents(m.super), `month ${w.month} super at 12%`).toBe(w.super)
      expect(cents(m.profit_before_tax), `month ${w.month} profit`).toBe(w.profit)
      expect(cents(m.tax), `month ${w.month} tax`).toBe(w.tax)
      expect(cents(m.cumulative_cash), `month ${w.month} cash`).toBe(w.cash)
      expect(m.gst_registered).toBe(want.gstMonth !== null && w.month >= want.gstMonth)
    }
    // Worked by hand too: full revenue $7,683.33 a month; 12 months projected from month 6 reach $75,000, from month 5 do not.
    expect(want.gstMonth).toBe(6)
    expect(r.gst.registration_month).toBe(6)
    expect(r.break_even_month).toBe(want.breakEven)
    expect(r.months[0].wages).toBe(1733.33)
    expect(r.months[0].super).toBe(208)
    expect(r.tax).toMatchObject({ computed: true, structure: 'company', rate_percent: 25 })
    expect(r.summary.join(' ')).toMatch(/month 6: register for GST within 21 days/)
    const ids = r.facts.map((f: any) => f.id)
    expect(ids).toEqual(expect.arrayContaining(['gst.registration_threshold', 'super.guarantee_rate', 'simulation.tax.company_base_rate']))
    for (const id of ids) expect(knownIds().has(id), id).toBe(true)
    expect(r.not_included.join(' ')).not.toMatch(/Insurance: no sourced premium/)
    expect(r.inputs.find((i: any) => i.name === 'hourly_rate')).toMatchObject({ basis: 'supplied', value: 80 })
    expect(r.disclaimer).toBe(GENERAL_INFORMATION)
    expect(r.next_steps.map((s: any) => s.tool)).toEqual(['hiring.cost_calculator', 'formation.checklist', 'formation.requirements'])
  })

  it('simulate_business: for a sole trader the tax line is not computed and says why; a missing rate comes from the cited indicative rate; insurance not given is said', async () => {
    const r = await tool(client, 'formation.simulate_business', { structure: 'sole_trader', billable_hours_per_week: 30 })
    expect(r.tax).toMatchObject({ computed: false, rate_percent: null })
    expect(r.tax.explanation).toMatch(/individual rates/)
    expect(r.months.every((m: any) => m.tax === null && m.profit_after_tax === null)).toBe(true)
    // The company's trade is plumber: the sheet's plumber range is $80-$200 an hour, low end used.
    expect(r.inputs.find((i: any) => i.name === 'hourly_rate')).toMatchObject({ basis: 'fact', value: 80 })
    expect(r.inputs.find((i: any) => i.name === 'trade')).toMatchObject({ basis: 'company_data', value: 'plumber' })
    const byId = Object.fromEntries(r.facts.map((f: any) => [f.id, f]))
    expect(byId['simulation.tax.individual_rates'].caution).toMatch(/Unconfirmed/)
    expect(byId['simulation.rate.plumber_hourly_low'].confidence).toBe('third_party')
    expect(r.not_included.join(' ')).toMatch(/Insurance: no sourced premium/)
    // $80 x 30 h x 52/12 = $10,400 a month: $124,800 projected, so GST from month 1.
    expect(r.months[0].revenue).toBe(10400)
    expect(r.gst.registration_month).toBe(1)
    expect(r.break_even_month).toBe(1)
  })

  it('simulate_business asks for what it cannot source rather than guessing', async () => {
    const noHours = await toolError(client, 'formation.simulate_business', { hourly_rate: 100 })
    expect(noHours).toMatchObject({ error: 'validation_error' })
    expect(noHours.message).toMatch(/billable_hours_per_week/)
    const noRate = await toolError(client, 'formation.simulate_business', { trade: 'tiling', billable_hours_per_week: 30 })
    expect(noRate.message).toMatch(/hourly_rate/)
    const noWage = await toolError(client, 'formation.simulate_business', { hourly_rate: 100, billable_hours_per_week: 30, employees: 2 })
    expect(noWage.message).toMatch(/employee_hourly_wage.*hiring.cost_calculator/)
  })

  it('demand_hotspots ranks suburbs from the company\'s own leads and won work, and says no public figures are held', async () => {
    const r = await tool(client, 'formation.demand_hotspots', { state: 'NSW' })
    expect(r.hotspots.map((h: any) => h.suburb)).toEqual(['Newtown', 'Marrickville'])
    expect(r.hotspots[0]).toMatchObject({ rank: 1, leads: 4, won: 2, win_rate_percent: 50, won_value: 3200, average_job_value: 1600 })
    expect(r.hotspots[1]).toMatchObject({ leads: 2, won: 0, won_value: 0, average_job_value: null })
    expect(r.hotspots[0].score).toBeGreaterThan(r.hotspots[1].score)
    expect(r.not_shown.join(' ')).toMatch(/No dated public figures/)
    expect(r.not_shown.join(' ')).toMatch(/postcode and state filters cannot be applied/)
    expect(r.facts.map((f: any) => f.id)).toEqual(['location.public_demand_by_suburb'])
    expect(r.next_steps[0]).toMatchObject({ tool: 'formation.location_score' })
  })

  it('demand_hotspots with no company data names no hotspots and says why', async () => {
    const r = await tool(empty, 'formation.demand_hotspots', {})
    expect(r.hotspots).toEqual([])
    expect(r.summary[0]).toMatch(/No hotspots can be named: you have no leads with a suburb/)
    expect(r.facts[0]).toMatchObject({ id: 'location.public_demand_by_suburb', confidence: 'unconfirmed' })
    expect(r.next_steps[0]).toMatchObject({ tool: 'leads.create' })
    expect(r.disclaimer).toBe(GENERAL_INFORMATION)
  })

  it('location_score explains each factor with its weight, input, origin and points; no data gives a null score with the reason', async () => {
    const r = await tool(client, 'formation.location_score', { suburb: 'newtown', travel_minutes: 15 })
    const by = Object.fromEntries(r.factors.map((f: any) => [f.factor, f]))
    // Newtown is the busiest suburb (30/30), wins 2 of 4 (12.5, rounded to 13/25), has the most won value (25/25); 15 minutes: 15/20.
    expect(by.demand).toMatchObject({ weight: 30, score_points: 30, origin: 'company_data' })
    expect(by.win_rate).toMatchObject({ weight: 25, score_points: 13 })
    expect(by.won_value).toMatchObject({ weight: 25, score_points: 25 })
    expect(by.travel).toMatchObject({ weight: 20, score_points: 15, origin: 'supplied' })
    expect(r.score).toBe(83)
    expect(r.factors.reduce((s: number, f: any) => s + f.score_points, 0)).toBe(r.score)
    expect(r.factors.reduce((s: number, f: any) => s + f.weight, 0)).toBe(100)
    const assumed = await tool(client, 'formation.location_score', { suburb: 'Marrickville' })
    expect(assumed.factors.find((f: any) => f.factor === 'travel')).toMatchObject({ origin: 'assumed', score_points: 10 })
    expect(assumed.score).toBe(25)
    const none = await tool(empty, 'formation.location_score', { suburb: 'Newtown' })
    expect(none.score).toBeNull()
    expect(none.summary[0]).toMatch(/not scored/)
    const bad = await toolError(client, 'formation.location_score', { postcode: '2042' })
    expect(bad.message).toMatch(/Give suburb/)
  })

  it('location_score: a won job in a suburb does not lower its score (through the tool)', async () => {
    const before = (await tool(client, 'formation.location_score', { suburb: 'Marrickville', travel_minutes: 30 })).score
    await job(await lead('Marrickville', 'Won'), 30_000)
    const after = (await tool(client, 'formation.location_score', { suburb: 'Marrickville', travel_minutes: 30 })).score
    expect(after).toBeGreaterThan(before)
  })

  it('property: more won jobs in the suburb never lower the score, nor does a shorter trip', () => {
    const suburb = fc.record({ leads: fc.nat(50), wonShare: fc.double({ min: 0, max: 1, noNaN: true }), value: fc.nat(5_000_000) })
    const toFigures = (name: string, s: { leads: number; wonShare: number; value: number }): SuburbFigures => {
      const won = Math.floor(s.leads * s.wonShare)
      return { suburb: name, leads: s.leads, won, wonValueCents: won > 0 ? s.value : 0, valuedWon: won }
    }
    fc.assert(fc.property(
      suburb, fc.array(suburb, { maxLength: 6 }), fc.array(fc.nat(2_000_000), { minLength: 1, maxLength: 5 }), fc.boolean(), fc.option(fc.nat(120), { nil: undefined }),
      (t, others, newJobs, convertExisting, minutes) => {
        const target = toFigures('Target', t)
        const all = [target, ...others.map((o, i) => toFigures(`Other ${i}`, o))]
        const score = (x: SuburbFigures) => scoreOf([...ownDataFactors(x, all.map((s) => (s.suburb === x.suburb ? x : s))), travelFactor(minutes)])
        let current = target
        let last = score(current)
        for (const value of newJobs) {
          // A won job: either an open lead of the suburb is won, or a new lead comes in won.
          const fromOpen = convertExisting && current.won < current.leads
          current = { ...current, leads: current.leads + (fromOpen ? 0 : 1), won: current.won + 1, wonValueCents: current.wonValueCents + value, valuedWon: current.valuedWon + 1 }
          const next = score(current)
          expect(next).toBeGreaterThanOrEqual(last)
          last = next
        }
        if (minutes !== undefined && minutes > 0) {
          expect(scoreOf([...ownDataFactors(target, all), travelFactor(minutes - 1)])).toBeGreaterThanOrEqual(scoreOf([...ownDataFactors(target, all), travelFactor(minutes)]))
        }
      },
    ), { numRuns: 300 })
  })
})
