// Urgency, complexity and location for a price suggestion. Each applies only what the company's own
// data holds (its after-hours or travel charge, the spread of its own past prices); with nothing to
// apply, the adjustment says so and what would let it apply. No multiplier is ever assumed.
import { applyComplexity, chargeCandidate, type Candidate } from './price-candidates.js'
import type { MatchedQuote } from './queries/price-history.js'

export const URGENT_CHARGE = 'after.?hours|emergency|urgent|out of hours|weekend|public holiday'
export const TRAVEL_CHARGE = 'travel|distance|per km|kilomet|remote|regional'

type Charge = Parameters<typeof chargeCandidate>[0]
type Adjustment = { kind: 'urgency' | 'complexity' | 'location'; requested: string | null; applied: boolean; effect: string; reason: string }

/** Urgent or emergency work adds the company's own after-hours charge: from its past quotes, else its services or price book. */
export function urgency(requested: string, pastCharges: Candidate[], ownCharges: Charge[]): { adjustment: Adjustment; added: Candidate | null } {
  if (requested === 'standard') {
    return { adjustment: { kind: 'urgency', requested, applied: false, effect: 'none', reason: 'Standard urgency: no after-hours or emergency charge is added.' }, added: null }
  }
  const past = pastCharges.sort((a, b) => b.quotes.length - a.quotes.length)[0]
  const added = past ? { ...past, purpose: 'urgency' as const } : ownCharges[0] ? chargeCandidate(ownCharges[0], 'urgency') : null
  if (!added) {
    return {
      adjustment: {
        kind: 'urgency', requested, applied: false, effect: 'none',
        reason: `Not applied: you have no after-hours, emergency or urgent charge in your services, price book or past accepted quotes for this kind of job, and no rate is assumed. Add one (services.create, e.g. "After-hours call-out") and the next suggestion adds it.`,
      },
      added: null,
    }
  }
  return {
    adjustment: {
      kind: 'urgency', requested, applied: true, effect: `Adds the line "${added.description}"`,
      reason: past ? `Your past accepted quotes for this kind of job charged it (${past.quotes.length} of them).` : `Your own ${added.source === 'service' ? 'service' : 'price-book item'} "${added.description}" is your charge for ${requested} work.`,
    },
    added,
  }
}

export function complexity(requested: 'simple' | 'standard' | 'complex', lines: Candidate[]): Adjustment {
  if (requested === 'standard') return { kind: 'complexity', requested, applied: false, effect: 'none', reason: 'Standard complexity: the median of your past prices is used.' }
  const changed = lines.map((c) => applyComplexity(c, requested)).filter((x): x is string => x !== null)
  if (!changed.length) {
    return {
      kind: 'complexity', requested, applied: false, effect: 'none',
      reason: `Not applied: a ${requested} job is priced from the spread of your own past prices for the line, which needs at least 4 past accepted quotes with it; no line has that many, and no multiplier is assumed.`,
    }
  }
  return {
    kind: 'complexity', requested, applied: true, effect: changed.join('; '),
    reason: `A ${requested} job is priced at the ${requested === 'complex' ? '75th' : '25th'} percentile of the unit prices you charged on past accepted quotes with the line (a price you actually charged), not the median; lines with fewer than 4 past prices keep theirs.`,
  }
}

/** Location: the company's travel charge is offered, never added (no distance is computed); past jobs in the suburb are counted. */
export function location(where: string | null, suburb: string | null, matched: MatchedQuote[], travel: Charge[]): { adjustment: Adjustment; offered: Candidate | null } {
  if (!where) {
    return { adjustment: { kind: 'location', requested: null, applied: false, effect: 'none', reason: 'No suburb or state given (nor on the lead): no location adjustment.' }, offered: null }
  }
  const here = suburb ? matched.filter((q) => q.suburb?.trim().toLowerCase() === suburb.trim().toLowerCase()).length : 0
  const history = suburb && matched.length ? `${here} of your ${matched.length} matched past jobs were in ${suburb}; their prices are in the lines above with the rest. ` : ''
  const offered = travel[0] ? chargeCandidate(travel[0], 'location') : null
  return {
    adjustment: {
      kind: 'location', requested: where, applied: false, effect: offered ? `"${offered.description}" is listed in other_candidates` : 'none',
      reason: history + (offered
        ? `Your travel charge "${offered.description}" is offered in other_candidates to add if the site is outside your usual area; no distance is computed, so it is not added for you.`
        : 'Not applied: you have no travel or distance charge in your services or price book, and no location loading is assumed.'),
    },
    offered,
  }
}
