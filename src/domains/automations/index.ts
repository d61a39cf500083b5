import { defineDomain } from '../../core/domain.js'
import { automationOperations } from './instant-response/operation.js'
import { controlOperations } from './engine/control-operations.js'
import { controlActivities } from './engine/control-activities.js'
import { teamNotifyDefinition } from './team-notify/team-notify.js'
import { longRunningActivities, longRunningOperations, longRunningWorkflows } from './engine/long-running.js'
import { clientAutomationActivities, clientAutomationOperations, clientAutomationWorkflows } from './client-outreach/index.js'
import { jobFlowActivities, jobFlowOperations, jobFlowWorkflows } from './job-flow/index.js'
import { reportingOperations } from './reports/index.js'
import { instantResponseDefinition, markLeadContacted, planInstantResponse } from './instant-response/instant-response.js'

/** Automations: the toolset is called "workflows", as in the spec. */
export const automationsDomain = defineDomain({
  name: 'workflows',
  description: 'Automations run as Temporal workflows: instant lead response, follow-ups, chasing, approvals.',
  operations: [...automationOperations, ...controlOperations, ...longRunningOperations, ...jobFlowOperations, ...clientAutomationOperations, ...reportingOperations],
  activities: (deps) => ({
    ...longRunningActivities(deps),
    ...jobFlowActivities(deps),
    ...clientAutomationActivities(deps),
    ...controlActivities(deps),
    planInstantResponse: (input: { companyId: string; leadId: string }) => planInstantResponse(deps, input.companyId, input.leadId),
    markLeadContacted: (input: { companyId: string; leadId: string }) => markLeadContacted(deps, input.companyId, input.leadId),
  }),
  workflows: [teamNotifyDefinition, instantResponseDefinition, ...longRunningWorkflows, ...jobFlowWorkflows, ...clientAutomationWorkflows],
})
