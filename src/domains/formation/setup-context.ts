// What the setup tools read before answering: the company's profile (trade, state, ABN), its own
// invoiced turnover over 12 months, and its local date (for the standing of each cited fact).
// Inputs given in the call win; the company's data fills the gaps; each is reported with its origin.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { factById } from '../../facts/facts.js'
import { AU_STATES } from '../shared-schema.js'
import type { AuStateCode } from './licensing.js'
import { findSetupProfile, invoicedTurnoverCents, type SetupProfile } from './queries/setup.js'
import type { InputUsedSchema, InputOrigin } from './setup-schema.js'
import { kindsOf, type TradeKind } from './trades.js'

export type InputUsed = Static<typeof InputUsedSchema>

export interface CompanySetupData {
  profile: SetupProfile
  today: string
  turnoverCents: number
}

export async function readCompanySetupData(deps: Deps, principal: Principal): Promise<CompanySetupData> {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const today = await companyToday(tx, deps.clock.now())
    return { profile: await findSetupProfile(tx), today, turnoverCents: await invoicedTurnoverCents(tx, today) }
  })
}

export interface TradeAndState {
  trade: string | null
  kinds: TradeKind[]
  state: AuStateCode | null
  inputs: InputUsed[]
}

const isState = (s: string | null): s is AuStateCode => s !== null && (AU_STATES as readonly string[]).includes(s)

/** The trade and state to answer for: the call's, else the company's profile, else none (said so). */
export function tradeAndState(input: { trade?: string; state?: AuStateCode }, profile: SetupProfile): TradeAndState {
  const inputs: InputUsed[] = []
  const pick = <T>(name: string, supplied: T | undefined, company: T | null, none: string): T | null => {
    const [value, origin]: [T | null, InputOrigin] = supplied !== undefined ? [supplied, 'supplied'] : company !== null ? [company, 'company'] : [null, 'assumed']
    inputs.push({ name, value: value === null ? none : String(value), origin })
    return value
  }
  const trade = pick('trade', input.trade?.trim() || undefined, profile.trade_type?.trim() || null, 'not given: only the requirements every trade shares')
  const state = pick('state', input.state, isState(profile.state) ? profile.state : null, 'not given: state licensing not listed')
  return { trade, kinds: trade ? kindsOf(trade) : [], state, inputs }
}

/** A sentence on how the trade was read. */
export function tradeSentence(trade: string | null, kinds: TradeKind[]): string | null {
  if (!trade) return 'No trade was given or recorded in your profile, so only the requirements every trade shares are listed.'
  if (kinds.length === 0) return `"${trade}" is not one of the trades whose licensing is held here (electrical, plumbing and gasfitting, building and carpentry, air conditioning and refrigeration): check with your state's regulator whether it needs a licence.`
  return null
}

/** One sentence per unconfirmed fact the items rest on: the tool says so rather than guessing. */
export function unconfirmedSentences(items: { fact_ids: string[] }[]): string[] {
  const ids = [...new Set(items.flatMap((i) => i.fact_ids))].filter((id) => factById(id).confidence === 'unconfirmed')
  return ids.map((id) => `Unconfirmed (no source confirming it was found; check with the regulator): ${factById(id).statement}`)
}
