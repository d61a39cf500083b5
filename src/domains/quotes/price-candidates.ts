// The candidate lines of a price suggestion, computed from the company's own data only: lines of its
// past accepted quotes grouped by wording, its price-book items, its hourly service. Pure functions;
// the figures here are the only ones a suggestion (or a model choosing among them) may show.
import { centsToDollars, formatCents } from '../../core/money.js'
import type { MatchedQuote, OwnItem, OwnService, PastLine } from './queries/price-history.js'

export type Source = 'past_quotes' | 'price_book' | 'labour_rate' | 'service'
export type Purpose = 'work' | 'urgency' | 'location'

export interface Candidate {
  candidate_id: string
  description: string
  quantity: number
  unit_price_cents: number
  source: Source
  purpose: Purpose
  service_id: string | null
  price_book_item_id: string | null
  price_basis: string
  quotes: MatchedQuote[]
  /** Unit prices of the line in those quotes (cents), ascending. */
  past_prices: number[]
  /** Share of the matched past jobs that have the line (0 without past jobs). */
  share: number
  confidence: { level: 'high' | 'medium' | 'low'; score: number; reason: string }
}

const normal = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()

/** Trigrams as pg_trgm makes them: each word padded with two spaces before and one after. */
function trigrams(s: string): Set<string> {
  const out = new Set<string>()
  for (const w of normal(s).split(' ').filter(Boolean)) {
    const p = `  ${w} `
    for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3))
  }
  return out
}

export function similarity(a: string, b: string): number {
  const x = trigrams(a), y = trigrams(b)
  if (!x.size || !y.size) return 0
  let both = 0
  for (const t of x) if (y.has(t)) both++
  return both / (x.size + y.size - both)
}

