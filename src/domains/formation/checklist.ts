// formation.checklist: every task to set up and run the business legally, grouped (registration,
// tax, licensing, insurance, employment, operations), each with when it is due and whether the
// company's data or the call shows it done (ABN recorded in the profile; registered for GST).
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { formatCents } from '../../core/money.js'
import { cite, factValue, GENERAL_INFORMATION } from '../../facts/facts.js'
import { readCompanySetupData, tradeAndState, tradeSentence, unconfirmedSentences } from './setup-context.js'
import { gstDays, setupItems, type SetupItem } from './setup-items.js'
import type { ChecklistInput, ChecklistItemSchema, ChecklistResponse, SetupGroup } from './setup-schema.js'

const GROUP_ORDER: SetupGroup[] = ['registration', 'tax', 'licensing', 'insurance', 'employment', 'operations']
type ChecklistItem = Static<typeof ChecklistItemSchema>

export async function formationChecklist(deps: Deps, principal: Principal, input: Static<typeof ChecklistInput>): Promise<Static<typeof ChecklistResponse>> {
  const company = await readCompanySetupData(deps, principal)
  const { trade, kinds, state, inputs } = tradeAndState(input, company.profile)
  const plansEmployees = input.plans_employees ?? false
  inputs.push(
    { name: 'structure', value: input.structure ?? 'not given: every structure described', origin: input.structure ? 'supplied' : 'assumed' },
    { name: 'plans_employees', value: String(plansEmployees), origin: input.plans_employees === undefined ? 'assumed' : 'supplied' },
    { name: 'registered_for_gst', value: input.registered_for_gst === undefined ? 'not given: not counted as done' : String(input.registered_for_gst), origin: input.registered_for_gst === undefined ? 'assumed' : 'supplied' },
    { name: 'invoiced_turnover_12_months', value: `${formatCents(company.turnoverCents)} ex GST`, origin: 'company' },
  )
  const items = setupItems({ kinds, state, structure: input.structure ?? null, residential: true, plansEmployees })
  const done = (i: SetupItem): ChecklistItem => {
    if (i.key === 'abn' && company.profile.abn) return { ...i, done: true, done_because: `ABN ${company.profile.abn} is recorded in your profile.` }
    if (i.key === 'structure' && input.structure) return { ...i, done: true, done_because: `You said the business is a ${input.structure.replace('_', ' ')}.` }
    if ((i.key === 'gst' || i.key === 'bas') && input.registered_for_gst) return { ...i, done: i.key === 'gst', done_because: i.key === 'gst' ? 'You said the business is registered for GST.' : null }
    return { ...i, done: false, done_because: null }
  }
  const checked = items.map(done)
  const groups = GROUP_ORDER.map((group) => ({ group, items: checked.filter((i) => i.group === group) })).filter((g) => g.items.length > 0)
  const doneCount = checked.filter((i) => i.done).length
  const threshold = factValue('gst.registration_threshold')
  const summary = [
    `${doneCount} of ${checked.length} tasks done${trade ? ` for ${trade}` : ''}${state ? ` in ${state}` : ''}.`,
    ...[tradeSentence(trade, kinds)].filter((s): s is string => s !== null),
    ...(state ? [] : ['No state was given or recorded in your profile: state licences and home-warranty insurance are not listed. Call again with state.']),
    ...(input.registered_for_gst !== true && company.turnoverCents >= threshold
      ? [`Your invoices over the last 12 months total ${formatCents(company.turnoverCents)} ex GST, at or over the GST registration threshold of ${formatCents(threshold)}: register for GST within ${gstDays()} days of reaching it if you have not.`] : []),
    ...(plansEmployees ? [] : ['Employer tasks (PAYG withholding, Single Touch Payroll, super, workers\' compensation) are left out: call again with plans_employees true before hiring.']),
    ...unconfirmedSentences(items),
  ]
  return {
    trade, state, groups, done_count: doneCount, total_count: checked.length, summary, inputs,
    facts: cite(items.flatMap((i) => i.fact_ids), company.today), disclaimer: GENERAL_INFORMATION,
  }
}
