// One pass of a subscription's delivery workflow (workflows/webhook-deliveries.ts): the deliveries
// due now, each enveloped, signed with the subscription's secret (and the previous one during a
// rotation) and POSTed, a few at a time; each attempt recorded with its outcome on its delivery in
// one transaction, after its POST. A crash between the POST and the record leaves the delivery due
// at the same attempt, so it is sent again (at-least-once, the receiver deduplicates on webhook-id),
// never lost. A failed attempt is due again after the retry schedule's next delay (or the
// receiver's Retry-After, if longer); after the last one the delivery fails.
import type { Deps } from '../../core/deps.js'
import { metricsOf } from '../../core/metrics.js'
import { withTenant } from '../../db/sql.js'
import { eachAtMost } from '../../temporal/outbox.js'
import { defineWorkflow } from '../../temporal/contract.js'
import { attemptRecord, retrySchedule, signAndPost, tellOwner } from './delivery.js'
import type { PostOutcome } from './http-post.js'
import { webhookDeliveries, webhookDeliveriesWorkflowId, type DeliveryPassResult, type WebhookDeliveriesActivities, type WebhookDeliveriesInput } from './workflows/webhook-deliveries.js'
import { clearSubscriptionFailing, disableFailingSubscription, disableGoneSubscription, insertAttempt, markSubscriptionFailing } from './queries.js'
import {
  dueDeliveries, earliestDue, failPendingDeliveries, findBatchSubscription, recordAttemptOnDelivery, type AttemptSettles, type BatchSubscription, type DueDelivery,
} from './queries/batch.js'

/** POSTs in flight at once for one subscription: enough to keep a fast receiver busy, few enough to be polite. */
export const DELIVERY_CONCURRENCY = 16
/** At most this many deliveries a pass; fewer when slow receivers could not be answered within PASS_BUDGET_MS. */
const MAX_BATCH = 100
/** A pass of receivers that all time out still ends well inside the local activity's 5 minute timeout. */
const PASS_BUDGET_MS = 120_000
const DAY_MS = 24 * 60 * 60 * 1000

export const webhookDeliveriesDefinition = defineWorkflow<WebhookDeliveriesActivities>()({
  workflow: webhookDeliveries,
  id: webhookDeliveriesWorkflowId,
  // Signalled while it runs; started again (a new run, same id) once it has ended idle or stopped.
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE',
  description: 'Delivers one subscription\'s webhooks in batches with retries, woken by a signal or its next retry\'s timer; one run at a time per subscription, continuing as new.',
})

/** The run's input: the retry schedule and idle time from the configuration. */
export function deliveriesRunInput(deps: Deps, keys: { companyId: string; subscriptionId: string }): WebhookDeliveriesInput {
  return { ...keys, scheduleMs: retrySchedule(deps), idleMs: deps.config.WEBHOOK_WORKFLOW_IDLE_MS }
}

type Outcome = 'delivered' | 'retry' | 'failed' | 'gone' | 'disabled'

export function batchSize(timeoutMs: number): number {
  const rounds = Math.max(1, Math.floor(PASS_BUDGET_MS / (timeoutMs + 5_000)))
  return Math.min(MAX_BATCH, rounds * DELIVERY_CONCURRENCY)
}

