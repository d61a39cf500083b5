// The activity set the worker registers, assembled from the domains' activity factories
// (src/domains/index.ts), each a thin wrapper over its domain's services, built from injected deps
// so tests run the real ones against their own database. Workflows do not import this: each
// declares its own activity interface (workflows/<name>.ts), which its domain's factory satisfies;
// WorkflowActivities below checks that the whole set serves every workflow.
import type { Deps } from '../src/core/deps.js'
import type { ActivitiesOf } from '../src/core/composition.js'
import { composition, type DOMAINS } from '../src/domains/index.js'
import type { WorkflowActivities } from '../workflows/activities.js'

export type Activities = ActivitiesOf<typeof DOMAINS>

export function createActivities(deps: Deps): Activities {
  return composition.createActivities(deps)
}

/** Fails to compile when a workflow asks for an activity no domain provides, or with another type. */
export type ServesEveryWorkflow = Activities extends WorkflowActivities ? true : never
const _serves: ServesEveryWorkflow = true
void _serves
