// marketing.strategy: reads the company's profile and 12 months of leads by source, asks the language
// model (or the local default) for channels, a 90-day plan and the reasoning, and adds the figures
// and the budget split computed from the company's data. Advice only: nothing is published or spent.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { formatCents } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { generateMetered } from '../billing/llm-calls.js'
import { numbersIn } from '../../providers/llm/figure-check.js'
import { findMarketingCompany, leadSourceStats } from './queries.js'
import { ACCC_NO_GATING, REVIEW_PLATFORMS, SPAM_ACT_CONSENT, SPAM_ACT_UNSUBSCRIBE } from './rules.js'
import { budgetSplit, inventedNumber, localAdvice, sourceRows, type SourceRow, type StrategyFacts } from './strategy-advice.js'
import { StrategyAdvice, type StrategyInput, type StrategyResponse } from './schema.js'

const YEAR_MS = 365 * 86_400_000
const day = (d: Date) => d.toISOString().slice(0, 10)

function figuresOf(sources: SourceRow[], window: { from: string; to: string }): Static<typeof StrategyResponse>['figures'] {
  const source = (r: SourceRow) => `your leads with source "${r.source}" created ${window.from} to ${window.to} (leads and accepted quotes)`
  return sources.flatMap((r) => [
    { name: `${r.source}: leads`, value: String(r.leads), source: source(r), as_of: window.to },
    { name: `${r.source}: won`, value: String(r.won), source: source(r), as_of: window.to },
    ...(r.win_rate_percent === null ? [] : [{ name: `${r.source}: win rate`, value: `${r.win_rate_percent}%`, source: `${source(r)}: won / leads`, as_of: window.to }]),
    { name: `${r.source}: won value`, value: formatCents(Math.round(r.won_value * 100)), source: `${source(r)}: accepted quote totals, incl. GST`, as_of: window.to },
  ])
}

function notShown(facts: StrategyFacts, sources: SourceRow[]): string[] {
  const out = [`Cost per lead, cost per click and typical conversion rates for ${facts.trade} in ${facts.area}: no dated public source is held, so none is shown. Your own figures by source replace them as leads are recorded.`]
  const leads = sources.reduce((s, r) => s + r.leads, 0)
  if (leads === 0) out.push('No leads in the last 12 months: no win rate is shown. Record each lead\'s source (leads.create source) so the next strategy can rank channels by your results.')
  const unknown = sources.find((r) => r.source === 'unknown')
  if (unknown) out.push(`${unknown.leads} of your leads have no source recorded and cannot be credited to a channel.`)
  return out
}

export async function marketingStrategy(deps: Deps, principal: Principal, input: Static<typeof StrategyInput>): Promise<Static<typeof StrategyResponse>> {
  const now = deps.clock.now()
  const window = { from: new Date(now.getTime() - YEAR_MS), to: now }
  const { company, stats } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    company: await findMarketingCompany(tx), stats: await leadSourceStats(tx, window),
  }))
  const sources = sourceRows(stats)
  const trade = input.trade?.trim() || company.trade_type
  const serviceArea = input.service_area?.trim() || null
  const area = serviceArea ?? input.state ?? company.state
  const goals = input.goals?.length ? input.goals : ['more_leads' as const]
  const facts: StrategyFacts = { trade: trade ?? 'your trade', area: area ?? 'your service area', goals, sources }
  const dates = { from: day(window.from), to: day(window.to) }
  const figures = figuresOf(sources, dates)
  const allowed = [
    ...sources.flatMap((r) => [r.leads, r.won, r.win_rate_percent ?? 0, r.won_value]),
    ...numbersIn(facts.trade, facts.area),
  ]

  const answer = await generateMetered(deps, principal.companyId, {
    purpose: 'marketing.strategy',
    system: 'You are a marketing adviser to an Australian trade business. Recommend channels, a 90-day plan in three 30-day phases and your reasoning. ' +
      'Use only the figures given; never state a cost, price, percentage or market statistic that is not among them. Advice only.',
    user: JSON.stringify({ business: company.business_name, trade: facts.trade, service_area: facts.area, goals, lead_sources_last_12_months: sources, monthly_budget: input.monthly_budget ?? null }),
    schema: StrategyAdvice,
    check: (advice) => inventedNumber(advice, allowed),
    localAnswer: () => localAdvice(facts),
  })
  const advice = answer.value
  const split = budgetSplit(advice.channels, sources, input.monthly_budget ?? null)
  for (const a of split.allocations) {
    if (a.monthly_amount && a.monthly_amount > 0) {
      figures.push({ name: `${a.channel}: monthly amount`, value: formatCents(Math.round(a.monthly_amount * 100)), source: `your monthly budget x the share (${split.basis})`, as_of: dates.to })
    }
  }
  return {
    business_name: company.business_name, trade, service_area: serviceArea, state: input.state ?? company.state, goals,
    lead_history: { from: dates.from, to: dates.to, leads: sources.reduce((s, r) => s + r.leads, 0), sources },
    channels: advice.channels, budget_split: split, plan_90_days: advice.plan_90_days, reasoning: advice.reasoning,
    figures, not_shown: notShown(facts, sources), rules: [SPAM_ACT_CONSENT, SPAM_ACT_UNSUBSCRIBE, ACCC_NO_GATING, REVIEW_PLATFORMS],
    produced_by: answer.producedBy, provider_note: answer.note,
  }
}
