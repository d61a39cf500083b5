// A paid plan chosen without a payment method runs as a trial. This workflow waits until the trial
// ends and then, unless the company has paid meanwhile, marks it expired so it falls back to free
// features. (Access checks also compare trial_ends_at themselves, so a late run never over-grants.)
import { proxyActivities, sleep } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'

export interface TrialLifecycleInput {
  companyId: string
  /** ISO date-time the trial ends. */
  trialEndsAt: string
}

const { expireTrialIfUnpaid } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
})

export async function trialLifecycle(input: TrialLifecycleInput): Promise<{ expired: boolean }> {
  const remaining = Date.parse(input.trialEndsAt) - Date.now()
  if (remaining > 0) await sleep(remaining)
  return expireTrialIfUnpaid({ companyId: input.companyId })
}
