// The advisory tools' facts (issue 26): every figure, threshold, rate and date the formation,
// hiring, funding, lifecycle and scaling tools show, kept as data with its source, its as-of date
// and the period it applies to. One JSON file per topic in src/facts/data/ (a versioned folder: a
// change of figure is a change of file, reviewed like code). A tool never types a figure: it names
// the fact by id (factById), and its result cites the facts it used (cite), each saying whether it
// is current, past its date, or applies only from a future date, on the company's own date.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** How far a fact can be trusted: a government or regulator page, a secondary source, or no source found. */
export const FACT_CONFIDENCE = ['official', 'third_party', 'unconfirmed'] as const
export type FactConfidence = (typeof FACT_CONFIDENCE)[number]

export interface Fact {
  /** Stable id, e.g. "super.guarantee_rate"; what results cite. */
  id: string
  /** One plain sentence, as shown to the owner. */
  statement: string
  /** The figure itself when there is one (a rate as a fraction, money in whole cents, a count), else null. */
  value: number | null
  /** What value counts: "fraction", "cents", "cents_per_hour", "days", "years", ... (null with value null). */
  unit: string | null
  /** Where it applies: "AU" (Commonwealth) or a state code. */
  jurisdiction: string
  /** The period it applies to (YYYY-MM-DD, inclusive); null: open-ended. */
  applies_from: string | null
  applies_to: string | null
  /** Who says so: the page or instrument, as the reference sheet names it. */
  source: string
  source_url: string | null
  /** When the source was read or the figure published (YYYY-MM or YYYY-MM-DD). */
  as_of: string
  confidence: FactConfidence
  /** Anything the owner must know to use it (e.g. "check the FWO pay guide"). */
  note: string | null
}

/** How a cited fact stands on the company's date. */
export type FactStanding = 'current' | 'past_its_date' | 'from_a_future_date'

export interface Citation {
  id: string
  statement: string
  source: string
  source_url: string | null
  as_of: string
  confidence: FactConfidence
  applies_from: string | null
  applies_to: string | null
  standing: FactStanding
  /** A sentence when it is not simply current and confirmed; null otherwise. */
  caution: string | null
}

const DATA_DIR = fileURLToPath(new URL('./data/', import.meta.url))

function load(): Map<string, Fact> {
  const facts = new Map<string, Fact>()
  for (const file of readdirSync(DATA_DIR).filter((f) => f.endsWith('.json')).sort()) {
    const list = JSON.parse(readFileSync(join(DATA_DIR, file), 'utf8')) as { facts: Fact[] }
    for (const fact of list.facts) {
      if (facts.has(fact.id)) throw new Error(`Fact ${fact.id} is defined twice (second time in src/facts/data/${file})`)
      facts.set(fact.id, fact)
    }
  }
  return facts
}

let cache: Map<string, Fact> | null = null

/** Every fact, read once from src/facts/data/. */
export function allFacts(): Map<string, Fact> {
  cache ??= load()
  return cache
}

/** The fact with this id; a missing one is a programming error (a test checks every id a tool names). */
export function factById(id: string): Fact {
  const fact = allFacts().get(id)
  if (!fact) throw new Error(`No fact ${id} in src/facts/data/`)
  return fact
}

/** The fact's value, which must be a number (a figure a tool computes with). */
export function factValue(id: string): number {
  const { value } = factById(id)
  if (value === null) throw new Error(`Fact ${id} has no value`)
  return value
}

export function standingOn(fact: Pick<Fact, 'applies_from' | 'applies_to'>, today: string): FactStanding {
  if (fact.applies_from && today < fact.applies_from) return 'from_a_future_date'
  if (fact.applies_to && today > fact.applies_to) return 'past_its_date'
  return 'current'
}

/** The facts a result used, as it shows them, on the company's own date (YYYY-MM-DD). */
export function cite(ids: Iterable<string>, today: string): Citation[] {
  return [...new Set(ids)].map((id) => {
    const f = factById(id)
    const standing = standingOn(f, today)
    const cautions: string[] = []
    if (standing === 'past_its_date') cautions.push(`This applied until ${f.applies_to}; a newer figure may apply.`)
    if (standing === 'from_a_future_date') cautions.push(`This applies from ${f.applies_from}, not yet.`)
    if (f.confidence === 'unconfirmed') cautions.push('Unconfirmed: no source confirming it was found.')
    if (f.confidence === 'third_party') cautions.push('From a secondary source; check the official page.')
    return {
      id: f.id, statement: f.statement, source: f.source, source_url: f.source_url, as_of: f.as_of, confidence: f.confidence,
      applies_from: f.applies_from, applies_to: f.applies_to, standing, caution: cautions.length ? cautions.join(' ') : null,
    }
  })
}

/** Every result of these tools ends with it (issue 26 item 5). */
export const GENERAL_INFORMATION =
  'General information only, not financial, legal or tax advice: check the cited sources and talk to your accountant or adviser before acting on it.'
