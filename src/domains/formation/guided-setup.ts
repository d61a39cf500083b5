// formation.guided_setup: the setup tasks as numbered steps in the order to do them, each marked
// done (from the company's profile, e.g. an ABN recorded, or from the answers given), next (the
// first not done), to do, or optional (GST when the expected turnover is under the threshold).
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { dollarsToCents, formatCents } from '../../core/money.js'
import { cite, factValue, GENERAL_INFORMATION } from '../../facts/facts.js'
import { readCompanySetupData, tradeAndState, tradeSentence, unconfirmedSentences, type CompanySetupData } from './setup-context.js'
import { gstDays, setupItems, type SetupItem } from './setup-items.js'
import type { GuidedSetupInput, GuidedSetupResponse, GuidedStepSchema, StepStatus } from './setup-schema.js'

type Input = Static<typeof GuidedSetupInput>
type Step = Static<typeof GuidedStepSchema>

/** A step's status before "next" is picked: done, optional or to_do, with why. */
function statusOf(i: SetupItem, input: Input, company: CompanySetupData): { status: StepStatus; because: string | null } {
  const threshold = factValue('gst.registration_threshold')
  switch (i.key) {
    case 'structure':
      return input.structure ? { status: 'done', because: `You chose ${input.structure.replace('_', ' ')}.` } : { status: 'to_do', because: null }
    case 'abn':
      if (company.profile.abn) return { status: 'done', because: `ABN ${company.profile.abn} is recorded in your profile.` }
      return input.has_abn ? { status: 'done', because: 'You said you have an ABN.' } : { status: 'to_do', because: 'No ABN in your profile: record it once you have one.' }
    case 'gst':
    case 'bas': {
      if (company.turnoverCents >= threshold) return { status: 'to_do', because: `Your invoices over the last 12 months total ${formatCents(company.turnoverCents)} ex GST, at or over the ${formatCents(threshold)} threshold.` }
      if (input.expected_annual_turnover === undefined) return { status: 'to_do', because: 'No expected turnover given: check it against the threshold.' }
      const expected = dollarsToCents(input.expected_annual_turnover)
      return expected >= threshold
        ? { status: 'to_do', because: `Your expected turnover of ${formatCents(expected)} reaches the ${formatCents(threshold)} threshold: register within ${gstDays()} days of reaching it.` }
        : { status: 'optional', because: `Your expected turnover of ${formatCents(expected)} is under the ${formatCents(threshold)} threshold: registering is optional until it reaches it.` }
    }
    default:
      return { status: 'to_do', because: null }
  }
}

export async function guidedSetup(deps: Deps, principal: Principal, input: Input): Promise<Static<typeof GuidedSetupResponse>> {
  const company = await readCompanySetupData(deps, principal)
  const { trade, kinds, state, inputs } = tradeAndState(input, company.profile)
  const plansEmployees = input.plans_employees ?? false
  inputs.push(
    { name: 'structure', value: input.structure ?? 'not given: choosing one is the first step', origin: input.structure ? 'supplied' : 'assumed' },
    { name: 'has_abn', value: company.profile.abn ? 'true (ABN in your profile)' : String(input.has_abn ?? false), origin: company.profile.abn ? 'company' : input.has_abn === undefined ? 'assumed' : 'supplied' },
    { name: 'expected_annual_turnover', value: input.expected_annual_turnover === undefined ? 'not given' : `${formatCents(dollarsToCents(input.expected_annual_turnover))}`, origin: input.expected_annual_turnover === undefined ? 'assumed' : 'supplied' },
    { name: 'invoiced_turnover_12_months', value: `${formatCents(company.turnoverCents)} ex GST`, origin: 'company' },
    { name: 'plans_employees', value: String(plansEmployees), origin: input.plans_employees === undefined ? 'assumed' : 'supplied' },
  )
  const items = setupItems({ kinds, state, structure: input.structure ?? null, residential: true, plansEmployees })
  let next: string | null = null
  const steps: Step[] = items.map((i, n) => {
    const { status, because } = statusOf(i, input, company)
    const isNext = status === 'to_do' && next === null
    if (isNext) next = i.key
    return { step: n + 1, ...i, status: isNext ? 'next' : status, status_because: because }
  })
  const nextStep = steps.find((s) => s.status === 'next')
  const doneCount = steps.filter((s) => s.status === 'done').length
  const summary = [
    `${steps.length} steps to set up${trade ? ` a ${trade} business` : ''}${state ? ` in ${state}` : ''}; ${doneCount} done.`,
    nextStep ? `Next: step ${nextStep.step}, ${nextStep.title}.` : 'Every required step is done.',
    ...[tradeSentence(trade, kinds)].filter((s): s is string => s !== null),
    ...(state ? [] : ['No state was given or recorded in your profile: state licences and home-warranty insurance are not in the plan. Call again with state.']),
    ...unconfirmedSentences(items),
  ]
  return {
    trade, state, structure: input.structure ?? null, steps, next, done_count: doneCount, summary, inputs,
    facts: cite(items.flatMap((i) => i.fact_ids), company.today), disclaimer: GENERAL_INFORMATION,
  }
}
