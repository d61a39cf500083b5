// formation.recommend_trade: scores each trade whose licensing is held here (0 to 100) from the
// person's skills, qualifications and licences held, and stated preferences, factor by factor, and
// gives the licensing path in their state from the cited facts. Startup cost and local demand are
// not scored: no dated public figures for them are held (said so in not_scored).
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { dollarsToCents, formatCents } from '../../core/money.js'
import { cite, GENERAL_INFORMATION } from '../../facts/facts.js'
import { rulesFor, type AuStateCode } from './licensing.js'
import { readCompanySetupData, tradeAndState, type InputUsed } from './setup-context.js'
import type { ScoreFactor } from '../../facts/schema.js'
import type { InputOrigin, RecommendTradeInput, RecommendTradeResponse, TradeRecommendationSchema } from './setup-schema.js'
import { kindsOf, qualifiesFor, TRADE_KINDS, TRADE_LABEL, TRADE_WORDS, type TradeKind } from './trades.js'

type Input = Static<typeof RecommendTradeInput>
type Recommendation = Static<typeof TradeRecommendationSchema>

export const WEIGHTS = { skills: 40, qualifications: 40, preferences: 20 } as const
/** Skills matching a trade that earn the full skills weight. */
const FULL_SKILL_MATCHES = 2
const NEGATION = /(^|[^a-z])(no|not|avoid|without|never|don'?t|dont|hate)([^a-z]|$)[^.,;]{0,20}$/

export interface TradeFitInput {
  skills: { list: string[]; origin: InputOrigin }
  qualifications: string[]
  preferences: string | null
}

/** How the preferences text leans on a trade: +1 wanted, -1 not wanted, 0 not mentioned. */
export function preferenceLean(kind: TradeKind, preferences: string | null): -1 | 0 | 1 {
  if (!preferences) return 0
  const text = preferences.toLowerCase()
  let lean: -1 | 0 | 1 = 0
  for (const word of TRADE_WORDS[kind]) {
    let at = text.indexOf(word)
    while (at >= 0) {
      if (NEGATION.test(text.slice(Math.max(0, at - 30), at))) return -1
      lean = 1
      at = text.indexOf(word, at + word.length)
    }
  }
  return lean
}

/** The factors for one trade; the score is their sum. */
export function tradeFactors(kind: TradeKind, fit: TradeFitInput): ScoreFactor[] {
  const skills = fit.skills.list.filter((s) => kindsOf(s).includes(kind))
  const quals = fit.qualifications.filter((q) => qualifiesFor(kind, q))
  const lean = preferenceLean(kind, fit.preferences)
  return [
    {
      factor: 'skills', weight: WEIGHTS.skills, origin: fit.skills.origin === 'company' ? 'company_data' : fit.skills.origin,
      input: fit.skills.list.length ? fit.skills.list.join('; ') : 'none given',
      score_points: Math.round((WEIGHTS.skills * Math.min(skills.length, FULL_SKILL_MATCHES)) / FULL_SKILL_MATCHES),
      explanation: skills.length ? `${skills.length} skill(s) point to ${TRADE_LABEL[kind].toLowerCase()}: ${skills.join('; ')} (${FULL_SKILL_MATCHES} or more earn the full ${WEIGHTS.skills}).` : `No skill given points to ${TRADE_LABEL[kind].toLowerCase()}.`,
    },
    {
      factor: 'qualifications and licences held', weight: WEIGHTS.qualifications, origin: fit.qualifications.length ? 'supplied' : 'assumed',
      input: fit.qualifications.length ? fit.qualifications.join('; ') : 'none given',
      score_points: quals.length ? WEIGHTS.qualifications : 0,
      explanation: quals.length ? `You hold ${quals.join('; ')}, a qualification or licence for this trade.` : 'No qualification or licence given is for this trade: the licensing path below starts from training.',
    },
    {
      factor: 'preferences', weight: WEIGHTS.preferences, origin: fit.preferences ? 'supplied' : 'assumed',
      input: fit.preferences ?? 'none given (neutral)',
      score_points: lean === 1 ? WEIGHTS.preferences : lean === 0 ? WEIGHTS.preferences / 2 : 0,
      explanation: lean === 1 ? 'Your preferences name this kind of work.' : lean === -1 ? 'Your preferences rule this kind of work out.' : 'Your preferences do not mention it: half the weight, neutral.',
    },
  ]
}

function recommendation(kind: TradeKind, fit: TradeFitInput, state: AuStateCode | null): Recommendation {
  const factors = tradeFactors(kind, fit)
  const rules = rulesFor([kind], state, true).filter((r) => r.group === 'licensing' && r.kinds !== 'all')
  const reasons = factors.filter((f) => f.score_points > 0).map((f) => f.explanation)
  return {
    kind, trade: TRADE_LABEL[kind], score: factors.reduce((s, f) => s + f.score_points, 0), factors,
    reasons: reasons.length ? reasons : ['Nothing given points to this trade yet.'],
    licensing: rules.length ? rules.map((r) => r.title) : [state ? `No ${state} licence for this trade is held here: check with the regulator.` : 'No state given: the state licence is not listed.'],
    fact_ids: [...rules.flatMap((r) => r.facts), 'licence.national.white_card'],
  }
}

export async function recommendTrade(deps: Deps, principal: Principal, input: Input): Promise<Static<typeof RecommendTradeResponse>> {
  const company = await readCompanySetupData(deps, principal)
  const { state, inputs: stateInputs } = tradeAndState({ state: input.state }, { ...company.profile, trade_type: null })
  const companyTrade = company.profile.trade_type?.trim() || null
  const skills: TradeFitInput['skills'] = input.skills?.length ? { list: input.skills, origin: 'supplied' }
    : companyTrade ? { list: [companyTrade], origin: 'company' } : { list: [], origin: 'assumed' }
  const fit: TradeFitInput = { skills, qualifications: input.qualifications ?? [], preferences: input.preferences?.trim() || null }
  const inputs: InputUsed[] = [
    { name: 'skills', value: skills.list.length ? skills.list.join('; ') : 'none given', origin: skills.origin },
    { name: 'qualifications', value: fit.qualifications.join('; ') || 'none given', origin: fit.qualifications.length ? 'supplied' : 'assumed' },
    { name: 'preferences', value: fit.preferences ?? 'none given', origin: fit.preferences ? 'supplied' : 'assumed' },
    ...stateInputs.filter((i) => i.name === 'state'),
  ]
  const recommendations = TRADE_KINDS.map((k) => recommendation(k, fit, state)).sort((a, b) => b.score - a.score)
  const best = recommendations[0]!
  const notScored = [
    'Local demand: no dated public demand figures by trade are held, so demand is not scored.',
    input.startup_budget === undefined
      ? 'Startup cost: no dated public figures for each trade\'s startup cost are held, so it is not scored.'
      : `Startup cost: your budget of ${formatCents(dollarsToCents(input.startup_budget))} was not scored: no dated public figures for each trade's startup cost are held.`,
  ]
  if (input.startup_budget !== undefined) inputs.push({ name: 'startup_budget', value: formatCents(dollarsToCents(input.startup_budget)), origin: 'supplied' })
  const summary = [
    `Best fit: ${best.trade} at ${best.score} out of 100 (skills ${WEIGHTS.skills}, qualifications ${WEIGHTS.qualifications}, preferences ${WEIGHTS.preferences} points at most).`,
    ...recommendations.slice(1).map((r) => `${r.trade}: ${r.score} out of 100.`),
    ...(skills.origin === 'company' ? [`No skills were given, so your profile's trade "${companyTrade}" was read as your skill.`] : []),
    ...(state ? [] : ['No state was given or recorded in your profile: the licensing path is not listed. Call again with state.']),
  ]
  return {
    state, recommendations, not_scored: notScored, summary, inputs,
    facts: cite(recommendations.flatMap((r) => r.fact_ids), company.today), disclaimer: GENERAL_INFORMATION,
  }
}
