// formation.requirements: the registrations, licences and insurance a trade needs in a state, each
// resting on cited facts (ABN, business name, GST, the state's licence and home-warranty thresholds,
// ARCtick for refrigerant work, the White Card). Read only; nothing is registered.
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { cite, GENERAL_INFORMATION } from '../../facts/facts.js'
import { readCompanySetupData, tradeAndState, tradeSentence, unconfirmedSentences } from './setup-context.js'
import { setupItems } from './setup-items.js'
import type { RequirementsInput, RequirementsResponse } from './setup-schema.js'

/** States whose sourced licensing covers air-conditioning work itself (the rest: ARCtick only). */
const STATE_COVERS_REFRIGERATION = new Set(['NSW', 'TAS', 'ACT'])

export async function formationRequirements(deps: Deps, principal: Principal, input: Static<typeof RequirementsInput>): Promise<Static<typeof RequirementsResponse>> {
  const company = await readCompanySetupData(deps, principal)
  const { trade, kinds, state, inputs } = tradeAndState(input, company.profile)
  const residential = input.residential ?? true
  inputs.push({ name: 'residential', value: String(residential), origin: input.residential === undefined ? 'assumed' : 'supplied' })
  inputs.push({ name: 'structure', value: input.structure ?? 'not given: every structure described', origin: input.structure ? 'supplied' : 'assumed' })
  const items = setupItems({ kinds, state, structure: input.structure ?? null, residential, plansEmployees: false })
    .filter((i) => i.group !== 'operations')
  const licensing = items.filter((i) => i.group === 'licensing' || i.group === 'insurance')
  const summary = [
    `${items.length} requirements${trade ? ` for ${trade}` : ''}${state ? ` in ${state}` : ''}: ${licensing.length} licensing or insurance, the rest registration and tax.`,
    ...[tradeSentence(trade, kinds)].filter((s): s is string => s !== null),
    ...(state ? [] : ['No state was given or recorded in your profile: state licences and home-warranty thresholds are not listed. Call again with state.']),
    ...(kinds.includes('refrigeration') && state && !STATE_COVERS_REFRIGERATION.has(state)
      ? [`The ARCtick licences apply nationally; for ${state}, check with the regulator which licence the electrical or plumbing parts of air-conditioning work need (not held here).`] : []),
    ...unconfirmedSentences(items),
  ]
  return {
    trade, trade_kinds: kinds, state, requirements: items, summary, inputs,
    facts: cite(items.flatMap((i) => i.fact_ids), company.today), disclaimer: GENERAL_INFORMATION,
  }
}
