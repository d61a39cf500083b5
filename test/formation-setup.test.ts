// formation.requirements, formation.checklist, formation.guided_setup and formation.recommend_trade
// through the MCP SDK client, every result checked against the tool's output schema
// (helpers/tools.ts). The reference figures are written here from the reference sheet, not read
// from the code: a NSW contractor licence for all electrical wiring and residential work over
// $5,000, GST registration at $75,000 turnover, ARCtick for refrigerant work. Every cited fact
// exists in src/facts; the trade-fit score never falls when a matching skill or licence is added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { allFacts, factById, GENERAL_INFORMATION } from '../src/facts/facts.js'
import { tradeFactors, type TradeFitInput } from '../src/domains/formation/recommend-trade.js'
import { TRADE_KINDS } from '../src/domains/formation/trades.js'

/** The advisory shape every result shares: caveat, inputs with origins, facts that all exist. */
function expectAdvisory(result: any) {
  expect(result.disclaimer).toBe(GENERAL_INFORMATION)
  expect(result.summary.length).toBeGreaterThan(0)
  for (const i of result.inputs) expect(['supplied', 'company', 'assumed']).toContain(i.origin)
  const ids = result.facts.map((f: any) => f.id)
  expect(ids.length).toBeGreaterThan(0)
  for (const id of ids) expect(allFacts().has(id), id).toBe(true)
  return new Set<string>(ids)
}

