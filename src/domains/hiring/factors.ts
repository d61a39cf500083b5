// Shared pieces of the hiring results: a factor's points, the rounding of money and scores, and the
// caveat every result ends with.
import type { Static } from 'typebox'
import { formatDollars } from '../../core/money.js'
import type { ScoreFactor } from '../../facts/schema.js'
import type { InputOrigin, InputUsed } from './schema.js'

export const round1 = (n: number) => Math.round(n * 10) / 10
export const round2 = (n: number) => Math.round(n * 100) / 100
export const clamp01 = (n: number) => Math.min(1, Math.max(0, n))
/** Dollars as every message spells them (core/money formatDollars), to the cent. */
export const dollars = (n: number) => formatDollars(round2(n))
export const percent = (fraction: number) => `${round1(fraction * 100)}%`

/** A factor scored as `share` (0..1) of its weight. */
export function factor(name: string, weight: number, share: number, input: string, origin: InputOrigin, explanation: string): ScoreFactor {
  return { factor: name, weight, input, origin, score_points: round1(weight * clamp01(share)), explanation }
}

/** The score: the factors' points added up and rounded (each step keeps order, so a better input never lowers it). */
export function total(factors: ScoreFactor[]): number {
  return Math.min(100, Math.max(0, Math.round(factors.reduce((s, f) => s + f.score_points, 0))))
}

export const used = (name: string, value: string | number, origin: InputOrigin): Static<typeof InputUsed> => ({ name, value: String(value), origin })
