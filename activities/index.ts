// The activity set is assembled from the domains' activity factories (src/domains/index.ts), each
// a thin wrapper over its domain's services, built from injected deps so tests run the real ones
// against their own database. Workflows `import type { Activities }` from here.
import type { Deps } from '../src/core/deps.js'
import type { ActivitiesOf } from '../src/core/composition.js'
import { composition, type DOMAINS } from '../src/domains/index.js'

export type Activities = ActivitiesOf<typeof DOMAINS>

export function createActivities(deps: Deps): Activities {
  return composition.createActivities(deps)
}
