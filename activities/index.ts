// Activities are thin wrappers over domain services, built from injected deps so tests run the
// real ones against their own database.
import type { Deps } from '../src/core/deps.js'
import { expireTrialIfUnpaid } from '../src/domains/billing/subscription.js'

export function createActivities(deps: Deps) {
  return {
    async expireTrialIfUnpaid(input: { companyId: string }): Promise<{ expired: boolean }> {
      return { expired: await expireTrialIfUnpaid(deps, input.companyId) }
    },
  }
}

export type Activities = ReturnType<typeof createActivities>
