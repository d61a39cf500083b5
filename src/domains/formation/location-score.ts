// The location score's arithmetic, with no I/O: points per factor from the company's own figures by
// suburb. Each factor only rises with its input, so more won work in a suburb never lowers its score
// (test/formation-simulation.test.ts checks it with fast-check): demand and won value are measured
// against the company's best suburb, and win rate is won / leads.
import { formatCents } from '../../core/money.js'
import type { ScoreFactor } from '../../facts/schema.js'

export interface SuburbFigures { suburb: string; leads: number; won: number; wonValueCents: number; valuedWon: number }


/** Most points per factor (design weights, not facts: they sum to 100). */
export const WEIGHTS = { demand: 30, winRate: 25, wonValue: 25, travel: 20 } as const
/** A one-way trip this long or longer gets no travel points. */
export const TRAVEL_ZERO_MINUTES = 60

const round2 = (n: number) => Math.round(n * 100) / 100
const dollars = formatCents

/** Demand, win rate and won value of `target` against every suburb's figures (target included). */
export function ownDataFactors(target: SuburbFigures, all: SuburbFigures[]): ScoreFactor[] {
  const maxLeads = Math.max(target.leads, ...all.map((s) => s.leads))
  const maxValue = Math.max(target.wonValueCents, ...all.map((s) => s.wonValueCents))
  const best = all.find((s) => s.leads === maxLeads)?.suburb ?? target.suburb
  const winRate = target.leads > 0 ? target.won / target.leads : 0
  const average = target.valuedWon > 0 ? target.wonValueCents / target.valuedWon : null
  return [
    {
      factor: 'demand', weight: WEIGHTS.demand, input: `${target.leads} leads in 12 months (your busiest suburb: ${maxLeads})`, origin: 'company_data',
      score_points: Math.round(maxLeads > 0 ? WEIGHTS.demand * target.leads / maxLeads : 0),
      explanation: maxLeads > 0 ? `Leads from ${target.suburb} against your busiest suburb (${best}): ${target.leads} / ${maxLeads} of ${WEIGHTS.demand} points.` : 'No leads with a suburb: no demand points.',
    },
    {
      factor: 'win_rate', weight: WEIGHTS.winRate, input: target.leads > 0 ? `${target.won} won of ${target.leads} leads (${round2(winRate * 100)}%)` : 'no leads', origin: 'company_data',
      score_points: Math.round(WEIGHTS.winRate * winRate),
      explanation: target.leads > 0 ? `Win rate ${round2(winRate * 100)}% of ${WEIGHTS.winRate} points.` : 'No leads here, so no win rate.',
    },
    {
      factor: 'won_value', weight: WEIGHTS.wonValue,
      input: `${dollars(target.wonValueCents)} won incl. GST${average === null ? '' : `, average job ${dollars(Math.round(average))} over ${target.valuedWon}`}`, origin: 'company_data',
      score_points: Math.round(maxValue > 0 ? WEIGHTS.wonValue * target.wonValueCents / maxValue : 0),
      explanation: maxValue > 0
        ? `Value of won work against your highest-value suburb (${dollars(maxValue)}). The total is scored rather than the average, so one small extra job never counts against a suburb.`
        : 'No won work with a value recorded: no value points.',
    },
  ]
}

/** Travel points from the caller's one-way minutes; half points, marked assumed, when not given. */
export function travelFactor(minutes: number | undefined): ScoreFactor {
  if (minutes === undefined) {
    return { factor: 'travel', weight: WEIGHTS.travel, input: 'not given', origin: 'assumed', score_points: WEIGHTS.travel / 2, explanation: `No travel time given and none is recorded: half of ${WEIGHTS.travel} points assumed. Give travel_minutes (one way from your base).` }
  }
  const points = Math.round(WEIGHTS.travel * Math.max(0, 1 - minutes / TRAVEL_ZERO_MINUTES))
  return { factor: 'travel', weight: WEIGHTS.travel, input: `${minutes} minutes one way`, origin: 'supplied', score_points: points, explanation: `Full points at your door, none at ${TRAVEL_ZERO_MINUTES} minutes or more: ${points} of ${WEIGHTS.travel}.` }
}

/** The score out of 100: the factors' whole points summed, so the factors add up to it exactly. */
export const scoreOf = (factors: ScoreFactor[]) => Math.min(100, Math.max(0, factors.reduce((s, f) => s + f.score_points, 0)))

/** Own-data points scaled to 100, travel left out (the hotspots ranking). */
export function ownDataScore(factors: ScoreFactor[]): number {
  const weight = factors.reduce((s, f) => s + f.weight, 0)
  return weight > 0 ? Math.round(100 * factors.reduce((s, f) => s + f.score_points, 0) / weight) : 0
}
