import { defineDomain } from '../../core/domain.js'
import { subcontractorOperations, subcontractorsDispatchOperation, subcontractorsPlannedTools } from './operations.js'
import type { JobChanged } from '../jobs/events.js'
import { dispatchDefinition, finishDispatch, nudgeDispatchOfCancelledJob, planDispatchOffer, settleDispatchOffer } from './dispatch.js'
import type { DispatchActivities } from './workflows/dispatch.js'
import type { PendingActionActivities } from '../../../workflows/approval.js'

export const subcontractorsDomain = defineDomain({
  name: 'subcontractors',
  description: 'Subcontractors: register, verify, list and dispatch.',
  operations: [...subcontractorOperations, subcontractorsDispatchOperation, ...subcontractorsPlannedTools],
  activities: (deps) => ({
    planDispatchOffer: (input) => planDispatchOffer(deps, input),
    settleDispatchOffer: (input) => settleDispatchOffer(deps, input),
    finishDispatch: (input) => finishDispatch(deps, input),
  }) satisfies Omit<DispatchActivities, 'sendMessage' | keyof PendingActionActivities>, // sendMessage: comms; the pending-action record: the approval engine (workflows)
  workflows: [dispatchDefinition],
  reactions: [{
    name: 'dispatch: a cancelled job stops its dispatch',
    on: ['job.changed'],
    async afterCommit(deps, event) {
      const job = event.payload as JobChanged
      if (job.status === 'Cancelled') await nudgeDispatchOfCancelledJob(deps, event.companyId, job.jobId)
    },
  }],
  events: ['subcontractor.verified', 'dispatch.offered', 'dispatch.accepted', 'dispatch.declined', 'dispatch.exhausted'],
})
