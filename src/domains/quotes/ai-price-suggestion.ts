// quotes.ai_price_suggestion: suggested line items for a job from the company's own data (past
// accepted quotes for the same kind of job, its price book, its labour rate), adjustments for
// urgency, complexity and location, sourced market ranges, and a confidence per line with its
// evidence. A configured model may only choose and word lines among the computed candidates (its
// answer is refused if any figure is not theirs); the local default is the deterministic ranking.
// Suggestions only: nothing is written; quote_input is ready for quotes.create.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { notFound, validationError } from '../../core/errors.js'
import { centsToDollars, formatCents } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { generateMetered } from '../billing/llm-calls.js'
import { findLead } from '../leads/queries.js'
import { inventedFigure, numbersIn } from '../../providers/llm/figure-check.js'
import { TRADES } from '../pricebook/catalogue/families.js'
import { normaliseTrade } from '../pricebook/trades.js'
import { ModelChoice, type PriceSuggestionInput, type PriceSuggestionResponse } from './ai-price-suggestion-schema.js'
import { complexity, location, TRAVEL_CHARGE, URGENT_CHARGE, urgency } from './price-adjustments.js'
import { LABOUR, labourCandidate, pastQuoteCandidates, presentCandidate, priceBookCandidate, similarity, type Candidate } from './price-candidates.js'
import * as q from './queries/price-history.js'

type Input = Static<typeof PriceSuggestionInput>
type Output = Static<typeof PriceSuggestionResponse>

/** Past quotes considered: the best-matched of the most recent, enough for a median and a spread. */
const MAX_PAST_QUOTES = 100
const MATCH_BASIS = 'Accepted quotes whose line descriptions, lead service type or message contain at least 2 of the description\'s words (stemmed; misspellings tolerated), and at least 70% as many as the best match'

/** A past quote counts when it has at least 2 of the words (all of them when fewer) and 70% of the best match's count. */
function closeMatches(found: q.MatchedQuote[]): q.MatchedQuote[] {
  const best = found[0]?.matched ?? 0
  return found.filter((m) => m.matched >= Math.min(2, m.terms) && m.matched >= Math.ceil(0.7 * best)).slice(0, MAX_PAST_QUOTES)
}

async function load(deps: Deps, principal: Principal, input: Input) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const lead = input.lead_id ? await findLead(tx, input.lead_id) : null
    if (input.lead_id && !lead) throw notFound('Lead')
    const text = [input.job_description, input.service_type ?? lead?.service_type, lead?.message].filter((t) => t?.trim()).join('. ')
    if (!text) throw validationError(['job_description: the lead has no service type or message to match on; describe the job'])
    const matched = closeMatches(await q.acceptedQuotesMatching(tx, text, 500))
    const suburb = input.suburb ?? lead?.suburb ?? null
    const own = normaliseTrade((await q.companyTradeType(tx)) ?? '')
    const trade = (TRADES as readonly string[]).includes(own) ? own : await q.catalogueTradeMatching(tx, text)
    return {
      lead, text, matched, suburb, trade,
      lines: await q.linesOfQuotes(tx, matched.map((m) => m.id)),
      items: await q.ownItemsMatching(tx, text, 20),
      labour: (await q.hourlyServices(tx))[0] ?? null,
      urgentCharges: input.urgency && input.urgency !== 'standard' ? await q.chargesMatching(tx, URGENT_CHARGE) : [],
      travelCharges: suburb || input.state ? await q.chargesMatching(tx, TRAVEL_CHARGE) : [],
      ranges: trade ? await q.sourcedRangesOfTrade(tx, trade) : [],
    }
  })
}

type Loaded = Awaited<ReturnType<typeof load>>

