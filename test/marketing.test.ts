// marketing.strategy and marketing.generate_content through the MCP SDK client, every result checked
// against the tool's output schema (helpers/tools.ts): on the local default (no model configured)
// and on the OpenAI-compatible adapter pointed at a local chat-completions server. Every figure must
// come from the company's data; SMS and email drafts carry the sender and an opt-out (Spam Act);
// review content never gates and discloses incentives (ACCC); nothing is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { startLocalChatServer, type LocalChatServer } from './helpers/chat-completions-server.js'
import { reviewGating } from '../src/domains/marketing/rules.js'

const PROFILE = { plan: 'business', stripe_payment_method_id: 'pm_card_visa', trade_type: 'plumber', abn: '51 824 753 556', phone: '0412 345 678', business_name: 'Pipe Dream Plumbing' }

/** Leads by source, `won` of them won; one won google lead has an accepted quote of $1,320.00. */
async function seedLeads(app: TestApp, companyId: string) {
  const rows: { source: string | null; status: string }[] = [
    ...Array.from({ length: 6 }, (_, i) => ({ source: 'Google', status: i < 3 ? 'Won' : 'Lost' })),
    ...Array.from({ length: 5 }, () => ({ source: 'hipages', status: 'Lost' })),
    { source: 'referral:ABC123', status: 'Won' }, { source: 'referral:XYZ789', status: 'New' },
    { source: null, status: 'New' },
    // Contacts pulled in from Xero by the accounting sync: existing clients, left out of the lead history.
    { source: 'xero', status: 'New' }, { source: 'xero', status: 'New' },
  ]
  const ids: string[] = []
  for (const r of rows) {
    const [lead] = await app.owner`insert into leads (company_id, name, source, status) values (${companyId}, 'Seeded', ${r.source}, ${r.status}) returning id`
    ids.push(lead!.id)
  }
  await app.owner`
    insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until, public_token)
    values (${companyId}, ${ids[0]!}, 'Q-SEED-1', 'Accepted', 120000, 12000, 132000, current_date + 30, ${`seed-${companyId}`})`
}

/** Every dollar amount and percentage in the advice's prose is one of the listed figures. */
function unlistedFigures(result: any): string[] {
  const prose = [...result.channels.map((c: any) => c.why), ...result.plan_90_days.flatMap((p: any) => [p.focus, ...p.actions]), ...result.reasoning].join('\n')
  const listed = new Set(result.figures.map((f: any) => f.value))
  return [...prose.matchAll(/\$[\d,]+\.\d\d|\d+(\.\d)?%/g)].map((m) => m[0]).filter((v) => !listed.has(v))
}

function expectSpamActSms(draft: any) {
  expect(draft.body).toContain('Pipe Dream Plumbing (ABN 51 824 753 556)')
  expect(draft.body).toMatch(/Reply STOP to opt out$/)
  expect(draft.body.match(/Reply STOP/g)).toHaveLength(1)
  expect(draft.copy).not.toMatch(/Reply STOP/)
  expect(draft.sms_segments).toBeGreaterThanOrEqual(1)
  expect(draft.checks.join(' ')).toMatch(/s 17.*s 18/s)
}