describe('formation setup tools', () => {
  let app: TestApp
  let client: Client
  let bare: Client
  let companyId: string

  beforeAll(async () => {
    app = await startTestApp()
    const company = await onboard(app, { trade_type: 'electrician', abn: '51 824 753 556', business_name: 'Sparky Bros Electrical' })
    companyId = company.company_id
    await app.owner`update companies set state = 'NSW' where id = ${companyId}`
    client = await connectHttp(app, company.api_key)
    const other = await onboard(app, { business_name: 'New Start Trades' })
    bare = await connectHttp(app, other.api_key)
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await bare?.close()
    await app?.stop()
  })

  it('a NSW electrician needs a contractor licence for all electrical wiring; the $5,000 residential threshold and GST at $75,000 are cited', async () => {
    const r = await tool(client, 'formation.requirements', {})
    const ids = expectAdvisory(r)
    expect(r).toMatchObject({ trade: 'electrician', trade_kinds: ['electrical'], state: 'NSW' })
    expect(r.inputs).toEqual(expect.arrayContaining([{ name: 'trade', value: 'electrician', origin: 'company' }, { name: 'state', value: 'NSW', origin: 'company' }]))
    const licence = r.requirements.find((q: any) => q.key === 'licence.electrical')
    expect(licence.title).toMatch(/all electrical wiring/i)
    expect(licence.fact_ids).toContain('licence.nsw.contractor_threshold')
    // From the sheet: residential work over $5,000 incl GST needs the licence in NSW.
    expect(factById('licence.nsw.contractor_threshold')).toMatchObject({ value: 5_000_00, unit: 'cents', jurisdiction: 'NSW' })
    expect(r.facts.find((f: any) => f.id === 'licence.nsw.contractor_threshold').statement).toMatch(/\$5,000/)
    // From the sheet: GST registration at $75,000 of GST turnover.
    const gst = r.requirements.find((q: any) => q.key === 'gst')
    expect(gst.fact_ids).toContain('gst.registration_threshold')
    expect(factById('gst.registration_threshold')).toMatchObject({ value: 75_000_00, unit: 'cents' })
    expect(gst.detail).toMatch(/\$75,000/)
    expect(gst.when).toMatch(/21 days/)
    // HBCF over $20,000 for residential work; the White Card for everyone; no ARCtick for an electrician.
    expect(r.requirements.map((q: any) => q.key)).toEqual(expect.arrayContaining(['abn', 'business_name', 'home_warranty', 'white_card']))
    expect(r.requirements.find((q: any) => q.key === 'home_warranty').detail).toMatch(/\$20,000/)
    expect(ids.has('licence.national.refrigerant_handling')).toBe(false)
    expect(r.next_steps.map((s: any) => s.tool)).toContain('formation.guided_setup')
  })

  it('a refrigeration tech is told about ARCtick: the handling licence and the trading authorisation', async () => {
    const r = await tool(client, 'formation.requirements', { trade: 'air conditioning and refrigeration', state: 'VIC', residential: false })
    const ids = expectAdvisory(r)
    expect(r.trade_kinds).toEqual(['refrigeration'])
    expect(r.requirements.map((q: any) => q.key)).toEqual(expect.arrayContaining(['arctick.handling', 'arctick.trading']))
    expect(ids.has('licence.national.refrigerant_handling')).toBe(true)
    expect(r.requirements.find((q: any) => q.key === 'arctick.handling').detail).toMatch(/ARCtick Refrigerant Handling Licence/)
    expect(r.summary.join(' ')).toMatch(/ARCtick licences apply nationally/)
    // Not residential: no home-warranty insurance.
    expect(r.requirements.some((q: any) => q.key === 'home_warranty')).toBe(false)
  })

  it('says a fact is unconfirmed rather than inventing it (Tasmanian home warranty)', async () => {
    const r = await tool(client, 'formation.requirements', { trade: 'carpenter', state: 'TAS' })
    expectAdvisory(r)
    const warranty = r.requirements.find((q: any) => q.key === 'home_warranty')
    expect(warranty.unconfirmed).toBe(true)
    expect(r.facts.find((f: any) => f.id === 'home_warranty.tas.insurance')).toMatchObject({ confidence: 'unconfirmed', caution: expect.stringMatching(/Unconfirmed/) })
    expect(r.summary.join(' ')).toMatch(/Unconfirmed .*Tasmania/)
  })

  it('without a trade or state it lists only what every trade shares and asks for the state', async () => {
    const r = await tool(bare, 'formation.requirements', {})
    expectAdvisory(r)
    expect(r).toMatchObject({ trade: null, trade_kinds: [], state: null })
    expect(r.requirements.some((q: any) => q.key.startsWith('licence.'))).toBe(false)
    expect(r.inputs.find((i: any) => i.name === 'state').origin).toBe('assumed')
    expect(r.next_steps.map((s: any) => s.tool)).toContain('formation.requirements')
  })

  it('the checklist marks the ABN done from the profile, adds employer tasks with super at 12%, and flags GST from the company\'s invoices', async () => {
    const before = await tool(client, 'formation.checklist', { plans_employees: true })
    expectAdvisory(before)
    const items = before.groups.flatMap((g: any) => g.items)
    expect(items.find((i: any) => i.key === 'abn')).toMatchObject({ done: true, done_because: expect.stringMatching(/ABN 51 ?824 ?753 ?556 is recorded in your profile/) })
    expect(items.find((i: any) => i.key === 'gst').done).toBe(false)
    expect(before.groups.map((g: any) => g.group)).toEqual(['registration', 'tax', 'licensing', 'insurance', 'employment', 'operations'])
    const superItem = items.find((i: any) => i.key === 'super')
    expect(superItem.fact_ids).toContain('super.guarantee_rate')
    expect(factById('super.guarantee_rate')).toMatchObject({ value: 0.12, applies_from: '2025-07-01' })
    expect(superItem.detail).toMatch(/12%/)
    expect(items.find((i: any) => i.key === 'record_keeping').detail).toMatch(/5 years/)
    expect(items.find((i: any) => i.key === 'bas').when).toMatch(/28 October, 28 February, 28 April and 28 July/)
    expect(before.summary.join(' ')).not.toMatch(/at or over the GST registration threshold/)

    // $80,000 ex GST invoiced this year (and a $10,000 credit note, and a draft that does not count).
    const [lead] = await app.owner`insert into leads (company_id, name, status) values (${companyId}, 'Seeded', 'Won') returning id`
    const invoice = (n: string, kind: string, status: string, cents: number) => app.owner`
      insert into invoices (company_id, lead_id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents, issue_date, due_date, public_token, credits_invoice_id)
      values (${companyId}, ${lead!.id}, ${n}, ${kind}, ${status}, ${cents}, ${cents / 10}, ${cents * 1.1}, current_date - 30, current_date, ${`tok-${n}-${companyId}`},
        ${kind === 'credit_note' ? app.owner`(select id from invoices where invoice_number = 'INV-1' and company_id = ${companyId})` : null})`
    await invoice('INV-1', 'final', 'Paid', 90_000_00)
    await invoice('CN-1', 'credit_note', 'Sent', 10_000_00)
    await invoice('INV-2', 'final', 'Draft', 50_000_00)
    const after = await tool(client, 'formation.checklist', { plans_employees: false, registered_for_gst: false })
    expect(after.inputs).toEqual(expect.arrayContaining([{ name: 'invoiced_turnover_12_months', value: '$80,000.00 ex GST', origin: 'company' }]))
    expect(after.summary.join(' ')).toMatch(/\$80,000\.00 ex GST, at or over the GST registration threshold of \$75,000\.00/)
    expect(after.groups.some((g: any) => g.group === 'employment')).toBe(false)
    const registered = await tool(client, 'formation.checklist', { registered_for_gst: true })
    expect(registered.groups.flatMap((g: any) => g.items).find((i: any) => i.key === 'gst')).toMatchObject({ done: true })
    expect(registered.done_count).toBe(before.done_count + 1)
  })

  it('guided setup: done from the profile, the first step not done is next, GST optional under the threshold', async () => {
    const fresh = await tool(bare, 'formation.guided_setup', { trade: 'plumber', state: 'QLD', structure: 'sole_trader', expected_annual_turnover: 40000 })
    expectAdvisory(fresh)
    const byKey = (r: any, k: string) => r.steps.find((s: any) => s.key === k)
    expect(byKey(fresh, 'structure').status).toBe('done')
    expect(byKey(fresh, 'abn').status).toBe('next')
    expect(fresh.next).toBe('abn')
    expect(fresh.steps.filter((s: any) => s.status === 'next')).toHaveLength(1)
    expect(byKey(fresh, 'gst')).toMatchObject({ status: 'optional', status_because: expect.stringMatching(/\$40,000\.00 is under the \$75,000\.00 threshold/) })
    expect(byKey(fresh, 'licence.plumbing').detail).toMatch(/any value/)
    expect(fresh.steps.map((s: any) => s.step)).toEqual(fresh.steps.map((_: any, i: number) => i + 1))

    const established = await tool(client, 'formation.guided_setup', { structure: 'company', expected_annual_turnover: 120000, plans_employees: true })
    expect(byKey(established, 'abn')).toMatchObject({ status: 'done', status_because: expect.stringContaining('recorded in your profile') })
    expect(byKey(established, 'company_registration').status).toBe('next')
    expect(byKey(established, 'gst').status).toBe('to_do')
    expect(established.steps.map((s: any) => s.key)).toEqual(expect.arrayContaining(['payg_withholding', 'single_touch_payroll', 'super', 'workers_compensation']))
    expect(established.next_steps.map((s: any) => s.tool)).toEqual(expect.arrayContaining(['formation.checklist', 'hiring.compliance_checklist']))
    // ASIC's $597 is the 2024-25 fee: cited as past its date on the company's date.
    expect(established.facts.find((f: any) => f.id === 'setup.company_registration_fee')).toMatchObject({ standing: 'past_its_date' })
  })

  it('recommends a trade from skills, licences held and preferences, factor by factor', async () => {
    const r = await tool(client, 'formation.recommend_trade', {
      skills: ['house wiring', 'solar installs', 'customer service'], qualifications: ['Cert III Electrotechnology', 'White Card'], state: 'NSW',
      preferences: 'no gas work please', startup_budget: 15000,
    })
    expectAdvisory(r)
    const [best] = r.recommendations
    expect(best.kind).toBe('electrical')
    expect(best.score).toBe(best.factors.reduce((s: number, f: any) => s + f.score_points, 0))
    expect(best.score).toBe(90)
    for (const f of best.factors) {
      expect(f.score_points).toBeLessThanOrEqual(f.weight)
      expect(f.explanation.length).toBeGreaterThan(10)
    }
    expect(best.licensing.join(' ')).toMatch(/all electrical wiring/)
    const plumbing = r.recommendations.find((x: any) => x.kind === 'plumbing')
    expect(plumbing.factors.find((f: any) => f.factor === 'preferences').score_points).toBe(0)
    expect(r.not_scored.join(' ')).toMatch(/\$15,000\.00 was not scored/)

    const fromProfile = await tool(client, 'formation.recommend_trade', {})
    expect(fromProfile.inputs.find((i: any) => i.name === 'skills')).toEqual({ name: 'skills', value: 'electrician', origin: 'company' })
    expect(fromProfile.recommendations[0].kind).toBe('electrical')
    expect(fromProfile.next_steps[0].tool).toBe('formation.requirements')
  })
})

