// hiring.apprentice_workflow: the steps and obligations of taking on an apprentice, the wage
// percentages by year for the award (unconfirmed ones shown as unconfirmed), the incentives and the
// state's payroll tax relief, each from a dated fact on the company's date.
import type { Static } from 'typebox'
import { cite, factById, GENERAL_INFORMATION } from '../../facts/facts.js'
import { awardForTrade, factKey } from './award.js'
import { dollars, percent, used } from './factors.js'
import type { ApprenticeInput, ApprenticeResponse } from './schema.js'
import type { CostContext } from './cost.js'

type State = NonNullable<Static<typeof ApprenticeResponse>['state']>
const RELIEF_STATES = new Set(['NSW', 'QLD', 'VIC', 'SA'])

export function apprenticeWorkflow(input: Static<typeof ApprenticeInput>, ctx: CostContext): Static<typeof ApprenticeResponse> {
  const trade = input.trade ?? ctx.companyTrade
  const award = awardForTrade(trade)
  const key = factKey(award)
  const state = (input.state ?? ctx.companyState) as State | null
  const partTime = input.employment_type === 'part_time'
  const wage_percentages = [1, 2, 3, 4].map((year) => {
    const f = factById(`apprentice.${key}.year${year}`)
    return { year, percent_of_trade_rate: f.value === null ? null : Math.round(f.value * 1000) / 10, confidence: f.confidence, fact_id: f.id }
  })
  const ids = [`employment.award.${key}`, ...wage_percentages.map((w) => w.fact_id)]
  const adultIds = input.adult_apprentice && award === 'MA000020' ? ['apprentice.ma000020.adult_apprentice'] : []
  const kap = factById('apprentice.kap_employer_payment')
  const phi = factById('apprentice.priority_hiring_incentive')
  const phi2026 = factById('apprentice.priority_hiring_incentive_2026')
  const reliefId = state && RELIEF_STATES.has(state) ? `apprentice.payroll_tax.${state.toLowerCase()}` : null
  const incentiveIds = ['apprentice.kap_employer_payment', 'apprentice.kap_apprentice_payment', 'apprentice.priority_hiring_incentive', 'apprentice.priority_hiring_incentive_2026']
  const pctText = wage_percentages.map((w) => `year ${w.year}: ${w.percent_of_trade_rate === null ? 'unconfirmed' : `${w.percent_of_trade_rate}%`}`).join(', ')
  const steps: Static<typeof ApprenticeResponse>['steps'] = [
    { step: 1, title: 'Check the award and the wage', fact_ids: [...ids, ...adultIds],
      detail: `${award} covers ${trade ?? 'the trade'} (inferred from the trade: confirm with the FWO). Minimum apprentice wage as a share of the trade rate, ${pctText}.${adultIds.length ? ' ' + factById(adultIds[0]!).statement : ''} Read the dollar rates from the FWO pay guide.` },
    { step: 2, title: 'Contact an Apprenticeship Support Network provider', fact_ids: [],
      detail: 'The provider checks eligibility, prepares and lodges the training contract, and handles the incentive claims.' },
    { step: 3, title: 'Choose a training organisation and sign the training contract', fact_ids: [],
      detail: `Sign the ${partTime ? 'part-time' : 'full-time'} training contract with the apprentice and the training organisation; the provider has it registered with the state training authority.` },
    { step: 4, title: 'Set up as an employer', fact_ids: ['employment.payg_withholding_registration', 'employment.fair_work_information_statement', 'super.guarantee_rate'],
      detail: 'An apprentice is an employee: PAYG withholding, Single Touch Payroll, super, the Fair Work Information Statement and workers\' compensation all apply (hiring.compliance_checklist).' },
    { step: 5, title: 'White Card before site work', fact_ids: ['employment.white_card'], detail: factById('employment.white_card').statement },
    { step: 6, title: 'Claim the incentives', fact_ids: incentiveIds,
      detail: `Key Apprenticeship Program: up to ${dollars(kap.value! / 100)} to the employer for commencements from ${kap.applies_from} where the work gives meaningful exposure to clean energy or housing. Priority Hiring Incentive: up to ${dollars(phi.value! / 100)} until ${phi.applies_to}, then ${dollars(phi2026.value! / 100)} from ${phi2026.applies_from} for non-KAP priority occupations.${partTime ? ' Part-time amounts are half.' : ''} See the facts for which apply on your date.` },
    { step: 7, title: 'Payroll tax relief', fact_ids: reliefId ? [reliefId] : [],
      detail: reliefId ? factById(reliefId).statement : `No apprentice payroll tax relief for ${state ?? 'your state'} is held in the facts; ask the state revenue office.` },
  ]
  const obligations = [
    'Pay at least the award apprentice rate for the year, and the trade allowances the award sets.',
    'Release the apprentice for off-the-job training and pay for that time as the award requires.',
    'Supervise and train on the job in the trade of the training contract.',
    'Keep the training contract current: tell the provider of any change, suspension or cancellation.',
    `Super at ${percent(factById('super.guarantee_rate').value!)} of ordinary time earnings, PAYG withholding and Single Touch Payroll, as for any employee.`,
  ]
  const facts = cite([...new Set(steps.flatMap((s) => s.fact_ids))], ctx.today)
  const unconfirmed = wage_percentages.filter((w) => w.confidence === 'unconfirmed').map((w) => w.year)
  return {
    award, award_origin: input.trade ? 'supplied' : ctx.companyTrade ? 'company_data' : 'assumed', state, wage_percentages, steps, obligations,
    summary: [
      `Taking on a ${partTime ? 'part-time' : 'full-time'} ${trade ?? ''} apprentice${state ? ` in ${state}` : ''}: ${steps.length} steps, under ${award}.`.replace('  ', ' '),
      `Minimum wage as a share of the trade rate, ${pctText}.${unconfirmed.length ? ` Year${unconfirmed.length > 1 ? 's' : ''} ${unconfirmed.join(', ')} unconfirmed: use the FWO pay guide.` : ''}`,
      'Next: contact an Apprenticeship Support Network provider, then cost the apprentice (hiring.cost_calculator with role apprentice).',
    ],
    inputs: [
      used('trade', trade ?? 'unknown', input.trade ? 'supplied' : trade ? 'company_data' : 'assumed'),
      used('state', state ?? 'unknown', input.state ? 'supplied' : state ? 'company_data' : 'assumed'),
      used('employment_type', partTime ? 'part_time' : 'full_time', input.employment_type ? 'supplied' : 'assumed'),
      used('adult_apprentice', input.adult_apprentice ? 'yes' : 'no', input.adult_apprentice === undefined ? 'assumed' : 'supplied'),
    ],
    facts, disclaimer: GENERAL_INFORMATION,
  }
}
