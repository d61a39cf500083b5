// No longer started: webhookDeliveries (one run per subscription) replaced it. Kept unchanged, with its
// replay fixture, so runs begun before that change replay and finish; delete once none is open.
// Delivers one event to one subscription: attempts at the schedule's delays (immediately, 5 s,
// 5 min, 30 min, 2 h, 5 h, 10 h, 10 h by default; later when the receiver's Retry-After asks),
// stopping at the first success, at 410 Gone, or when the subscription is disabled. Each attempt is
// an activity that records itself once, so a retried activity or a replayed workflow never sends
// an attempt twice.
import { proxyLocalActivities, sleep } from '@temporalio/workflow'

export interface WebhookDeliveryInput {
  companyId: string
  deliveryId: string
  /** 0 for the first delivery, then one more for each redelivery. */
  run: number
  /** Delay before each attempt, in ms (the policy is part of the input, so tests run it short). */
  scheduleMs: number[]
}

export interface WebhookDeliveryResult {
  outcome: string
  attempts: number
}

/** One run per delivery and redelivery. */
export const webhookDeliveryWorkflowId = (keys: Pick<WebhookDeliveryInput, 'companyId' | 'deliveryId' | 'run'>) => `webhook:${keys.companyId}:${keys.deliveryId}:${keys.run}`

export interface AttemptResult {
  outcome: 'delivered' | 'retry' | 'failed' | 'gone' | 'disabled' | 'stopped'
  retryAfterSeconds?: number | null
}

export interface WebhookDeliveryActivities {
  /** One attempt, recorded once per (delivery, run, attempt): a retried activity finds the attempt it made. */
  attemptWebhookDelivery(input: { companyId: string; deliveryId: string; run: number; attempt: number; last: boolean }): Promise<AttemptResult>
}

// A local activity: it runs inside the workflow task, so a delivery that succeeds first time is one
// workflow task from start to finish (no activity task round trip through the server), which is
// what lets one worker deliver hundreds a second. It is recorded in history like any activity.
const { attemptWebhookDelivery } = proxyLocalActivities<WebhookDeliveryActivities>({
  // Covers the 15 s HTTP timeout plus the bookkeeping; only infrastructure failures retry here.
  startToCloseTimeout: '45 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
})

export async function webhookDelivery(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const schedule = input.scheduleMs
  let wait = schedule[0] ?? 0
  for (let i = 0; i < schedule.length; i++) {
    if (wait > 0) await sleep(wait)
    const result = await attemptWebhookDelivery({ companyId: input.companyId, deliveryId: input.deliveryId, run: input.run, attempt: i + 1, last: i === schedule.length - 1 })
    if (result.outcome !== 'retry') return { outcome: result.outcome, attempts: i + 1 }
    const next = schedule[i + 1] ?? 0
    wait = Math.max(next, (result.retryAfterSeconds ?? 0) * 1000)
  }
  return { outcome: 'failed', attempts: schedule.length }
}
