// Funding tools' inputs (the spec's fields, unchanged from the planned tools) and outputs; the
// program summary is shared with formation.funding.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Id, Trade } from '../shared-schema.js'
import { adviceFields } from '../lifecycle/advice-schema.js'
import { FUNDING_CATEGORIES, PROGRAM_STATUSES } from './programs.js'

export const Category = (description: string) => StringEnum(FUNDING_CATEGORIES, { description })

export const ScanInput = Type.Object(
  {
    state: Type.Optional(AuState()),
    trade: Type.Optional(Trade()),
    annual_turnover: Type.Optional(Dollars('none', { minimum: 0, description: 'Annual turnover' })),
    employees: Type.Optional(Type.Integer({ minimum: 0, description: 'Number of employees' })),
    hiring_apprentice: Type.Optional(Type.Boolean({ description: 'Whether the business plans to take on an apprentice' })),
    exports: Type.Optional(Type.Boolean({ description: 'Whether the business sells or plans to sell overseas' })),
    categories: Type.Optional(Type.Array(Category('A program category'), { uniqueItems: true, description: 'Only these program categories' })),
  },
  closed,
)

export const DetailsInput = Type.Object({ program_id: Id('Program id from funding.eligibility_scan or formation.funding, e.g. "kap"') }, closed)

export const ProgramSummary = Type.Object({
  program_id: Type.String({ description: 'Pass to funding.program_details' }),
  name: Type.String(),
  category: Category('apprenticeship, small-business, export, digital or training'),
  paid_to: Type.String({ description: 'Who receives the money: employer, apprentice, apprentice_and_employer, business or provider' }),
  jurisdiction: Type.String({ description: 'AU (national) or a state code' }),
  status: StringEnum(PROGRAM_STATUSES, { description: 'On the company\'s date: open, closed, not_yet_open, or dates_not_sourced' }),
  status_sentence: Type.String({ description: 'The status with its dates' }),
  opens: Nullable(Type.String({ description: 'First date of the window (YYYY-MM-DD), if sourced' })),
  closes: Nullable(Type.String({ description: 'Last date of the window (YYYY-MM-DD), if sourced' })),
  summary: Type.String(),
  amounts: Type.Array(Type.Object({
    fact_id: Type.String(),
    statement: Type.String(),
    amount: Dollars('none', { description: 'The figure the fact gives' }),
    standing: StringEnum(['current', 'past_its_date', 'from_a_future_date'] as const, { description: 'On the company\'s date' }),
  })),
  rules: Type.Array(Type.String(), { description: 'The program\'s other sourced rules' }),
  how_to_apply: Type.String(),
})

export const CRITERION_RESULTS = ['meets', 'misses', 'unknown'] as const

export const Criterion = Type.Object({
  criterion: Type.String({ description: 'What the program asks' }),
  result: StringEnum(CRITERION_RESULTS, { description: 'meets, misses, or unknown (not enough information)' }),
  because: Type.String({ description: 'The input it was judged on, with its value' }),
  fact_id: Nullable(Type.String({ description: 'The fact the criterion comes from, when it has a figure or a date' })),
})

export const VERDICTS = ['likely', 'possible', 'not_eligible'] as const

export const ScanResponse = Type.Object({
  summary: Type.Array(Type.String(), { description: 'The scan in plain sentences' }),
  programs: Type.Array(Type.Object({
    program: ProgramSummary,
    verdict: StringEnum(VERDICTS, { description: 'likely (every criterion met), possible (none missed, some unknown), not_eligible (one or more missed)' }),
    criteria: Type.Array(Criterion, { description: 'Each criterion the program has, and whether the business meets or misses it' }),
  }), { description: 'Every program scanned, likely first' }),
  ...adviceFields,
})

export const DetailsResponse = Type.Object({
  program: ProgramSummary,
  summary: Type.Array(Type.String(), { description: 'The program in plain sentences' }),
  ...adviceFields,
})
