// quotes.ai_price_suggestion through the MCP SDK client, every result checked against the tool's
// output schema (helpers/tools.ts): on the local default and on the OpenAI-compatible adapter
// against a local chat-completions server. The history is made through the tools (leads, quotes
// with lines, accepted); the suggestion must cite those quotes, with a median computed here, and a
// company with no history must get no invented price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { startLocalChatServer, type LocalChatServer } from './helpers/chat-completions-server.js'
import { usagePeriod } from '../src/core/period.js'

const PROFILE = { plan: 'business', trade_type: 'plumber', business_name: 'Hot Water Heroes' }
const SYSTEM_LINE = 'Supply and install 250L electric hot water system'
/** The ten system prices (ex GST), deliberately unsorted. */
const SYSTEM_PRICES = [1890, 1750, 2100, 1820, 1795, 1950, 1700, 2240, 1860, 1805]
const JOB = 'Replace leaking 250L electric hot water system'

function medianOf(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const m = s.length / 2
  return s.length % 2 ? s[Math.floor(m)]! : Math.round(((s[m - 1]! + s[m]!) / 2) * 100) / 100
}

async function acceptedQuote(client: Client, lead: Record<string, unknown>, lines: Record<string, unknown>[]): Promise<string> {
  const { lead: { id } } = await tool(client, 'leads.create', { phone: '0412 000 111', ...lead })
  const { quote } = await tool(client, 'quotes.create', { lead_id: id, line_items: lines })
  await tool(client, 'quotes.update', { quote_id: quote.id, status: 'Accepted' })
  return quote.id
}

/** Ten accepted hot-water jobs, two accepted drain jobs and one hot-water quote never accepted; returns the ten ids. */
async function seedHistory(client: Client): Promise<string[]> {
  const ids: string[] = []
  for (const [i, price] of SYSTEM_PRICES.entries()) {
    ids.push(await acceptedQuote(client, { name: `Client ${i}`, serviceType: 'Hot water', message: 'Hot water system leaking', suburb: i < 3 ? 'Marrickville' : 'Newtown' }, [
      { description: SYSTEM_LINE, quantity: 1, unitPrice: price },
      { description: 'Labour', quantity: i % 2 ? 3 : 4, unitPrice: 110 },
      { description: 'Remove and dispose of old hot water unit', quantity: 1, unitPrice: 85 },
    ]))
  }
  for (const i of [1, 2]) {
    await acceptedQuote(client, { name: `Drain ${i}`, serviceType: 'Blocked drain' }, [{ description: 'Clear blocked sewer drain with jetter', quantity: 1, unitPrice: 450 }])
  }
  const { lead } = await tool(client, 'leads.create', { name: 'Never accepted', phone: '0412 000 222', serviceType: 'Hot water' })
  await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: SYSTEM_LINE, quantity: 1, unitPrice: 9999 }] })
  return ids
}

const suggest = (client: Client, args: Record<string, unknown>) => tool(client, 'quotes.ai_price_suggestion', args)
const byDescription = (lines: any[], text: string) => lines.find((l) => l.description === text)

