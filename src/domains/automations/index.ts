import { defineDomain } from '../../core/domain.js'
import { automationOperations } from './operations.js'
import { workflowsPlannedTools } from './workflow-tools.js'
import { instantResponseDefinition, markLeadContacted, planInstantResponse } from './instant-response.js'

/** Automations: the toolset is called "workflows", as in the spec. */
export const automationsDomain = defineDomain({
  name: 'workflows',
  description: 'Automations run as Temporal workflows: instant lead response, follow-ups, chasing, approvals.',
  operations: [...automationOperations, ...workflowsPlannedTools],
  activities: (deps) => ({
    planInstantResponse: (input: { companyId: string; leadId: string }) => planInstantResponse(deps, input.companyId, input.leadId),
    markLeadContacted: (input: { companyId: string; leadId: string }) => markLeadContacted(deps, input.companyId, input.leadId),
  }),
  workflows: [instantResponseDefinition],
})
