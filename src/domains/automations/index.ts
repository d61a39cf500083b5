import { defineDomain } from '../../core/domain.js'
import { automationOperations } from './operations.js'
import { workflowsPlannedTools } from './workflow-tools.js'
import { controlOperations } from './control-operations.js'
import { controlActivities } from './control-activities.js'
import { teamNotifyDefinition } from './team-notify.js'
import { longRunningActivities, longRunningOperations, longRunningWorkflows } from './long-running.js'
import { clientAutomationActivities, clientAutomationOperations, clientAutomationWorkflows } from './client-automations.js'
import { jobFlowActivities, jobFlowOperations, jobFlowWorkflows } from './job-flow.js'
import { reportingOperations } from './reporting-automations.js'
import { instantResponseDefinition, markLeadContacted, planInstantResponse } from './instant-response.js'
import type { AutomationWorkflowActivities } from './workflow-activities.js'

/** Automations: the toolset is called "workflows", as in the spec. */
export const automationsDomain = defineDomain({
  name: 'workflows',
  description: 'Automations run as Temporal workflows: instant lead response, follow-ups, chasing, approvals.',
  operations: [...automationOperations, ...controlOperations, ...longRunningOperations, ...jobFlowOperations, ...clientAutomationOperations, ...reportingOperations, ...workflowsPlannedTools],
  activities: (deps) => ({
    ...longRunningActivities(deps),
    ...jobFlowActivities(deps),
    ...clientAutomationActivities(deps),
    ...controlActivities(deps),
    planInstantResponse: (input: { companyId: string; leadId: string }) => planInstantResponse(deps, input.companyId, input.leadId),
    markLeadContacted: (input: { companyId: string; leadId: string }) => markLeadContacted(deps, input.companyId, input.leadId),
  }) satisfies AutomationWorkflowActivities,
  workflows: [teamNotifyDefinition, instantResponseDefinition, ...longRunningWorkflows, ...jobFlowWorkflows, ...clientAutomationWorkflows],
})