/** Every candidate, split into the suggested lines (the local default's ranking) and the others. */
function candidates(data: Loaded, input: Input) {
  const urgent = new RegExp(URGENT_CHARGE, 'i')
  const past = pastQuoteCandidates(data.matched, data.lines)
  const pastUrgent = past.filter((c) => urgent.test(c.description))
  let work = past.filter((c) => !urgent.test(c.description))
  if (data.labour) {
    const pastLabour = work.find((c) => LABOUR.test(c.description))
    const line = labourCandidate(data.labour, pastLabour)
    work = pastLabour ? work.map((c) => (c === pastLabour ? line : c)) : [...work, line]
  }
  const notShown: string[] = []
  for (const item of data.items) {
    const covered = past.find((c) => similarity(c.description, item.description) >= 0.5)
    if (covered) covered.price_book_item_id ??= item.id
    else if (item.sell_price_cents !== null) work.push(priceBookCandidate(item))
    else notShown.push(`Your price-book item "${item.description}" (${item.item_code}) matches but has no sell price (a cost with no markup): import it again with default_markup_percent to price it.`)
  }
  const strong = (c: Candidate) => (data.matched.length ? c.source !== 'price_book' && (c.share >= 0.5 || c.source === 'labour_rate' && c.quotes.length > 0)
    : c.source !== 'price_book' || c.confidence.score >= 0.35)
  const lines = work.filter(strong)
  const others = work.filter((c) => !strong(c))
  const adjustments = [complexity(input.complexity ?? 'standard', lines)]
  const u = urgency(input.urgency ?? 'standard', pastUrgent, data.urgentCharges)
  if (u.added) lines.push(u.added)
  others.push(...pastUrgent.filter((c) => c !== u.added))
  const where = [data.suburb, input.state].filter(Boolean).join(', ') || null
  const l = location(where, data.suburb, data.matched, data.travelCharges)
  if (l.offered) others.push(l.offered)
  adjustments.unshift(u.adjustment)
  adjustments.push(l.adjustment)
  ;[...lines, ...others].forEach((c, i) => { c.candidate_id = `c${i + 1}` })
  return { lines, others, adjustments, notShown }
}

function notShownOf(data: Loaded, lines: Candidate[], extra: string[]): string[] {
  const out = [...extra]
  if (!data.matched.length) out.push('No past accepted quote matches this job, so no price from your history is shown. Each accepted quote for this kind of job makes the next suggestion cite it.')
  if (!data.items.length) out.push('No item of your own price book matches the description (pricebook.import adds a supplier price list).')
  if (!data.labour) out.push('No labour rate: none of your active services is charged by the hour (services.create with unit "hour" sets one).')
  if (!data.ranges.length) out.push(`No dated, sourced market range is held for ${data.trade ?? 'this trade'}, so no market figure is shown.`)
  if (!lines.length) out.push('No price is suggested: your past quotes, price book and services hold nothing for this job, and no price is invented.')
  return out
}

const summaryOf = (data: Loaded, lines: Candidate[]) => lines.length
  ? `${lines.length} line(s) totalling ${formatCents(lines.reduce((s, c) => s + Math.round(c.quantity * c.unit_price_cents), 0))} ex GST, from ${data.matched.length ? `${data.matched.length} of your past accepted quotes for this kind of job` : 'your price book and services (no past accepted quote matches)'}.`
  : 'Nothing to suggest from your own data for this job; no price is invented.'

/** The figures a model may write: those of the candidates, and those in the description itself. */
function allowedFigures(all: Candidate[], text: string): number[] {
  return [
    ...all.flatMap((c) => [c.quantity, centsToDollars(c.unit_price_cents), centsToDollars(Math.round(c.quantity * c.unit_price_cents)), c.quotes.length, ...c.past_prices.map(centsToDollars), ...numbersIn(c.description)]),
    ...numbersIn(text),
  ]
}

