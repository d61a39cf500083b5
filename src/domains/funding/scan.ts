// funding.eligibility_scan and funding.program_details: every program in the facts folder, judged on
// the company's date against the answers given and, where they are not given, the company's own
// records (state, trade, 12 months of payments as turnover). Read-only.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { centsToDollars, formatDollars } from '../../core/money.js'
import { withTenant } from '../../db/sql.js'
import { cite, GENERAL_INFORMATION } from '../../facts/facts.js'
import { input, type InputUsed } from '../lifecycle/advice-schema.js'
import { criteriaOf, verdictOf, type ScanFacts } from './criteria.js'
import { presentProgram, programLine } from './present.js'
import { allPrograms, programById, programStanding } from './programs.js'
import { findFundingCompany } from './queries.js'
import type { DetailsInput, DetailsResponse, ScanInput, ScanResponse } from './schema.js'

const YEAR_MS = 365 * 86_400_000
const VERDICT_ORDER = { likely: 0, possible: 1, not_eligible: 2 } as const

function scanFacts(given: Static<typeof ScanInput>, company: { state: string | null; trade_type: string | null; revenue_12m: string; payments_12m: number }): { s: ScanFacts; inputs: InputUsed[] } {
  const recorded = company.payments_12m > 0 ? centsToDollars(Number(company.revenue_12m)) : null
  const s: ScanFacts = {
    state: given.state ?? company.state,
    trade: given.trade ?? company.trade_type,
    turnover: given.annual_turnover ?? recorded,
    turnoverFrom: given.annual_turnover !== undefined ? 'given' : 'your payments received in the last 12 months, ex GST',
    hiringApprentice: given.hiring_apprentice,
    exports: given.exports,
  }
  const from = (field: string, supplied: boolean, value: string | null, record: string) => supplied
    ? input(field, value!, 'supplied', 'given in this call')
    : value !== null ? input(field, value, 'company_data', record) : input(field, 'not known', 'assumed', 'not given and not in your records: criteria that need it are unknown')
  const yn = (field: string, v: boolean | undefined) => v === undefined
    ? input(field, 'not known', 'assumed', 'not given: criteria that need it are unknown')
    : input(field, String(v), 'supplied', 'given in this call')
  return {
    s,
    inputs: [
      from('state', given.state !== undefined, s.state, 'your company profile'),
      from('trade', given.trade !== undefined, s.trade, 'your company profile (trade type)'),
      from('annual_turnover', given.annual_turnover !== undefined, s.turnover === null ? null : formatDollars(s.turnover), 'your payments received in the last 12 months, ex GST'),
      ...(given.employees !== undefined ? [input('employees', String(given.employees), 'supplied', 'given in this call')] : []),
      yn('hiring_apprentice', given.hiring_apprentice),
      yn('exports', given.exports),
    ],
  }
}

export async function eligibilityScan(deps: Deps, principal: Principal, given: Static<typeof ScanInput>): Promise<Static<typeof ScanResponse>> {
  const now = deps.clock.now()
  const { today, company } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    today: await companyToday(tx, now), company: await findFundingCompany(tx, new Date(now.getTime() - YEAR_MS)),
  }))
  const { s, inputs } = scanFacts(given, company)
  const wanted = given.categories?.length ? new Set<string>(given.categories) : null
  const factIds: string[] = []
  const programs = allPrograms().filter((p) => !wanted || wanted.has(p.category)).map((p) => {
    const { summary, factIds: ids } = presentProgram(p, today)
    factIds.push(...ids)
    const criteria = criteriaOf(p, programStanding(p, today), s)
    return { program: summary, verdict: verdictOf(criteria), criteria }
  }).sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict])
  const count = (v: keyof typeof VERDICT_ORDER) => programs.filter((p) => p.verdict === v).length
  return {
    summary: [
      `${programs.length} programs scanned on ${today}: ${count('likely')} likely, ${count('possible')} possible (some criteria unknown), ${count('not_eligible')} not eligible.`,
      ...programs.filter((p) => p.verdict !== 'not_eligible').map((p) => `${p.verdict === 'likely' ? 'Likely' : 'Possible'}: ${programLine(p.program)}`),
      ...(wanted && programs.length === 0 ? [`No program in the categories asked (${[...wanted].join(', ')}) is in the facts folder.`] : []),
      'Eligibility here is a first screen from sourced rules; the program\'s administrator decides.',
    ],
    programs,
    inputs,
    facts: cite(factIds, today),
    disclaimer: GENERAL_INFORMATION,
  }
}

export async function programDetails(deps: Deps, principal: Principal, given: Static<typeof DetailsInput>): Promise<Static<typeof DetailsResponse>> {
  const p = programById(given.program_id.trim())
  if (!p) {
    throw new AppError('not_found', `No funding program "${given.program_id}". Use one of: ${allPrograms().map((x) => x.id).join(', ')} (funding.eligibility_scan or formation.funding list them).`)
  }
  const today = await withTenant(deps.db, principal.companyId, (tx) => companyToday(tx, deps.clock.now()))
  const { summary, factIds } = presentProgram(p, today)
  return {
    program: summary,
    summary: [
      `${p.name}: ${p.summary}`,
      `Paid to: ${p.paid_to.replaceAll('_', ' ')}. Where: ${p.jurisdiction === 'AU' ? 'all of Australia' : p.jurisdiction}.`,
      `${summary.status_sentence}`,
      ...summary.amounts.map((a) => `${a.statement}${a.standing === 'current' ? '' : a.standing === 'past_its_date' ? ' (past its date on yours)' : ' (applies from a later date)'}`),
      ...summary.rules,
      `How to apply: ${p.how_to_apply}`,
    ],
    inputs: [input('program_id', p.id, 'supplied', 'given in this call')],
    facts: cite(factIds, today),
    disclaimer: GENERAL_INFORMATION,
  }
}
