// formation.funding: the funding programs in the facts folder (src/facts/data/funding-programs.json),
// filtered by category and by state (national ones plus the state's own), each open or closed on the
// company's own date with its dates. Closed rounds are listed only when asked, and always named in
// the summary with the date they closed. The company's state is read with the funding domain's query
// (one definition; this file is formation.funding's only one). Read-only.
import Type, { type Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import { READ } from '../../core/annotations.js'
import { companyToday } from '../../core/company-time.js'
import type { Deps } from '../../core/deps.js'
import { defineOperation } from '../../core/operation.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { withTenant } from '../../db/sql.js'
import { cite, GENERAL_INFORMATION } from '../../facts/facts.js'
import { adviceFields, input } from '../lifecycle/advice-schema.js'
import { presentProgram, programLine } from '../funding/present.js'
import { allPrograms, FUNDING_CATEGORIES } from '../funding/programs.js'
import { findFundingCompany } from '../funding/queries.js'
import { ProgramSummary } from '../funding/schema.js'
import { AuState, closed, Trade } from '../shared-schema.js'
import { steps } from '../../core/next-steps.js'

const FundingInput = Type.Object(
  {
    category: Type.Optional(StringEnum(FUNDING_CATEGORIES, { description: 'Only programs in this category' })),
    state: Type.Optional(AuState('Include this state\'s programs as well as national ones')),
    trade: Type.Optional(Trade()),
    include_closed: Type.Optional(Type.Boolean({ default: false, description: 'Also list programs that are closed to new applications' })),
  },
  closed,
)

const FundingResponse = Type.Object({
  summary: Type.Array(Type.String(), { description: 'What was found, in plain sentences, closed rounds named with the date they closed' }),
  programs: Type.Array(ProgramSummary, { description: 'The programs, open first' }),
  closed_not_listed: Type.Array(Type.String(), { description: 'Closed programs left out (include_closed lists them), each with its closing date if sourced' }),
  ...adviceFields,
})

const STATUS_ORDER = { open: 0, not_yet_open: 1, dates_not_sourced: 2, closed: 3 } as const

async function listFunding(deps: Deps, principal: Principal, given: Static<typeof FundingInput>): Promise<Static<typeof FundingResponse>> {
  const now = deps.clock.now()
  const { today, company } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    today: await companyToday(tx, now), company: await findFundingCompany(tx, now),
  }))
  const state = given.state ?? company.state
  const shown = allPrograms()
    .filter((p) => !given.category || p.category === given.category)
    .filter((p) => p.jurisdiction === 'AU' || (state !== null && p.jurisdiction === state))
    .map((p) => presentProgram(p, today))
  const listed = shown.filter((p) => given.include_closed || p.summary.status !== 'closed')
    .sort((a, b) => STATUS_ORDER[a.summary.status] - STATUS_ORDER[b.summary.status])
  const closedOut = shown.filter((p) => !given.include_closed && p.summary.status === 'closed')
    .map((p) => `${p.summary.name}: ${p.summary.status_sentence}`)
  const what = `${given.category ?? 'all'} programs, national${state ? ` and ${state}` : ''}`
  return {
    summary: [
      `${listed.length} ${what} on ${today}${given.include_closed ? ', closed ones included' : ''}.`,
      ...listed.map((p) => programLine(p.summary)),
      ...(closedOut.length ? [`Closed and not listed: ${closedOut.join(' ')}`] : []),
      ...(shown.length === 0 ? [`No ${given.category ?? ''} program is in the facts folder yet: none is shown without a source.`.replace('  ', ' ')] : []),
      ...(given.trade ? [`Trade ${given.trade}: apprenticeship programs depend on the occupation being on the priority list; funding.eligibility_scan checks each criterion.`] : []),
    ],
    programs: listed.map((p) => p.summary),
    closed_not_listed: closedOut,
    inputs: [
      given.category ? input('category', given.category, 'supplied', 'given in this call') : input('category', 'all', 'assumed', 'no category given'),
      given.state ? input('state', given.state, 'supplied', 'given in this call')
        : state ? input('state', state, 'company_data', 'your company profile') : input('state', 'not known', 'assumed', 'national programs only'),
      input('include_closed', String(given.include_closed ?? false), given.include_closed === undefined ? 'assumed' : 'supplied', given.include_closed === undefined ? 'default' : 'given in this call'),
      ...(given.trade ? [input('trade', given.trade, 'supplied' as const, 'given in this call')] : []),
    ],
    facts: cite(shown.flatMap((p) => p.factIds), today),
    disclaimer: GENERAL_INFORMATION,
  }
}

export const formationFundingOperation = defineOperation({
  name: 'formation.funding',
  domain: 'formation',
  title: 'Startup funding and grants',
  description:
    'Government grants, incentives and loans for starting and growing a trade business, e.g. the Key Apprenticeship Program, Priority Hiring Incentive, Australian Apprenticeship Support Loan and Export Market Development Grants. Filter by category: apprenticeship, small-business, export, digital or training; national programs plus the state\'s own. ' +
    'Each shows amounts, dates, whether it is open or closed on your date, source and as-of date. General information, not advice; free.',
  input: FundingInput,
  output: FundingResponse,
  access: { permission: 'read' },
  cost: 'free',
  annotations: READ,
  run: (ctx, input) => listFunding(ctx.deps, ctx.principal!, input),
  nextSteps: (output) => steps(output.programs.length > 0 && { tool: 'funding.eligibility_scan', why: 'Check which of these programs your business meets the criteria of.' }),
})