describe('on the local default (no model configured)', () => {
  let app: TestApp
  let client: Client
  let company: Awaited<ReturnType<typeof onboard>>
  beforeAll(async () => {
    app = await startTestApp()
    company = await onboard(app, PROFILE)
    client = await connectHttp(app, company.api_key)
    await seedLeads(app, company.company_id)
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
  })

  it('strategy: channels, budget split and a 90-day plan from the company\'s own lead sources and win rates, every figure sourced', async () => {
    const s = await tool(client, 'marketing.strategy', { service_area: 'Inner West Sydney', monthly_budget: 1000, goals: ['more_leads', 'more_reviews'] })
    expect(s).toMatchObject({ produced_by: 'local-default', provider_note: null, trade: 'plumber', business_name: 'Pipe Dream Plumbing' })
    const by = Object.fromEntries(s.lead_history.sources.map((r: any) => [r.source, r]))
    expect(by.google).toMatchObject({ channel: 'google_business_profile', leads: 6, won: 3, win_rate_percent: 50, won_value: 1320 })
    expect(by.hipages).toMatchObject({ channel: 'marketplaces', leads: 5, won: 0, win_rate_percent: 0 })
    expect(by.referral).toMatchObject({ channel: 'referrals', leads: 2, won: 1 })
    expect(by.unknown).toMatchObject({ channel: null, leads: 1 })
    expect(by.xero).toBeUndefined()
    expect(s.lead_history.leads).toBe(14)

    const channel = Object.fromEntries(s.channels.map((c: any) => [c.channel, c]))
    expect(channel.google_business_profile.priority).toBe('primary')
    expect(channel.google_business_profile.why).toMatch(/best-converting source: google: 3 of 6 leads won \(50%\), \$1,320\.00 accepted/)
    expect(channel.marketplaces).toMatchObject({ priority: 'test' })
    expect(channel.marketplaces.why).toMatch(/hipages brought 5 leads and none won/)
    expect(channel.reviews.priority).toBe('primary')

    const paid = s.budget_split.allocations.filter((a: any) => a.monthly_amount > 0)
    expect(paid.map((a: any) => a.channel).sort()).toEqual(['local_search_ads', 'marketplaces'])
    expect(paid.reduce((sum: number, a: any) => sum + a.monthly_amount, 0)).toBeCloseTo(1000, 2)
    expect(s.budget_split.basis).toMatch(/equally.*none has won work/)
    expect(s.budget_split.allocations.find((a: any) => a.channel === 'reviews')).toMatchObject({ monthly_amount: 0, basis: 'Costs time, not money.' })

    expect(s.plan_90_days.map((p: any) => p.phase)).toEqual(['days_1_30', 'days_31_60', 'days_61_90'])
    expect(s.plan_90_days[0].actions.join(' ')).toMatch(/Inner West Sydney/)
    expect(s.reasoning.join(' ')).toMatch(/google: 3 of 6 leads won/)
    expect(unlistedFigures(s)).toEqual([])
    for (const f of s.figures) expect(f.source.length > 0 && f.as_of.length > 0).toBe(true)
    expect(s.figures).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'google: win rate', value: '50%' })]))
    expect(s.not_shown.join(' ')).toMatch(/Cost per lead.*no dated public source is held, so none is shown/)
    expect(s.not_shown.join(' ')).toMatch(/1 of your leads have no source recorded/)
    for (const rule of s.rules) expect(rule.source && rule.as_of).toBeTruthy()
  })

  it('strategy for a company with no leads says so instead of showing rates, and splits shares without a budget', async () => {
    const other = await onboard(app, { ...PROFILE, abn: undefined, business_name: 'New Sparks' })
    const c = await connectHttp(app, other.api_key)
    try {
      const s = await tool(c, 'marketing.strategy', { trade: 'electrician', state: 'VIC' })
      expect(s.lead_history).toMatchObject({ leads: 0, sources: [] })
      expect(s.figures).toEqual([])
      expect(s.not_shown.join(' ')).toMatch(/No leads in the last 12 months: no win rate is shown/)
      expect(s.budget_split.monthly_budget).toBeNull()
      expect(s.budget_split.basis).toMatch(/No monthly budget was given: shares only/)
      expect(s.budget_split.allocations.every((a: any) => a.monthly_amount === null)).toBe(true)
    } finally {
      await c.close()
    }
  })

  it('strategy with the longest trade and service area the input allows still answers within its own schema', async () => {
    // The plan's actions carry both (a 400-character bound on an action once made this an internal_error; the fuzz found it).
    const trade = 'air conditioning and refrigeration '.repeat(3).slice(0, 100)
    const area = 'Inner West, Eastern Suburbs and Lower North Shore of Sydney; '.repeat(4).slice(0, 200)
    const s = await tool(client, 'marketing.strategy', { trade, service_area: area, goals: ['more_leads', 'commercial_work'] })
    expect(s).toMatchObject({ trade, service_area: area })
    expect(s.plan_90_days.flatMap((p: any) => p.actions).some((a: string) => a.includes(trade) && a.includes(area))).toBe(true)
    const tooLong = await toolError(client, 'marketing.strategy', { trade: 'x'.repeat(101) })
    expect(tooLong).toMatchObject({ error: 'validation_error' })
  })

  it('an SMS promo carries the sender and STOP; an email the sender and an unsubscribe line; the offer is quoted as typed', async () => {
    const sms = await tool(client, 'marketing.generate_content', { content_type: 'sms_promo', topic: 'hot water system checks', suburb: 'Marrickville', offer: '10% off before 30 June', variants: 2 })
    expect(sms.produced_by).toBe('local-default')
    expect(sms.drafts).toHaveLength(2)
    for (const d of sms.drafts) {
      expectSpamActSms(d)
      expect(d.copy).toContain('10% off before 30 June')
      expect(d.copy).toContain('Call 0412 345 678')
    }
    const email = await tool(client, 'marketing.generate_content', { content_type: 'email_newsletter', topic: 'winter plumbing checks', tone: 'professional' })
    const [e] = email.drafts
    expect(e.subject).toMatch(/Winter plumbing checks - Pipe Dream Plumbing/)
    expect(e.body).toMatch(/This message is from Pipe Dream Plumbing \(ABN 51 824 753 556\)\.\nDon't want these emails\? Unsubscribe: \{unsubscribe_link\}$/)
    expect(email.rules.map((r: any) => r.source)).toEqual(expect.arrayContaining(['Spam Act 2003 (Cth) s 17', 'Spam Act 2003 (Cth) s 18']))
    expect(email.not_sent).toMatch(/nothing was published or sent/)
  })

  it('a review request asks every client and discloses the incentive; a reply to a bad review asks nothing to be removed', async () => {
    const req = await tool(client, 'marketing.generate_content', { content_type: 'review_request', incentive: 'a $20 hardware voucher', variants: 2 })
    for (const d of req.drafts) {
      expect(reviewGating(d.body)).toBeNull()
      expect(d.body).toMatch(/everyone who leaves a review gets a \$20 hardware voucher, whatever the review says/)
      expect(d.checks.join(' ')).toMatch(/incentive for a review is disclosed/)
      expectSpamActSms(d)
    }
    expect(req.rules.map((r: any) => r.rule).join(' ')).toMatch(/no review gating/)
    const reply = await tool(client, 'marketing.generate_content', { content_type: 'review_reply', review_rating: 2, reviewer_name: 'Dana', review_text: 'Turned up late and left a mess.' })
    const [r] = reply.drafts
    expect(r.body).toMatch(/^Hi Dana, thank you .* sorry/)
    expect(r.body).not.toMatch(/remove|delete|change your review/i)
    expect(r.sms_segments).toBeNull()
  })

  it('an incentive or offer worded to gate reviews is refused with the field named, nothing written', async () => {
    const err = await toolError(client, 'marketing.generate_content', { content_type: 'review_request', incentive: 'a $20 voucher if you were happy with the job' })
    expect(err).toMatchObject({ error: 'validation_error', messages: [expect.stringMatching(/^incentive: .*review gating/)] })
  })

  it('drafts are never sent, and the local default counts no LLM call', async () => {
    for (const content_type of ['social_post', 'google_business_post', 'website_copy', 'ad_copy']) {
      const out = await tool(client, 'marketing.generate_content', { content_type, service: 'blocked drains', suburb: 'Newtown' })
      expect(out.drafts[0].body).toMatch(/blocked drains/)
    }
    expect(await app.owner`select id from communications where company_id = ${company.company_id}`).toHaveLength(0)
    expect(await app.owner`select count from usage_counters where company_id = ${company.company_id} and metric = 'llm_calls'`).toEqual([])
  })
})

