import { defineDomain } from '../../core/domain.js'
import { subcontractorOperations, subcontractorsDispatchOperation, subcontractorsPlannedTools } from './operations.js'
import { dispatchDefinition, finishDispatch, planDispatchOffer, settleDispatchOffer } from './dispatch.js'
import type { DispatchActivities } from './workflows/dispatch.js'

export const subcontractorsDomain = defineDomain({
  name: 'subcontractors',
  description: 'Subcontractors: register, verify, list and dispatch.',
  operations: [...subcontractorOperations, subcontractorsDispatchOperation, ...subcontractorsPlannedTools],
  activities: (deps) => ({
    planDispatchOffer: (input) => planDispatchOffer(deps, input),
    settleDispatchOffer: (input) => settleDispatchOffer(deps, input),
    finishDispatch: (input) => finishDispatch(deps, input),
  }) satisfies Omit<DispatchActivities, 'sendMessage'>, // sendMessage: comms
  workflows: [dispatchDefinition],
  events: ['dispatch.offered', 'dispatch.accepted', 'dispatch.declined', 'dispatch.exhausted'],
})