function checkChoice(choice: Static<typeof ModelChoice>, all: Candidate[], required: Candidate[], text: string): string | null {
  const byId = new Map(all.map((c) => [c.candidate_id, c]))
  const seen = new Set<string>()
  for (const line of choice.lines) {
    const c = byId.get(line.candidate_id)
    if (!c) return `"${line.candidate_id}" is not a candidate line`
    if (seen.has(c.candidate_id)) return `"${line.candidate_id}" is chosen twice`
    seen.add(c.candidate_id)
    if (line.unit_price !== centsToDollars(c.unit_price_cents)) return `unit price ${line.unit_price} of ${c.candidate_id} is not the candidate's ${centsToDollars(c.unit_price_cents)}`
    if (line.quantity !== c.quantity) return `quantity ${line.quantity} of ${c.candidate_id} is not the candidate's ${c.quantity}`
  }
  if (!choice.lines.length) return 'no line was chosen'
  const dropped = required.find((c) => !seen.has(c.candidate_id))
  if (dropped) return `the ${dropped.purpose} line ${dropped.candidate_id} was dropped`
  return inventedFigure([...choice.lines.map((l) => l.description), choice.summary], allowedFigures(all, text))
}

export async function aiPriceSuggestion(deps: Deps, principal: Principal, input: Input): Promise<Output> {
  if (!input.lead_id && !input.job_description) throw validationError(['job_description: give job_description or lead_id'])
  const data = await load(deps, principal, input)
  const { lines, others, adjustments, notShown } = candidates(data, input)
  const all = [...lines, ...others]
  const local = { lines: lines.map((c) => ({ candidate_id: c.candidate_id, description: c.description, quantity: c.quantity, unit_price: centsToDollars(c.unit_price_cents) })), summary: summaryOf(data, lines) }
  const answer = all.length
    ? await generateMetered(deps, principal.companyId, {
      purpose: 'quotes.ai_price_suggestion',
      system: 'You help an Australian trade business price a quote. Choose which candidate lines suit the job and word each for the client. ' +
        'Use only the candidates given: copy each chosen line\'s candidate_id, quantity and unit_price exactly; write no price, rate or figure that is not in them. Keep every urgency line.',
      user: JSON.stringify({ job: data.text, urgency: input.urgency ?? 'standard', complexity: input.complexity ?? 'standard', candidates: all.map(presentCandidate) }),
      schema: ModelChoice,
      check: (choice) => checkChoice(choice, all, lines.filter((c) => c.purpose !== 'work'), data.text),
      localAnswer: () => local,
    })
    : { value: local, producedBy: 'local-default' as const, note: deps.llm.usesModel ? 'No candidate line to choose from: the model was not asked.' : null }
  const byId = new Map(all.map((c) => [c.candidate_id, c]))
  const chosen = answer.value.lines.map((l) => ({ ...byId.get(l.candidate_id)!, description: l.description }))
  const chosenIds = new Set(chosen.map((c) => c.candidate_id))
  const present = chosen.map(presentCandidate)
  return {
    job: { description: data.text, lead_id: data.lead?.id ?? null, suburb: data.suburb, state: input.state ?? null, trade: data.trade, urgency: input.urgency ?? 'standard', complexity: input.complexity ?? 'standard' },
    past_jobs: { matched: data.matched.length, quote_ids: data.matched.map((m) => m.id), basis: MATCH_BASIS },
    lines: present,
    other_candidates: all.filter((c) => !chosenIds.has(c.candidate_id)).map(presentCandidate),
    subtotal: centsToDollars(chosen.reduce((s, c) => s + Math.round(c.quantity * c.unit_price_cents), 0)),
    adjustments,
    market_context: data.ranges.map((r) => ({
      sku: r.sku, description: r.description, low: centsToDollars(r.range_low_cents), high: centsToDollars(r.range_high_cents),
      basis: r.range_basis, text: r.range_text, source: r.range_source, as_of: r.range_as_of,
    })),
    not_shown: notShownOf(data, chosen, notShown),
    summary: answer.value.summary,
    quote_input: present.length
      ? { lead_id: data.lead?.id ?? null, line_items: present.map((l) => ({ description: l.description, quantity: l.quantity, unitPrice: l.unit_price, ...(l.evidence.service_id ? { service_id: l.evidence.service_id } : {}) })) }
      : null,
    produced_by: answer.producedBy,
    provider_note: answer.note,
  }
}