describe('on the local default (no model configured)', () => {
  let app: TestApp
  let client: Client
  let empty: Client
  let hotWaterIds: string[]
  beforeAll(async () => {
    app = await startTestApp()
    const company = await onboard(app, PROFILE)
    client = await connectHttp(app, company.api_key)
    empty = await connectHttp(app, (await onboard(app, { ...PROFILE, business_name: 'New Plumbing Co' })).api_key)
    hotWaterIds = await seedHistory(client)
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await empty?.close()
    await app?.stop()
  })

  it('a company with ten past hot-water jobs gets lines citing them: count, ids, median and range', async () => {
    const s = await suggest(client, { job_description: JOB })
    expect(s).toMatchObject({ produced_by: 'local-default', provider_note: null })
    expect(s.past_jobs.matched).toBe(10)
    expect([...s.past_jobs.quote_ids].sort()).toEqual([...hotWaterIds].sort())
    const system = byDescription(s.lines, SYSTEM_LINE)
    expect(system).toMatchObject({ source: 'past_quotes', quantity: 1, unit_price: medianOf(SYSTEM_PRICES), purpose: 'work' })
    expect(system.evidence).toMatchObject({
      past_jobs: 10, median_unit_price: medianOf(SYSTEM_PRICES), lowest_unit_price: Math.min(...SYSTEM_PRICES), highest_unit_price: Math.max(...SYSTEM_PRICES),
    })
    expect([...system.evidence.quote_ids].sort()).toEqual([...hotWaterIds].sort())
    expect(system.confidence.level).toBe('high')
    expect(system.confidence.reason).toMatch(/10 of 10 matched past jobs/)
    expect(byDescription(s.lines, 'Labour')).toMatchObject({ unit_price: 110, quantity: 3.5, evidence: { past_jobs: 10 } })
    expect(byDescription(s.lines, 'Remove and dispose of old hot water unit')).toMatchObject({ unit_price: 85 })
    expect(s.lines.map((l: any) => l.description).join(' ')).not.toMatch(/drain/)
    expect(s.subtotal).toBe(Math.round((medianOf(SYSTEM_PRICES) + 3.5 * 110 + 85) * 100) / 100)

    // Market context: only the catalogue's sourced, dated plumbing ranges.
    expect(s.job.trade).toBe('plumbing')
    expect(s.market_context.map((r: any) => r.sku).sort()).toEqual(['PLB-CALL-STANDARD', 'PLB-LAB-STANDARD'])
    for (const r of s.market_context) expect(r).toMatchObject({ source: expect.stringMatching(/\S/), as_of: expect.stringMatching(/\d{4}/) })
    expect(s.adjustments.map((a: any) => [a.kind, a.applied])).toEqual([['urgency', false], ['complexity', false], ['location', false]])
    expect(s.next_steps[0]).toMatchObject({ tool: 'leads.create' })
    expect(s.next_steps[1]).toMatchObject({ tool: 'quotes.create' })
  })

  it('the result goes straight to quotes.create for a lead, and nothing was written by the suggestion', async () => {
    const before = await app.owner`select count(*)::int as n from quotes`
    const { lead } = await tool(client, 'leads.create', { name: 'New Client', phone: '0412 333 444', serviceType: 'Hot water', message: JOB, suburb: 'Marrickville' })
    const s = await suggest(client, { lead_id: lead.id })
    expect(s.past_jobs.matched).toBe(10)
    expect(s.quote_input.lead_id).toBe(lead.id)
    expect(s.next_steps).toEqual([{ tool: 'quotes.create', why: expect.stringContaining(lead.id) }])
    expect(s.adjustments.find((a: any) => a.kind === 'location').reason).toMatch(/3 of your 10 matched past jobs were in Marrickville.*no travel or distance charge/)
    expect(await app.owner`select count(*)::int as n from quotes`).toEqual(before)
    const { quote } = await tool(client, 'quotes.create', s.quote_input)
    expect(quote.subtotal).toBe(s.subtotal)
  })

  it('complexity uses the spread of the company\'s own prices; urgency adds its own after-hours charge only once it has one', async () => {
    const complex = await suggest(client, { job_description: JOB, complexity: 'complex', urgency: 'emergency' })
    const sorted = [...SYSTEM_PRICES].sort((a, b) => a - b)
    expect(byDescription(complex.lines, SYSTEM_LINE).unit_price).toBe(sorted[Math.ceil(0.75 * sorted.length) - 1])
    const [urgency, complexity] = complex.adjustments
    expect(complexity).toMatchObject({ kind: 'complexity', applied: true, reason: expect.stringMatching(/75th percentile/) })
    expect(urgency).toMatchObject({ kind: 'urgency', applied: false, reason: expect.stringMatching(/^Not applied: you have no after-hours/) })

    await tool(client, 'services.create', { name: 'After-hours emergency call-out', price: 180, unit: 'fixed' })
    const urgent = await suggest(client, { job_description: JOB, urgency: 'emergency' })
    expect(urgent.adjustments[0]).toMatchObject({ kind: 'urgency', applied: true })
    expect(urgent.lines.find((l: any) => l.purpose === 'urgency')).toMatchObject({ description: 'After-hours emergency call-out', unit_price: 180, source: 'service' })
  })

  it('the labour rate, when the company has one, prices the labour line with the hours of its past jobs', async () => {
    await tool(client, 'services.create', { name: 'Labour', price: 125, unit: 'hour' })
    const s = await suggest(client, { job_description: JOB })
    expect(byDescription(s.lines, 'Labour')).toMatchObject({ source: 'labour_rate', unit_price: 125, quantity: 3.5, evidence: { past_jobs: 10, median_unit_price: 110 } })
  })

  it('a company with no history gets an honest answer: no price, and a sentence saying so', async () => {
    const s = await suggest(empty, { job_description: JOB })
    expect(s).toMatchObject({ lines: [], other_candidates: [], quote_input: null, subtotal: 0, past_jobs: { matched: 0, quote_ids: [] } })
    expect(s.not_shown.join(' ')).toMatch(/No past accepted quote matches this job/)
    expect(s.not_shown.join(' ')).toMatch(/no price is invented/)
    expect(s.next_steps.map((n: any) => n.tool)).toEqual(['services.create', 'pricebook.import'])
    expect(s.market_context.length).toBeGreaterThan(0) // sourced ranges only, never a suggested price
  })

  it('price-book items are used when the company has them (sell price from cost and markup)', async () => {
    await tool(empty, 'pricebook.import', {
      csv: 'Item Code,Description,Unit,Cost\nRC-HWS250,Hot water system electric 250L,each,1249.00\nRC-PLV20,Pressure limiting valve 20mm,each,62.35\n',
      supplier: 'Reece', default_markup_percent: 30,
    })
    const s = await suggest(empty, { job_description: JOB })
    expect(s.lines).toHaveLength(1)
    expect(s.lines[0]).toMatchObject({ source: 'price_book', description: 'Hot water system electric 250L', unit_price: 1623.7, evidence: { past_jobs: 0 } })
    expect(s.lines[0].evidence.price_basis).toMatch(/RC-HWS250 \(Reece, cost \+ 30% markup\)/)
    expect(s.quote_input.line_items).toEqual([{ description: 'Hot water system electric 250L', quantity: 1, unitPrice: 1623.7 }])
  })

  it('needs a job description or a lead; another company\'s lead is not found', async () => {
    expect(await toolError(client, 'quotes.ai_price_suggestion', {})).toMatchObject({ error: 'validation_error' })
    const { lead } = await tool(client, 'leads.create', { name: 'Mine', phone: '0412 555 666', serviceType: 'Hot water' })
    expect(await toolError(empty, 'quotes.ai_price_suggestion', { lead_id: lead.id })).toMatchObject({ error: 'not_found' })
  })
})