describe('on the OpenAI-compatible adapter (a local chat-completions server)', () => {
  let chat: LocalChatServer
  let app: TestApp
  let client: Client
  const advice = (why: string) => JSON.stringify({
    channels: [{ channel: 'referrals', priority: 'primary', why }, { channel: 'local_search_ads', priority: 'secondary', why: 'Reach people searching now.' }],
    plan_90_days: ['days_1_30', 'days_31_60', 'days_61_90'].map((phase) => ({ phase, focus: 'Referrals first', actions: ['Ask 5 past clients for referrals each week.'] })),
    reasoning: ['Referrals convert best for you.'],
  })
  beforeAll(async () => {
    chat = await startLocalChatServer()
    app = await startTestApp({ config: { LLM_BASE_URL: chat.url, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: 2000 } })
    const company = await onboard(app, PROFILE)
    client = await connectHttp(app, company.api_key)
    await seedLeads(app, company.company_id)
  })
  afterAll(async () => {
    await client?.close()
    await app?.stop()
    await chat?.close()
  })

  it('strategy: the model writes channels, plan and reasoning; the figures and the budget split stay computed from the data', async () => {
    chat.replies = [{ content: advice('1 of 2 referral leads won (50%), your best rate.') }]
    const s = await tool(client, 'marketing.strategy', { monthly_budget: 500 })
    expect(s).toMatchObject({ produced_by: 'model:test-model', provider_note: null })
    expect(s.channels[0]).toMatchObject({ channel: 'referrals', priority: 'primary' })
    expect(s.budget_split.allocations.find((a: any) => a.channel === 'local_search_ads')).toMatchObject({ share_percent: 100, monthly_amount: 500 })
    expect(s.lead_history.leads).toBe(14)
    const sent = JSON.parse(chat.requests.at(-1)!.body.messages[1].content)
    expect(sent.lead_sources_last_12_months.find((r: any) => r.source === 'google')).toMatchObject({ leads: 6, won: 3 })
  })

  it('strategy: a model answer with an invented figure is refused twice, and the local default answers, saying why', async () => {
    chat.replies = [{ content: advice('Google ads cost about $45 per lead in Sydney.') }, { content: advice('Expect a 30% lift.') }]
    const s = await tool(client, 'marketing.strategy', {})
    expect(s.produced_by).toBe('local-default')
    expect(s.provider_note).toMatch(/"\$45" is not a figure it was given; asked again: .*"30%" is not a figure it was given/)
    expect(unlistedFigures(s)).toEqual([])
  })

  it('content: the sender and STOP are added to a model\'s SMS once, whether or not it wrote them', async () => {
    chat.replies = [{ content: JSON.stringify({ drafts: [{ subject: null, body: 'Pipe Dream Plumbing: hot water checks this winter. Call 0412 345 678.' }, { subject: null, body: 'Hot water checks this winter! Reply STOP to opt out' }] }) }]
    const out = await tool(client, 'marketing.generate_content', { content_type: 'sms_promo', topic: 'hot water checks', variants: 2 })
    expect(out.produced_by).toBe('model:test-model')
    out.drafts.forEach(expectSpamActSms)
  })

  it('content: a model\'s review request that gates reviews is refused; the local default\'s draft asks everyone', async () => {
    const gated = JSON.stringify({ drafts: [{ subject: null, body: 'If you were happy with our work, please leave us 5 stars: {review_link}' }] })
    chat.replies = [{ content: gated }, { content: gated }]
    const out = await tool(client, 'marketing.generate_content', { content_type: 'review_request' })
    expect(out.produced_by).toBe('local-default')
    expect(out.provider_note).toMatch(/review gating/)
    expect(reviewGating(out.drafts[0].body)).toBeNull()
    expect(out.drafts[0].body).toMatch(/whatever your experience/)
  })

  it('content: a model\'s reply asking for a review to be removed, or a review request with an incentive nobody gave, is refused', async () => {
    chat.replies = [{ content: JSON.stringify({ drafts: [{ subject: null, body: 'Sorry Dana. Call us and we will fix it if you remove your review.' }] }) },
      { content: JSON.stringify({ drafts: [{ subject: null, body: 'Sorry Dana, please call us so we can put it right.' }] }) }]
    const reply = await tool(client, 'marketing.generate_content', { content_type: 'review_reply', review_rating: 1, reviewer_name: 'Dana' })
    expect(reply.produced_by).toBe('model:test-model')
    expect(reply.drafts[0].body).toBe('Sorry Dana, please call us so we can put it right.')
    const bribe = JSON.stringify({ drafts: [{ subject: null, body: 'Leave an honest review and go in the draw for a gift card: {review_link}' }] })
    chat.replies = [{ content: bribe }, { content: bribe }]
    const req = await tool(client, 'marketing.generate_content', { content_type: 'review_request' })
    expect(req.produced_by).toBe('local-default')
    expect(req.provider_note).toMatch(/incentive that was not given/)
  })
})
