// marketing.strategy's rules: the company's lead sources and win rates, the channels its goals and
// its own history point to, a budget split by a stated rule, and the 90-day plan from templates.
// These are the local default's answer; with a model configured, the model writes the channels,
// plan and reasoning instead, and the figures and the budget split stay computed here.
import type { Static } from 'typebox'
import { centsToDollars, formatCents } from '../../core/money.js'
import { CHANNEL_ACTIONS, CHANNEL_WHY, channelOfSource, GOAL_CHANNELS, PAID_CHANNELS, type Priority } from './channels.js'
import type { MarketingChannel, StrategyAdvice, StrategyResponse } from './schema.js'
import type { SourceStats } from './queries.js'
import { inventedFigure } from '../../providers/llm/figure-check.js'

type Advice = Static<typeof StrategyAdvice>
type Response = Static<typeof StrategyResponse>
export type SourceRow = Response['lead_history']['sources'][number]
type Allocation = Response['budget_split']['allocations'][number]

/** Fewer leads than this from a source are too few to compare its win rate with others'. */
export const MIN_LEADS_TO_COMPARE = 5

const round1 = (n: number) => Math.round(n * 10) / 10

export function sourceRows(stats: SourceStats[]): SourceRow[] {
  return stats.map((s) => ({
    source: s.source,
    channel: channelOfSource(s.source),
    leads: s.leads,
    won: s.won,
    win_rate_percent: s.leads > 0 ? round1((s.won / s.leads) * 100) : null,
    won_value: centsToDollars(Number(s.won_value_cents)),
  }))
}

const winLine = (r: SourceRow) => `${r.source}: ${r.won} of ${r.leads} leads won (${r.win_rate_percent}%), ${formatCents(Math.round(r.won_value * 100))} accepted`

export interface StrategyFacts {
  trade: string
  area: string
  goals: string[]
  sources: SourceRow[]
}

/** The channels for the goals, then moved by the company's own history where it has enough of it. */
function chooseChannels(facts: StrategyFacts): Advice['channels'] {
  const rank: Record<Priority, number> = { primary: 0, secondary: 1, test: 2 }
  const chosen = new Map<MarketingChannel, { priority: Priority; why: string }>()
  for (const goal of facts.goals) {
    for (const [channel, priority] of GOAL_CHANNELS[goal] ?? []) {
      const known = chosen.get(channel)
      if (!known || rank[priority] < rank[known.priority]) chosen.set(channel, { priority, why: CHANNEL_WHY[channel] })
    }
  }
  const compared = facts.sources.filter((r) => r.channel && r.leads >= MIN_LEADS_TO_COMPARE)
  const best = compared.filter((r) => r.won > 0).sort((a, b) => b.win_rate_percent! - a.win_rate_percent!)[0]
  for (const r of compared) {
    const channel = r.channel!
    if (r === best) chosen.set(channel, { priority: 'primary', why: `${CHANNEL_WHY[channel]} Your best-converting source: ${winLine(r)}.` })
    else if (r.won === 0) chosen.set(channel, { priority: 'test', why: `${CHANNEL_WHY[channel]} Your history: ${r.source} brought ${r.leads} leads and none won; fix or drop it.` })
    else if (!chosen.has(channel)) chosen.set(channel, { priority: 'secondary', why: `${CHANNEL_WHY[channel]} It already brings won work: ${winLine(r)}.` })
  }
  return [...chosen].map(([channel, c]) => ({ channel, ...c })).sort((a, b) => rank[a.priority] - rank[b.priority]).slice(0, 8)
}

const fill = (text: string, facts: StrategyFacts) => text.replaceAll('{trade}', facts.trade).replaceAll('{area}', facts.area)