describe('on the OpenAI-compatible adapter (a local chat-completions server)', () => {
  let chat: LocalChatServer
  let app: TestApp
  let client: Client
  let companyId: string
  const used = async () => {
    const [row] = await app.owner`select count from usage_counters where company_id = ${companyId} and period = ${usagePeriod(new Date()).key} and metric = 'llm_calls'`
    return row?.count ?? 0
  }
  const median = medianOf(SYSTEM_PRICES)
  const choice = (unitPrice: number, description = 'New 250L electric hot water system, supplied and installed') =>
    JSON.stringify({ lines: [{ candidate_id: 'c1', description, quantity: 1, unit_price: unitPrice }], summary: 'Priced from your past hot water jobs.' })
  beforeAll(async () => {
    chat = await startLocalChatServer()
    app = await startTestApp({ config: { LLM_BASE_URL: chat.url, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: 1000 } })
    const company = await onboard(app, PROFILE)
    companyId = company.company_id
    client = await connectHttp(app, company.api_key)
    await seedHistory(client)
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await app?.stop()
    await chat?.close()
  })

  it('the model chooses and words lines among the candidates; the figures and evidence stay computed', async () => {
    chat.replies = [{ content: choice(median) }]
    const s = await suggest(client, { job_description: JOB })
    expect(s).toMatchObject({ produced_by: 'model:test-model', provider_note: null, summary: 'Priced from your past hot water jobs.' })
    expect(s.lines).toHaveLength(1)
    expect(s.lines[0]).toMatchObject({ description: 'New 250L electric hot water system, supplied and installed', unit_price: median, evidence: { past_jobs: 10 } })
    expect(s.other_candidates.map((c: any) => c.description).sort()).toEqual(['Labour', 'Remove and dispose of old hot water unit'])
    const sent = JSON.parse(chat.requests.at(-1)!.body.messages[1].content)
    expect(sent.candidates.find((c: any) => c.candidate_id === 'c1')).toMatchObject({ description: SYSTEM_LINE, unit_price: median })
    expect(await used()).toBe(1)
  })

  it('a model that does not answer in time: the local default answers and the call is not counted', async () => {
    chat.replies = [{ delayMs: 1500, content: choice(median) }]
    chat.fallback = { status: 500, message: 'down' }
    const s = await suggest(client, { job_description: JOB })
    expect(s).toMatchObject({ produced_by: 'local-default', provider_note: expect.stringMatching(/no answer within 1000 ms/) })
    expect(s.lines).toHaveLength(3)
    expect(await used()).toBe(1)
  })

  it('an invented price is refused twice, and the local default answers, saying why', async () => {
    chat.replies = [{ content: choice(2499) }, { content: choice(median, 'Hot water system, usually $2,999 elsewhere') }]
    const s = await suggest(client, { job_description: JOB })
    expect(s.produced_by).toBe('local-default')
    expect(s.provider_note).toMatch(/unit price 2499 of c1 is not the candidate's.*"\$2,999" is not a figure it was given/s)
    expect(byDescription(s.lines, SYSTEM_LINE)).toMatchObject({ unit_price: median, evidence: { past_jobs: 10 } })
    expect(s.lines).toHaveLength(3)
  })

  it('with nothing to choose from the model is not asked; at the LLM limit the call is refused naming the limit', async () => {
    const asked = chat.requests.length
    const none = await suggest(client, { job_description: 'Repaint the weatherboard facade' })
    expect(none).toMatchObject({ produced_by: 'local-default', provider_note: expect.stringMatching(/model was not asked/), lines: [] })
    expect(chat.requests.length).toBe(asked)
    const [plan] = await app.owner`select llm_calls_per_month from plans where slug = 'business'`
    await app.owner`update usage_counters set count = ${plan!.llm_calls_per_month} where company_id = ${companyId} and period = ${usagePeriod(new Date()).key} and metric = 'llm_calls'`
    expect(await toolError(client, 'quotes.ai_price_suggestion', { job_description: JOB })).toMatchObject({ error: 'rate_limited', limit: { metric: 'llm_calls' } })
    expect(chat.requests.length).toBe(asked)
  })
})