/** The activity: one pass over the subscription's due deliveries. */
export async function deliverWebhookBatch(deps: Deps, input: { companyId: string; subscriptionId: string; scheduleMs: number[] }): Promise<DeliveryPassResult> {
  const { companyId, subscriptionId } = input
  const counter = metricsOf(deps).webhookDeliveries
  const limit = batchSize(deps.config.WEBHOOK_TIMEOUT_MS)
  const now = deps.clock.now()
  const { sub, due } = await withTenant(deps.db, companyId, async (tx) => {
    const sub = await findBatchSubscription(tx, subscriptionId)
    return { sub, due: sub && active(sub) ? await dueDeliveries(tx, subscriptionId, now, limit) : [] }
  })
  if (!sub || !active(sub)) return stop(deps, companyId, subscriptionId)

  let switchedOff = false
  await eachAtMost(DELIVERY_CONCURRENCY, due, async (delivery) => {
    if (switchedOff) return // a 410 or a long failure switched the subscription off mid-pass
    try {
      const outcome = await attempt(deps, companyId, subscriptionId, sub, delivery, input.scheduleMs)
      counter.inc({ outcome })
      if (outcome === 'gone' || outcome === 'disabled') switchedOff = true
    } catch (error) {
      // Left due at the same attempt: the next pass (or this one retried) sends it again.
      counter.inc({ outcome: 'error' })
      deps.logger.warn({ err: error, companyId, deliveryId: delivery.id }, 'webhook attempt not recorded; it will be sent again')
    }
  })
  if (switchedOff) return stop(deps, companyId, subscriptionId, due.length)
  const next = await withTenant(deps.db, companyId, (tx) => earliestDue(tx, subscriptionId))
  return { attempted: due.length, full: due.length >= limit, nextDueInMs: next === null ? null : Math.max(0, next.getTime() - deps.clock.now().getTime()), stopped: false }
}

const active = (sub: BatchSubscription) => sub.status === 'active' && !sub.deleted_at

/** The subscription is disabled or removed: what is still pending fails, and the run ends. */
async function stop(deps: Deps, companyId: string, subscriptionId: string, attempted = 0): Promise<DeliveryPassResult> {
  const failed = await withTenant(deps.db, companyId, (tx) => failPendingDeliveries(tx, subscriptionId))
  if (failed) metricsOf(deps).webhookDeliveries.inc({ outcome: 'stopped' }, failed)
  return { attempted, full: false, nextDueInMs: null, stopped: true }
}

async function attempt(deps: Deps, companyId: string, subscriptionId: string, sub: BatchSubscription, d: DueDelivery, scheduleMs: number[]): Promise<Outcome> {
  const result = await signAndPost(deps, companyId, sub, d)
  const recorded = await withTenant(deps.db, companyId, (tx) => record(deps, tx, companyId, subscriptionId, d, result, scheduleMs))
  if (recorded.notify) await tellOwner(deps, companyId, { subscriptionId, url: sub.url, at: recorded.notify })
  return recorded.outcome
}

async function record(deps: Deps, tx: Parameters<Parameters<typeof withTenant>[2]>[0], companyId: string, subscriptionId: string, d: DueDelivery, result: PostOutcome, scheduleMs: number[]): Promise<{ outcome: Outcome; notify?: Date }> {
  const at = deps.clock.now()
  const last = d.attempt >= scheduleMs.length
  const inserted = await insertAttempt(tx, companyId, { deliveryId: d.id, attempt: d.attempt, run: d.run, ...attemptRecord(result) }, at)
  // Another pass recorded this attempt first (only if two ran at once): its record stands.
  if (!inserted) return { outcome: result.ok ? 'delivered' : last ? 'failed' : 'retry' }
  const settle = (s: AttemptSettles) => recordAttemptOnDelivery(tx, d, at, s)
  if (result.ok) {
    await settle({ status: 'delivered' })
    await clearSubscriptionFailing(tx, subscriptionId)
    return { outcome: 'delivered' }
  }
  if (result.status === 410) {
    await settle({ status: 'failed' })
    await disableGoneSubscription(tx, subscriptionId, at)
    return { outcome: 'gone' }
  }
  const failingSince = await markSubscriptionFailing(tx, subscriptionId, at)
  if (at.getTime() - failingSince.getTime() >= deps.config.WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) {
    await settle({ status: 'failed' })
    await disableFailingSubscription(tx, subscriptionId, deps.config.WEBHOOK_DISABLE_AFTER_DAYS, at)
    return { outcome: 'disabled', notify: at }
  }
  if (last) {
    await settle({ status: 'failed' })
    return { outcome: 'failed' }
  }
  const wait = Math.max(scheduleMs[d.attempt] ?? 0, (result.retryAfterSeconds ?? 0) * 1000)
  await settle({ status: 'pending', nextAt: new Date(at.getTime() + wait) })
  return { outcome: 'retry' }
}
