import { defineDomain } from '../../core/domain.js'
import { billingOperations } from './operations.js'
import { getBilling, getUsage } from './service.js'
import { expireTrialIfUnpaid } from './subscription.js'
import { trialLifecycleDefinition } from './trial.js'
import type { TrialLifecycleActivities } from './workflows/trial-lifecycle.js'

export const billingDomain = defineDomain({
  name: 'billing',
  description: 'Plans, subscription, checkout and portal sessions, and this month\'s usage.',
  operations: billingOperations,
  resources: [{
    uri: 'service://billing', name: 'Billing', description: 'Subscription, plan, feature access and this month\'s usage.',
    read: async (deps, principal) => ({ ...(await getBilling(deps, principal)), usage: (await getUsage(deps, principal)).usage }),
  }],
  activities: (deps) => ({
    async expireTrialIfUnpaid(input: { companyId: string }): Promise<{ expired: boolean }> {
      return { expired: await expireTrialIfUnpaid(deps, input.companyId) }
    },
  }) satisfies TrialLifecycleActivities,
  workflows: [trialLifecycleDefinition],
})
