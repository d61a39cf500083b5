// The eligibility criteria of each program (ours, read from the program's sourced rules: the facts
// named here). A criterion is met, missed, or unknown when the inputs do not say; a figure in a
// criterion always comes from a fact.
import type { Static } from 'typebox'
import { formatCents, formatDollars } from '../../core/money.js'
import { factById } from '../../facts/facts.js'
import type { Program, Standing } from './programs.js'
import type { Criterion } from './schema.js'

type C = Static<typeof Criterion>

export interface ScanFacts {
  state: string | null
  trade: string | null
  /** Dollars, ex GST when from the records. */
  turnover: number | null
  turnoverFrom: string
  hiringApprentice: boolean | undefined
  exports: boolean | undefined
}

const yesNo = (criterion: string, answer: boolean | undefined, field: string, factId: string | null = null): C => ({
  criterion,
  result: answer === undefined ? 'unknown' : answer ? 'meets' : 'misses',
  because: answer === undefined ? `${field} was not given` : `${field} is ${answer}`,
  fact_id: factId,
})

const unknown = (criterion: string, because: string, factId: string | null = null): C => ({ criterion, result: 'unknown', because, fact_id: factId })

const APPRENTICE_PROGRAMS = new Set(['kap', 'phi', 'aatsp', 'nea', 'aasl', 'nsw_fee_free_apprenticeships',
  'nsw_payroll_tax_apprentice_rebate', 'qld_payroll_tax_apprentice_exemption', 'vic_payroll_tax_apprentice_exemption', 'sa_payroll_tax_apprentice_exemption'])

function programSpecific(p: Program, s: ScanFacts): C[] {
  const trade = s.trade ? `your trade is ${s.trade}` : 'no trade given'
  switch (p.id) {
    case 'kap':
    case 'nea':
      return [unknown('The apprenticeship gives meaningful exposure to clean energy or housing construction work', `${trade}: confirm with your Apprenticeship Network provider`, 'funding.kap.commencements')]
    case 'phi':
    case 'aatsp':
      return [unknown('The apprentice\'s occupation is on the priority list (Certificate III or higher for the employer incentive)', `${trade}: check the priority list with your Apprenticeship Network provider`)]
    case 'emdg': {
      const limit = factById('funding.emdg.turnover_limit').value!
      const turnover: C = s.turnover === null
        ? unknown(`Turnover under ${formatCents(limit)}`, 'turnover not known', 'funding.emdg.turnover_limit')
        : { criterion: `Turnover under ${formatCents(limit)}`, result: s.turnover * 100 < limit ? 'meets' : 'misses', because: `turnover ${formatDollars(s.turnover)} (${s.turnoverFrom})`, fact_id: 'funding.emdg.turnover_limit' }
      const spend = factById('funding.emdg.minimum_own_spend').value!
      return [
        yesNo('Sells, or plans to sell, overseas', s.exports, 'exports'),
        turnover,
        unknown(`At least ${formatCents(spend)} a year of your own eligible export spend (the grant matches it 50:50)`, 'your export spend is not known', 'funding.emdg.minimum_own_spend'),
      ]
    }
    case 'asbas_digital':
      return [{ criterion: 'Funding is paid to the business that applies', result: 'misses', because: 'it is paid to one provider per region; a business gets low-cost digital advice from that provider', fact_id: 'funding.asbas_digital.total' }]
    default:
      return p.category === 'apprenticeship' && p.jurisdiction !== 'AU'
        ? [unknown('The business pays payroll tax (wages above the state threshold)', 'wages against the threshold are not known here: see hiring.cost_calculator')]
        : []
  }
}

export function criteriaOf(p: Program, standing: Standing, s: ScanFacts): C[] {
  const open: C = {
    criterion: 'Open on your date',
    result: standing.status === 'open' ? 'meets' : standing.status === 'dates_not_sourced' ? 'unknown' : 'misses',
    because: standing.sentence,
    fact_id: p.closed_fact ?? p.window_fact,
  }
  const state: C[] = p.jurisdiction === 'AU' ? [] : [s.state === null
    ? unknown(`The business operates in ${p.jurisdiction}`, 'state not known')
    : { criterion: `The business operates in ${p.jurisdiction}`, result: s.state === p.jurisdiction ? 'meets' : 'misses', because: `state is ${s.state}`, fact_id: null }]
  const apprentice = APPRENTICE_PROGRAMS.has(p.id) ? [yesNo('Takes on an apprentice', s.hiringApprentice, 'hiring_apprentice')] : []
  return [open, ...state, ...apprentice, ...programSpecific(p, s)]
}

export function verdictOf(criteria: C[]): 'likely' | 'possible' | 'not_eligible' {
  if (criteria.some((c) => c.result === 'misses')) return 'not_eligible'
  return criteria.some((c) => c.result === 'unknown') ? 'possible' : 'likely'
}
