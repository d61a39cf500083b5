// The trial of a paid plan chosen without a payment method: one workflow per trial period (the id
// carries the period's end), so a later trial of the same company gets its own run.
import { defineWorkflow, workflowStart } from '../../temporal/contract.js'
import { trialLifecycle, trialLifecycleWorkflowId, type TrialLifecycleActivities } from './workflows/trial-lifecycle.js'

export const trialLifecycleDefinition = defineWorkflow<TrialLifecycleActivities>()({
  workflow: trialLifecycle,
  id: trialLifecycleWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Waits until a trial ends and, unless the company has paid, marks it expired (back to free features). One run per trial period.',
})

export function trialStart(companyId: string, trialEndsAt: Date) {
  return workflowStart(trialLifecycleDefinition, { companyId, trialEndsAt: trialEndsAt.toISOString() })
}