/** The median of sorted values: the middle one, or the mean of the two middle ones. */
export function median(sorted: number[]): number {
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Nearest-rank percentile: always a price actually charged. */
const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!

const round2 = (n: number) => Math.round(n * 100) / 100
const round3 = (n: number) => Math.round(n * 1000) / 1000
const level = (score: number) => (score >= 0.7 ? 'high' : score >= 0.4 ? 'medium' : 'low') as Candidate['confidence']['level']
export const LABOUR = /labou?r|per hour|hourly/i

interface Group { wording: Map<string, number>; lines: PastLine[] }

/** Past lines grouped by wording: a line joins the first group whose wording is at least 0.6 similar (trigrams). */
function groupLines(lines: PastLine[]): Group[] {
  const groups: { key: string; group: Group }[] = []
  for (const line of lines) {
    const found = groups.find((g) => g.key === normal(line.description) || similarity(g.key, line.description) >= 0.6)
    const group: Group = found?.group ?? { wording: new Map(), lines: [] }
    if (!found) groups.push({ key: normal(line.description), group })
    group.lines.push(line)
    group.wording.set(line.description, (group.wording.get(line.description) ?? 0) + 1)
  }
  return groups.map((g) => g.group)
}

/** One candidate per group of past lines; the unit price is the median of the prices charged. */
export function pastQuoteCandidates(matched: MatchedQuote[], lines: PastLine[]): Candidate[] {
  const byId = new Map(matched.map((q) => [q.id, q]))
  return groupLines(lines).map((g) => {
    const quotes = [...new Set(g.lines.map((l) => l.quote_id))].map((id) => byId.get(id)!)
    const prices = g.lines.map((l) => l.unit_price_cents).sort((a, b) => a - b)
    const quantities = g.lines.map((l) => l.quantity).sort((a, b) => a - b)
    const mid = Math.round(median(prices))
    const share = quotes.length / matched.length
    const spread = mid > 0 ? (prices.at(-1)! - prices[0]!) / mid : 0
    const score = round2(Math.min(1, quotes.length / 10) * 0.6 + share * 0.2 + (spread <= 0.25 ? 0.2 : spread <= 0.5 ? 0.1 : 0))
    const wording = [...g.wording.entries()].sort((a, b) => b[1] - a[1])[0]![0]
    const serviceIds = [...new Set(g.lines.map((l) => l.service_id))]
    return {
      candidate_id: '', description: wording, quantity: round3(median(quantities)), unit_price_cents: mid,
      source: 'past_quotes', purpose: 'work', service_id: serviceIds.length === 1 ? serviceIds[0]! : null, price_book_item_id: null,
      price_basis: `Median unit price and quantity of this line in ${quotes.length} of your accepted quotes for this kind of job (${formatCents(prices[0]!)} to ${formatCents(prices.at(-1)!)})`,
      quotes, past_prices: prices, share,
      confidence: {
        level: level(score), score,
        reason: `${quotes.length} of ${matched.length} matched past jobs have this line; their unit prices run ${formatCents(prices[0]!)} to ${formatCents(prices.at(-1)!)} (median ${formatCents(mid)})`,
      },
    }
  })
}

/** A price-book item as a candidate line: its sell price (cost + the company's markup), one unit. */
export function priceBookCandidate(item: OwnItem): Candidate {
  const score = round2(0.2 + 0.3 * (item.matched / Math.max(1, item.terms)))
  return {
    candidate_id: '', description: item.description, quantity: 1, unit_price_cents: item.sell_price_cents!,
    source: 'price_book', purpose: 'work', service_id: null, price_book_item_id: item.id,
    price_basis: `Sell price of your price-book item ${item.item_code} (${item.supplier}${item.markup_percent === null ? '' : `, cost + ${item.markup_percent}% markup`}), updated ${item.updated_at.toISOString().slice(0, 10)}; quantity 1: no past quote says how many`,
    quotes: [], past_prices: [], share: 0,
    confidence: { level: level(score), score, reason: `Your price book has it (matches ${item.matched} of ${item.terms} words of the description); no past accepted quote for this kind of job has it` },
  }
}

/** A labour line at the company's hourly rate: hours from past quotes' labour lines when they have some. */
export function labourCandidate(service: OwnService, pastLabour: Candidate | undefined): Candidate {
  const rate = formatCents(service.unit_price_cents)
  if (pastLabour) {
    return {
      ...pastLabour, unit_price_cents: service.unit_price_cents, source: 'labour_rate', service_id: service.id,
      price_basis: `Your labour rate (service "${service.name}", ${rate} per ${service.unit}); hours: the median of ${pastLabour.quotes.length} past jobs (they charged ${formatCents(pastLabour.past_prices[0]!)} to ${formatCents(pastLabour.past_prices.at(-1)!)} per unit)`,
    }
  }
  return {
    candidate_id: '', description: service.name, quantity: 1, unit_price_cents: service.unit_price_cents,
    source: 'labour_rate', purpose: 'work', service_id: service.id, price_book_item_id: null,
    price_basis: `Your labour rate (service "${service.name}", ${rate} per ${service.unit}); quantity 1: no past job says how many hours, set them`,
    quotes: [], past_prices: [], share: 0,
    confidence: { level: 'low', score: 0.3, reason: 'Your own rate, but no past accepted quote for this kind of job says how many hours it takes' },
  }
}

/** A charge from the company's services or price book that an urgency or location adjustment adds. */
export function chargeCandidate(charge: { kind: 'service' | 'price_book'; id: string; description: string; unit: string | null; price_cents: number }, purpose: Purpose): Candidate {
  return {
    candidate_id: '', description: charge.description, quantity: 1, unit_price_cents: charge.price_cents,
    source: charge.kind, purpose, service_id: charge.kind === 'service' ? charge.id : null, price_book_item_id: charge.kind === 'price_book' ? charge.id : null,
    price_basis: `Your ${charge.kind === 'service' ? 'service' : 'price-book item'} "${charge.description}" at ${formatCents(charge.price_cents)}${charge.unit ? ` per ${charge.unit}` : ''}`,
    quotes: [], past_prices: [], share: 0,
    confidence: { level: 'medium', score: 0.5, reason: `Your own ${purpose} charge; no past accepted quote for this kind of job shows how often it applied` },
  }
}

/** Complexity moves a well-supported past-quote price to the 75th (complex) or 25th (simple) percentile of the prices charged. */
export function applyComplexity(c: Candidate, complexity: 'simple' | 'standard' | 'complex'): string | null {
  if (complexity === 'standard' || c.source !== 'past_quotes' || c.past_prices.length < 4) return null
  const p = complexity === 'complex' ? 0.75 : 0.25
  const price = percentile(c.past_prices, p)
  const before = c.unit_price_cents
  if (price === before) return null
  c.unit_price_cents = price
  c.price_basis += `; ${complexity}: the ${p * 100}th-percentile price you charged (${formatCents(price)}) instead of the median (${formatCents(before)})`
  return `"${c.description}": ${formatCents(before)} to ${formatCents(price)}`
}

export function presentCandidate(c: Candidate) {
  return {
    candidate_id: c.candidate_id,
    description: c.description,
    quantity: c.quantity,
    unit_price: centsToDollars(c.unit_price_cents),
    total: centsToDollars(Math.round(c.quantity * c.unit_price_cents)),
    source: c.source,
    purpose: c.purpose,
    evidence: {
      past_jobs: c.quotes.length,
      quote_ids: c.quotes.map((q) => q.id),
      quote_numbers: c.quotes.map((q) => q.quote_number),
      median_unit_price: c.past_prices.length ? centsToDollars(Math.round(median(c.past_prices))) : null,
      lowest_unit_price: c.past_prices.length ? centsToDollars(c.past_prices[0]!) : null,
      highest_unit_price: c.past_prices.length ? centsToDollars(c.past_prices.at(-1)!) : null,
      price_book_item_id: c.price_book_item_id,
      service_id: c.service_id,
      price_basis: c.price_basis,
    },
    confidence: c.confidence,
  }
}
