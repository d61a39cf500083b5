// Which job (or lead) a document belongs to, from its text: a job reference (the job's id, its quote
// number or an invoice number) is decisive; otherwise the client's name and the site address, each
// only when it appears whole. Several jobs of the same strength: the newest wins, and the reason says so.
import type { JobCandidate, LeadCandidate } from './queries.js'
import type { MatchMethod } from './schema.js'

export interface Match { job_id: string | null; lead_id: string | null; method: MatchMethod; reason: string }

/** Lower case, punctuation to spaces, runs of spaces to one, padded so whole-word tests are a plain includes. */
const normal = (text: string) => ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `
const STREET_WORDS: Record<string, string> = { street: 'st', road: 'rd', avenue: 'ave', drive: 'dr', court: 'ct', place: 'pl', parade: 'pde', crescent: 'cres', highway: 'hwy', lane: 'ln', terrace: 'tce' }
const shortStreets = (text: string) => text.replace(/ (street|road|avenue|drive|court|place|parade|crescent|highway|lane|terrace) /g, (_, w: string) => ` ${STREET_WORDS[w]} `)

/** The street part of an address (before the first comma), if long enough to mean something. */
function streetOf(address: string | null): string | null {
  if (!address) return null
  const street = shortStreets(normal(address.split(',')[0]!))
  return street.trim().length >= 6 ? street : null
}

const nameIn = (text: string, name: string) => name.trim().length >= 4 && text.includes(normal(name))

interface Scored { job_id: string | null; lead_id: string; method: MatchMethod; reason: string; score: number; at: Date }

function score(text: string, streets: string, c: { client_name: string; job_address?: string | null; lead_address: string | null; references?: string[] }): Omit<Scored, 'job_id' | 'lead_id' | 'at'> | null {
  const reference = (c.references ?? []).find((r) => text.includes(normal(r)))
  if (reference) return { method: 'job_reference', reason: `the text names ${reference}`, score: 100 }
  const street = [streetOf(c.job_address ?? null), streetOf(c.lead_address)].find((s) => s && streets.includes(s))
  const name = nameIn(text, c.client_name)
  if (street && name) return { method: 'address', reason: `the text names the client "${c.client_name}" and the address "${street.trim()}"`, score: 20 }
  if (street) return { method: 'address', reason: `the text names the address "${street.trim()}"`, score: 10 }
  if (name) return { method: 'client_name', reason: `the text names the client "${c.client_name}"`, score: 5 }
  return null
}

export function matchDocument(text: string, jobs: JobCandidate[], leads: LeadCandidate[]): Match {
  const normalText = normal(text)
  const streets = shortStreets(normalText)
  const byId = jobs.find((j) => normalText.includes(normal(j.job_id)))
  if (byId) return { job_id: byId.job_id, lead_id: byId.lead_id, method: 'job_reference', reason: `the text names the job id ${byId.job_id}` }
  const scored: Scored[] = []
  for (const j of jobs) {
    const s = score(normalText, streets, j)
    if (s) scored.push({ ...s, job_id: j.job_id, lead_id: j.lead_id, at: j.created_at })
  }
  // A lead with no job yet (a quote visit's photos): matched only when no job matched.
  if (scored.length === 0) {
    for (const l of leads) {
      const s = score(normalText, streets, l)
      if (s) scored.push({ ...s, job_id: null, lead_id: l.lead_id, at: l.created_at })
    }
  }
  if (scored.length === 0) return { job_id: null, lead_id: null, method: 'none', reason: 'no job reference, client name or address of a recent job or lead appears in the text; pass job_id or lead_id' }
  scored.sort((a, b) => b.score - a.score || b.at.getTime() - a.at.getTime())
  const best = scored[0]!
  const tied = scored.filter((s) => s.score === best.score).length
  const what = best.job_id ? `job ${best.job_id}` : `lead ${best.lead_id}`
  return { job_id: best.job_id, lead_id: best.lead_id, method: best.method, reason: `${best.reason}${tied > 1 ? ` (${tied} match equally; the newest, ${what}, was chosen)` : ''}` }
}
