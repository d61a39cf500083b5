// A paid plan chosen without a payment method runs as a trial. This workflow waits until the trial
// ends and then, unless the company has paid meanwhile, marks it expired so it falls back to free
// features. (Access checks also compare trial_ends_at themselves, so a late run never over-grants.)
import { proxyActivities, sleep } from '@temporalio/workflow'

export interface TrialLifecycleInput {
  companyId: string
  /** ISO date-time the trial ends. */
  trialEndsAt: string
}

export interface TrialLifecycleResult {
  expired: boolean
}

/** One run per trial period: the id carries the period's end. */
export const trialLifecycleWorkflowId = (keys: Pick<TrialLifecycleInput, 'companyId' | 'trialEndsAt'>) => `trial:${keys.companyId}:${keys.trialEndsAt}`

export interface TrialLifecycleActivities {
  expireTrialIfUnpaid(input: { companyId: string }): Promise<TrialLifecycleResult>
}

const { expireTrialIfUnpaid } = proxyActivities<TrialLifecycleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
})

export async function trialLifecycle(input: TrialLifecycleInput): Promise<TrialLifecycleResult> {
  const remaining = Date.parse(input.trialEndsAt) - Date.now()
  if (remaining > 0) await sleep(remaining)
  return expireTrialIfUnpaid({ companyId: input.companyId })
}
