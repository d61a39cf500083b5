// The activity set the worker registers, assembled from the domains' activity factories
// (src/domains/index.ts), each a thin wrapper over its domain's services, built from injected deps
// so tests run the real ones against their own database. Workflows do not import this: each
// declares its own activity interface (src/domains/<domain>/workflows/<name>.ts), which its
// definition carries (defineWorkflow<XActivities>()); the checks below make the whole set serve
// every composed workflow, derived from the domain list, so a new workflow is checked without
// being listed here.
import type { Deps } from '../src/core/deps.js'
import type { ActivitiesOf, WorkflowActivitiesOf } from '../src/core/composition.js'
import { composition, type DOMAINS } from '../src/domains/index.js'

export type Activities = ActivitiesOf<typeof DOMAINS>
export type WorkflowActivities = WorkflowActivitiesOf<typeof DOMAINS>

export function createActivities(deps: Deps): Activities {
  return composition.createActivities(deps)
}

/** Fails to compile when a workflow asks for an activity no domain provides, or with another type. */
export type ServesEveryWorkflow = Activities extends WorkflowActivities ? true : never
const _serves: ServesEveryWorkflow = true
void _serves

/** A definition typed loosely (any) would make the check above pass for anything: it must not. */
type IsAny<T> = 0 extends 1 & T ? true : false
const _derived: [IsAny<WorkflowActivities>, 'sendMessage' extends keyof WorkflowActivities ? true : false, 'checkQuoteFollowUp' extends keyof WorkflowActivities ? true : false] = [false, true, true]
void _derived