describe('trade fit score (property)', () => {
  const word = fc.constantFrom('wiring', 'solar', 'plumbing', 'drainage', 'carpentry', 'framing', 'air con', 'hvac', 'welding', 'sales', 'gas')
  const qual = fc.constantFrom('Cert III Electrotechnology', 'Cert III Plumbing', 'Cert III Carpentry', 'ARCtick refrigerant handling licence', 'White Card', 'Forklift licence')
  const fit = fc.record({
    skills: fc.array(word, { maxLength: 5 }),
    qualifications: fc.array(qual, { maxLength: 3 }),
    preferences: fc.option(fc.constantFrom('no heights', 'I like solar', 'avoid gas', 'indoor work', 'no plumbing'), { nil: null }),
  })
  const score = (kind: (typeof TRADE_KINDS)[number], f: { skills: string[]; qualifications: string[]; preferences: string | null }) => {
    const input: TradeFitInput = { skills: { list: f.skills, origin: 'supplied' }, qualifications: f.qualifications, preferences: f.preferences }
    return tradeFactors(kind, input).reduce((s, x) => s + x.score_points, 0)
  }

  it('adding a skill or a qualification never lowers any trade\'s score, and it stays within 0 to 100', () => {
    fc.assert(fc.property(fit, word, qual, fc.constantFrom(...TRADE_KINDS), (f, extraSkill, extraQual, kind) => {
      const base = score(kind, f)
      expect(base).toBeGreaterThanOrEqual(0)
      expect(base).toBeLessThanOrEqual(100)
      expect(score(kind, { ...f, skills: [...f.skills, extraSkill] })).toBeGreaterThanOrEqual(base)
      expect(score(kind, { ...f, qualifications: [...f.qualifications, extraQual] })).toBeGreaterThanOrEqual(base)
    }), { numRuns: 300 })
  })
})
