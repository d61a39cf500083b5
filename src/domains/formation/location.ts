// formation.demand_hotspots and formation.location_score: where the company's own leads and won
// work come from, by suburb, over the last 12 months. The project holds no dated public figures by
// suburb (location.public_demand_by_suburb, unconfirmed), and every result says so rather than
// inventing demand, growth or competition.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { centsToDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { cite, GENERAL_INFORMATION } from '../../facts/facts.js'
import { ownDataFactors, ownDataScore, scoreOf, travelFactor, WEIGHTS, type SuburbFigures } from './location-score.js'
import { suburbStats } from './queries/location.js'
import type { HotspotsInput, HotspotsResponse, LocationInput, LocationResponse } from './simulation-schema.js'

const YEAR_MS = 365 * 86_400_000
const PUBLIC_FIGURES = 'location.public_demand_by_suburb'
const NO_PUBLIC = 'No dated public figures on demand, building activity, population growth or competition by suburb are held, so none are used: only your own leads and jobs.'
const NO_POSTCODE = 'Your leads record a suburb, not a postcode or state, so postcode and state filters cannot be applied to them.'

async function ownFigures(deps: Deps, principal: Principal) {
  const now = deps.clock.now()
  const window = { from: new Date(now.getTime() - YEAR_MS), to: now }
  const { rows, today } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    rows: await suburbStats(tx, window), today: await companyToday(tx, now),
  }))
  const suburbs: SuburbFigures[] = rows.map((r) => ({ suburb: r.suburb, leads: r.leads, won: r.won, wonValueCents: Number(r.won_value_cents), valuedWon: r.valued_won }))
  return { suburbs, today, window: { from: window.from.toISOString().slice(0, 10), to: window.to.toISOString().slice(0, 10) } }
}

function figuresOut(s: SuburbFigures) {
  return {
    suburb: s.suburb, leads: s.leads, won: s.won,
    win_rate_percent: s.leads > 0 ? Math.round(10_000 * s.won / s.leads) / 100 : null,
    won_value: centsToDollars(s.wonValueCents),
    average_job_value: s.valuedWon > 0 ? centsToDollars(Math.round(s.wonValueCents / s.valuedWon)) : null,
  }
}

export async function demandHotspots(deps: Deps, principal: Principal, input: Static<typeof HotspotsInput>): Promise<Static<typeof HotspotsResponse>> {
  const { suburbs, today, window } = await ownFigures(deps, principal)
  const ranked = suburbs
    .map((s) => ({ s, factors: ownDataFactors(s, suburbs) }))
    .map(({ s, factors }) => ({ s, factors, score: ownDataScore(factors) }))
    .sort((a, b) => b.score - a.score || b.s.leads - a.s.leads || a.s.suburb.localeCompare(b.s.suburb))
    .slice(0, input.limit ?? 10)
  const notShown = [NO_PUBLIC]
  if (input.state || input.near_postcode) notShown.push(NO_POSTCODE)
  const summary = ranked.length === 0
    ? ['No hotspots can be named: you have no leads with a suburb in the last 12 months, and the project holds no sourced public figures on demand by suburb.',
      'Record the suburb on each lead (leads.create suburb); once there are some, this ranks your suburbs by leads, win rate and won value.']
    : [`Your top ${ranked.length} suburb${ranked.length === 1 ? '' : 's'} by your own leads, win rate and won value from ${window.from} to ${window.to}: ${ranked.map((r) => `${r.s.suburb} (${r.score})`).join(', ')}.`,
      'These rank where your own work comes from; they say nothing about suburbs you have not worked in.']
  return {
    hotspots: ranked.map((r, i) => ({
      rank: i + 1, ...figuresOut(r.s), score: r.score,
      why: r.factors.map((f) => `${f.factor} ${f.score_points}/${f.weight} (${f.input})`).join('; '),
    })),
    summary, not_shown: notShown, window,
    facts: cite([PUBLIC_FIGURES], today),
    disclaimer: GENERAL_INFORMATION,
  }
}

export async function locationScore(deps: Deps, principal: Principal, input: Static<typeof LocationInput>): Promise<Static<typeof LocationResponse>> {
  const name = input.suburb?.trim()
  if (!name) {
    throw new AppError('validation_error', input.postcode
      ? 'Give suburb: your leads record suburbs, not postcodes, so a postcode alone cannot be scored.'
      : 'Give suburb (the suburb or town to score).')
  }
  const { suburbs, today } = await ownFigures(deps, principal)
  const key = name.toLowerCase()
  const target = suburbs.find((s) => s.suburb.trim().toLowerCase() === key) ?? { suburb: name, leads: 0, won: 0, wonValueCents: 0, valuedWon: 0 }
  const notShown = [NO_PUBLIC]
  if (input.postcode || input.state) notShown.push(NO_POSTCODE)
  if (suburbs.length === 0) {
    return {
      suburb: name, score: null, figures: null, not_shown: notShown, facts: cite([PUBLIC_FIGURES], today), disclaimer: GENERAL_INFORMATION,
      factors: [
        { factor: 'demand', weight: WEIGHTS.demand, input: 'no leads with a suburb', origin: 'no_data', score_points: 0, explanation: 'Nothing recorded to measure demand by.' },
        { factor: 'win_rate', weight: WEIGHTS.winRate, input: 'no leads with a suburb', origin: 'no_data', score_points: 0, explanation: 'Nothing recorded to measure a win rate by.' },
        { factor: 'won_value', weight: WEIGHTS.wonValue, input: 'no won work with a suburb', origin: 'no_data', score_points: 0, explanation: 'Nothing recorded to measure value by.' },
        travelFactor(input.travel_minutes),
      ],
      summary: [`${name} is not scored: you have no leads with a suburb in the last 12 months, and no sourced public figures by suburb are held.`, 'Record the suburb on each lead (leads.create suburb) and score it again once some are in.'],
    }
  }
  const factors = [...ownDataFactors(target, suburbs), travelFactor(input.travel_minutes)]
  const score = scoreOf(factors)
  const summary = [
    `${target.suburb} scores ${score} out of 100 from your own leads and jobs in the last 12 months: ${factors.map((f) => `${f.factor} ${f.score_points} of ${f.weight}`).join(', ')}.`,
    target.leads === 0 ? `You had no leads from ${target.suburb} in that time, so only travel counts.` : `${target.leads} leads, ${target.won} won.`,
  ]
  return { suburb: target.suburb, score, factors, figures: figuresOut(target), summary, not_shown: notShown, facts: cite([PUBLIC_FIGURES], today), disclaimer: GENERAL_INFORMATION }
}
