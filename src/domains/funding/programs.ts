// The funding programs (src/facts/data/funding-programs.json, `programs`): each groups its facts with
// its category, who is paid, where it applies, and the fact whose period is its window of
// commencements or applications. Whether a program is open is read on the company's own date: a
// round whose window ended before that date is closed, with the date it closed.
import { readFileSync } from 'node:fs'
import { centsToDollars } from '../../core/money.js'
import { factById, standingOn, type FactStanding } from '../../facts/facts.js'

export const FUNDING_CATEGORIES = ['apprenticeship', 'small-business', 'export', 'digital', 'training'] as const
export type FundingCategory = (typeof FUNDING_CATEGORIES)[number]
export const PROGRAM_STATUSES = ['open', 'closed', 'not_yet_open', 'dates_not_sourced'] as const
export type ProgramStatus = (typeof PROGRAM_STATUSES)[number]

export interface Program {
  id: string
  name: string
  category: FundingCategory
  paid_to: string
  jurisdiction: string
  /** The fact whose applies_from/applies_to is the window of commencements or applications. */
  window_fact: string | null
  /** A fact saying the round is closed, when the source gives no closing date. */
  closed_fact: string | null
  facts: string[]
  how_to_apply: string
  summary: string
}

const FILE = new URL('../../facts/data/funding-programs.json', import.meta.url)
let cache: Program[] | null = null

export function allPrograms(): Program[] {
  cache ??= (JSON.parse(readFileSync(FILE, 'utf8')) as { programs: Program[] }).programs
  return cache
}

export const programById = (id: string) => allPrograms().find((p) => p.id === id) ?? null

export interface Standing { status: ProgramStatus; opens: string | null; closes: string | null; sentence: string; facts: string[] }

export function programStanding(p: Program, today: string): Standing {
  if (p.closed_fact) {
    const f = factById(p.closed_fact)
    return { status: 'closed', opens: null, closes: null, facts: [f.id], sentence: `Closed: ${f.statement} (as read ${f.as_of}; the closing date is not in the source held).` }
  }
  if (!p.window_fact) return { status: 'dates_not_sourced', opens: null, closes: null, facts: [], sentence: 'No opening or closing date is sourced: check the source before relying on it.' }
  const w = factById(p.window_fact)
  const facts = [w.id]
  const standing = standingOn(w, today)
  if (standing === 'past_its_date') return { status: 'closed', opens: w.applies_from, closes: w.applies_to, facts, sentence: `Closed on ${w.applies_to} (on your date, ${today}).` }
  if (standing === 'from_a_future_date') return { status: 'not_yet_open', opens: w.applies_from, closes: w.applies_to, facts, sentence: `Opens on ${w.applies_from}.` }
  const since = w.applies_from ? ` since ${w.applies_from}` : ''
  return {
    status: 'open', opens: w.applies_from, closes: w.applies_to, facts,
    sentence: w.applies_to ? `Open${since} until ${w.applies_to}.` : `Open${since}; no closing date is sourced.`,
  }
}

export interface Amount { fact_id: string; statement: string; amount: number; standing: FactStanding }

/** The program's amounts (its facts in cents), each with how it stands on the company's date. */
export function programAmounts(p: Program, today: string): Amount[] {
  return p.facts.map(factById).filter((f) => f.unit === 'cents' && f.value !== null)
    .map((f) => ({ fact_id: f.id, statement: f.statement, amount: centsToDollars(f.value!), standing: standingOn(f, today) }))
}

/** The sentences of the program's facts that are not amounts (rules, shares, unconfirmed notes). */
export const programRules = (p: Program) => p.facts.map(factById).filter((f) => f.unit !== 'cents').map((f) => f.statement)