export function localAdvice(facts: StrategyFacts): Advice {
  const channels = chooseChannels(facts)
  const phases = ['days_1_30', 'days_31_60', 'days_61_90'] as const
  const focus = ['Set up the channels and record every lead\'s source', 'Run them steadily and respond fast', 'Measure by source and move effort to what wins work']
  const plan = phases.map((phase, i) => ({
    phase, focus: focus[i]!, actions: channels.slice(0, 8).map((c) => fill(CHANNEL_ACTIONS[c.channel][i]!, facts)),
  }))
  const withLeads = facts.sources.filter((r) => r.leads > 0)
  const reasoning = [
    `Goals: ${facts.goals.join(', ')}; trade ${facts.trade}; area ${facts.area}. The channels follow from the goals, then from your own lead history.`,
    withLeads.length
      ? `Your lead history by source: ${withLeads.slice(0, 6).map(winLine).join('; ')}. Sources with at least ${MIN_LEADS_TO_COMPARE} leads are compared; fewer are too few to judge.`
      : 'You have no leads recorded in the last 12 months, so no channel is ranked by your own results yet.',
    'No market figure (cost per lead, conversion rate, ad prices) is used: none with a dated source is held. Recording every lead\'s source lets the next strategy rank channels by your own results.',
  ]
  return { channels, plan_90_days: plan, reasoning }
}

/**
 * The split: paid channels share the budget (free ones cost time); channels with won work share by
 * won value, each channel without history gets an equal test share (1/n of the budget), and with no
 * history at all the split is equal. Amounts are in cents by largest remainder so they add up.
 */
export function budgetSplit(channels: Advice['channels'], sources: SourceRow[], monthlyBudget: number | null): Response['budget_split'] {
  const paid = channels.map((c) => c.channel).filter((c) => PAID_CHANNELS.has(c))
  const wonValue = (channel: MarketingChannel) => sources.filter((r) => r.channel === channel).reduce((sum, r) => sum + r.won_value, 0)
  const free: Allocation[] = channels.filter((c) => !PAID_CHANNELS.has(c.channel))
    .map((c) => ({ channel: c.channel, share_percent: 0, monthly_amount: monthlyBudget === null ? null : 0, basis: 'Costs time, not money.' }))
  if (paid.length === 0) {
    return { monthly_budget: monthlyBudget, basis: 'None of the recommended channels needs paid spend: they cost time. Keep the budget until a paid channel is worth testing.', allocations: free }
  }
  const withHistory = paid.filter((c) => wonValue(c) > 0)
  const totalWon = withHistory.reduce((s, c) => s + wonValue(c), 0)
  const weight = (c: MarketingChannel) => withHistory.length === 0 ? 1 / paid.length
    : wonValue(c) > 0 ? (withHistory.length / paid.length) * (wonValue(c) / totalWon) : 1 / paid.length
  const basis = withHistory.length === 0
    ? `Split equally across the ${paid.length} paid channel(s): none has won work recorded yet, so none is favoured.`
    : `Paid channels with won work share ${withHistory.length} of ${paid.length} equal parts by their won value (12 months); the others get one equal part each to test.`
  const cents = monthlyBudget === null ? null : largestRemainder(Math.round(monthlyBudget * 100), paid.map(weight))
  const allocations = paid.map((channel, i): Allocation => ({
    channel,
    share_percent: round1(weight(channel) * 100),
    monthly_amount: cents ? centsToDollars(cents[i]!) : null,
    basis: wonValue(channel) > 0 ? `Won value from this channel: ${formatCents(Math.round(wonValue(channel) * 100))}.` : 'No won work recorded from it: a test share.',
  }))
  return { monthly_budget: monthlyBudget, basis: monthlyBudget === null ? `${basis} No monthly budget was given: shares only.` : basis, allocations: [...allocations, ...free] }
}

function largestRemainder(totalCents: number, weights: number[]): number[] {
  const exact = weights.map((w) => w * totalCents)
  const floors = exact.map(Math.floor)
  let left = totalCents - floors.reduce((a, b) => a + b, 0)
  const order = exact.map((e, i) => [e - floors[i]!, i] as const).sort((a, b) => b[0] - a[0])
  for (const [, i] of order) {
    if (left <= 0) break
    floors[i]!++
    left--
  }
  return floors
}

/** A figure in the advice's prose that is not one of the company's (providers/llm/figure-check.ts), or null. */
export function inventedNumber(advice: Advice, allowed: number[]): string | null {
  return inventedFigure([...advice.channels.map((c) => c.why), ...advice.plan_90_days.flatMap((p) => [p.focus, ...p.actions]), ...advice.reasoning], allowed)
}
