// Automations: features on one engine. Each automation lives in its own folder (its catalogue entry
// with typed settings, tools, activities, workflow definitions and reactions to domain events);
// FEATURES below is the one list they are composed from. No domain outside automations/ imports
// from here (test/automation-boundaries.test.ts): domains emit events, automations react.
import { defineDomain } from '../../core/domain.js'
import type { Reaction } from '../../core/reactions.js'
import { AUTOMATION_TOGGLED, AutomationCatalogue, controlOperations, engineActivities, featureActivities, featureWorkflows } from './engine/index.js'
import { instantResponseFeature } from './instant-response/index.js'
import { teamNotifyFeature } from './team-notify/index.js'
import { quoteFollowUpFeature } from './quote-follow-up/index.js'
import { paymentChaseFeature } from './payment-chase/index.js'
import { jobFlowFeature } from './job-flow/index.js'
import { clientOutreachFeature } from './client-outreach/index.js'
import { dailySummaryFeature } from './daily-summary/index.js'
import { syncContactFeature } from './sync-contact/index.js'
import { reportsFeature } from './reports/index.js'
import type { ActivitiesNeededBy } from '../../temporal/contract.js'
import type { SendMessageActivities } from '../../../workflows/messages.js'

/** The automation features, in the toolset's order (workflows.list shows the catalogue in this order too). */
const FEATURES = [
  instantResponseFeature,
  teamNotifyFeature,
  quoteFollowUpFeature,
  paymentChaseFeature,
  jobFlowFeature,
  clientOutreachFeature,
  dailySummaryFeature,
  syncContactFeature,
  reportsFeature,
] as const

const automationCatalogue = new AutomationCatalogue(FEATURES.flatMap((f) => f.automations))
const activities = featureActivities(FEATURES)
const workflows = featureWorkflows(FEATURES)
/** What the automations' workflows ask of this domain's activities: all of it but sendMessage, which comms provides. */
type AutomationWorkflowActivities = Omit<ActivitiesNeededBy<typeof workflows>, keyof SendMessageActivities>
const [first, ...rest] = FEATURES

/** Automations: the toolset is called "workflows", as in the spec. */
export const automationsDomain = defineDomain({
  name: 'workflows',
  description: 'Automations run as Temporal workflows: instant lead response, follow-ups, chasing, approvals.',
  // The control tools (workflows.list ... reject_action) follow workflows.instant_response, as in the spec.
  operations: [...first.operations, ...controlOperations(automationCatalogue), ...rest.flatMap((f) => f.operations)],
  activities: (deps) => ({ ...engineActivities(deps), ...activities(deps) }) satisfies AutomationWorkflowActivities,
  workflows,
  internalEvents: [AUTOMATION_TOGGLED],
  reactions: FEATURES.flatMap((f): Reaction[] => ('reactions' in f ? f.reactions : [])),
})
