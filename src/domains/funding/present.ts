// A program as the funding tools and formation.funding show it, on the company's date, with the ids
// of the facts it used (the result cites them).
import type { Static } from 'typebox'
import { programAmounts, programRules, programStanding, type Program } from './programs.js'
import type { ProgramSummary } from './schema.js'

export function presentProgram(p: Program, today: string): { summary: Static<typeof ProgramSummary>; factIds: string[] } {
  const standing = programStanding(p, today)
  return {
    summary: {
      program_id: p.id, name: p.name, category: p.category, paid_to: p.paid_to, jurisdiction: p.jurisdiction,
      status: standing.status, status_sentence: standing.sentence, opens: standing.opens, closes: standing.closes,
      summary: p.summary, amounts: programAmounts(p, today), rules: programRules(p), how_to_apply: p.how_to_apply,
    },
    factIds: [...standing.facts, ...p.facts],
  }
}

/** One line per program: name, status with dates, and its first current amount. */
export function programLine(s: Static<typeof ProgramSummary>): string {
  const amount = s.amounts.find((a) => a.standing === 'current')
  return `${s.name} (${s.category}, ${s.jurisdiction}): ${s.status_sentence}${amount ? ` ${amount.statement}` : ''}`
}
