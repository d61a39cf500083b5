// The per-delivery workflow's attempt activity, kept (with webhookDelivery) only while runs started
// before the per-subscription design (delivery-batch.ts) finish; also the retry schedule, the body
// and the owner's notice, which both designs use.
// One delivery attempt: the event as stored (the resource after the change), enveloped, signed with
// the subscription's secret (and the previous one during a rotation), POSTed to an address that is
// checked when connected to, and recorded once per (delivery, run, attempt).
import type { Deps } from '../../core/deps.js'
import { metricsOf } from '../../core/metrics.js'
import { withTenant } from '../../db/sql.js'
import { defineWorkflow } from '../../temporal/contract.js'
import { webhookDelivery, webhookDeliveryWorkflowId, type AttemptResult, type WebhookDeliveryInput, type WebhookDeliveryActivities } from './workflows/webhook-delivery.js'
import { sendMessage } from '../comms/send.js'
import { escapeHtml } from '../../core/html-escape.js'
import { postWebhook, type PostOutcome } from './http-post.js'
import { signDelivery } from './signing.js'
import {
  clearSubscriptionFailing, countDeliveryAttempt, disableFailingSubscription, disableGoneSubscription, failPendingDelivery, findAttempt,
  findCompanyContact, findDeliveryToAttempt, insertAttempt, markDelivered, markDeliveryFailed, markSubscriptionFailing, type DeliveredEvent, type DeliveryToAttempt,
} from './queries.js'

export type { AttemptResult, WebhookDeliveryInput }

export const webhookDeliveryDefinition = defineWorkflow<WebhookDeliveryActivities>()({
  workflow: webhookDelivery,
  id: webhookDeliveryWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'No longer started (webhookDeliveries replaced it): delivers one event to one subscription with retries, one run per delivery; registered until the runs begun before drain.',
})

export const DEFAULT_RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
export const MAX_PAYLOAD_BYTES = 20_000

/** Delay before each attempt, ms: WEBHOOK_RETRY_SCHEDULE_MS, or the default. */
export function retrySchedule(deps: Deps): number[] {
  const configured = deps.config.WEBHOOK_RETRY_SCHEDULE_MS
  const scheduleMs = configured ? configured.split(',').map((s) => Number(s.trim())).filter((n) => Number.isFinite(n) && n >= 0) : DEFAULT_RETRY_SCHEDULE_MS
  return scheduleMs.length ? scheduleMs : DEFAULT_RETRY_SCHEDULE_MS
}

/** The body a receiver gets: the envelope with the full resource, or a pointer when it would pass 20 KB. */
export function deliveryBody(row: Pick<DeliveryToAttempt, 'event_id' | 'event_type' | 'created_at' | 'payload' | 'entity_type' | 'entity_id'>, companyId: string): string {
  const envelope = { id: `evt_${row.event_id}`, type: row.event_type, created_at: row.created_at.toISOString(), company_id: companyId }
  const body = JSON.stringify({ ...envelope, data: row.payload })
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body
  return JSON.stringify({ ...envelope, data: { truncated: true, entity_type: row.entity_type, entity_id: row.entity_id, note: 'The resource is over 20 KB; read it through the API.' } })
}

const DAY_MS = 24 * 60 * 60 * 1000

type AttemptInput = { companyId: string; deliveryId: string; run: number; attempt: number; last: boolean }

/** One attempt, counted by outcome (tradie_webhook_deliveries_total); a thrown attempt is "error". */
export async function attemptWebhookDelivery(deps: Deps, input: AttemptInput): Promise<AttemptResult> {
  const counter = metricsOf(deps).webhookDeliveries
  try {
    const result = await attempt(deps, input)
    counter.inc({ outcome: result.outcome })
    return result
  } catch (error) {
    counter.inc({ outcome: 'error' })
    throw error
  }
}

async function attempt(deps: Deps, input: AttemptInput): Promise<AttemptResult> {
  const { companyId, deliveryId } = input
  const row = await withTenant(deps.db, companyId, (tx) => findDeliveryToAttempt(tx, deliveryId))
  if (!row) return { outcome: 'stopped' }
  if (row.status === 'delivered') return { outcome: 'delivered' }
  if (row.deleted_at || row.sub_status !== 'active') {
    await withTenant(deps.db, companyId, (tx) => failPendingDelivery(tx, deliveryId))
    return { outcome: 'stopped' }
  }
  // A retried activity finds the attempt it already made.
  const done = await withTenant(deps.db, companyId, (tx) => findAttempt(tx, deliveryId, input.run, input.attempt))
  if (done) return done.ok ? { outcome: 'delivered' } : done.response_status === 410 ? { outcome: 'gone' } : { outcome: input.last ? 'failed' : 'retry' }

  const result = await signAndPost(deps, companyId, row, row)

  return withTenant(deps.db, companyId, async (tx) => {
    const at = deps.clock.now()
    const inserted = await insertAttempt(tx, companyId, { deliveryId, attempt: input.attempt, run: input.run, ...attemptRecord(result) }, at)
    if (!inserted) return { outcome: input.last ? 'failed' as const : 'retry' as const }
    await countDeliveryAttempt(tx, deliveryId, at)
    if (result.ok) {
      await markDelivered(tx, deliveryId, at)
      await clearSubscriptionFailing(tx, row.subscription_id)
      return { outcome: 'delivered' as const }
    }
    if (result.status === 410) {
      await markDeliveryFailed(tx, deliveryId)
      await disableGoneSubscription(tx, row.subscription_id, at)
      return { outcome: 'gone' as const }
    }
    const failingSince = await markSubscriptionFailing(tx, row.subscription_id, at)
    if (at.getTime() - failingSince.getTime() >= deps.config.WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) {
      await markDeliveryFailed(tx, deliveryId)
      await disableFailingSubscription(tx, row.subscription_id, deps.config.WEBHOOK_DISABLE_AFTER_DAYS, at)
      return { outcome: 'disabled' as const, notify: { subscriptionId: row.subscription_id, url: row.url, at } }
    }
    if (input.last) {
      await markDeliveryFailed(tx, deliveryId)
      return { outcome: 'failed' as const }
    }
    return { outcome: 'retry' as const, retryAfterSeconds: result.retryAfterSeconds }
  }).then(async (outcome) => {
    if ('notify' in outcome && outcome.notify) await tellOwner(deps, companyId, outcome.notify)
    return { outcome: outcome.outcome, retryAfterSeconds: 'retryAfterSeconds' in outcome ? outcome.retryAfterSeconds : null }
  })
}

/** Where a delivery goes and with which secrets: the subscription's columns both delivery paths read. */
type Target = Pick<DeliveryToAttempt, 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>

/**
 * One attempt's request: the event enveloped, signed with the subscription's secret (and the previous
 * one while a rotation's overlap lasts) and POSTed. Shared by the per-subscription pass
 * (delivery-batch.ts) and the per-delivery activity kept for runs started before it.
 */
export async function signAndPost(deps: Deps, companyId: string, target: Target, event: DeliveredEvent): Promise<PostOutcome> {
  const now = deps.clock.now()
  const secrets = [target.secret, ...(target.previous_secret && target.previous_secret_expires_at && target.previous_secret_expires_at > now ? [target.previous_secret] : [])]
  const body = deliveryBody(event, companyId)
  const headers = signDelivery({ messageId: `evt_${event.event_id}`, timestamp: Math.floor(now.getTime() / 1000), body, secrets })
  return postWebhook({ url: target.url, body, headers, allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS })
}

/** What an attempt's row records of its answer. */
export const attemptRecord = (result: PostOutcome) => ({
  ok: result.ok, responseStatus: result.status, latencyMs: Math.round(result.latencyMs),
  responseBody: result.bodySnippet || null, error: result.error ?? (result.redirected ? 'redirect not followed' : null),
})

/** The owner hears that a subscription was switched off, once (the key is the subscription). */
export async function tellOwner(deps: Deps, companyId: string, n: { subscriptionId: string; url: string; at: Date }) {
  const company = await withTenant(deps.db, companyId, findCompanyContact)
  const text = `Webhook deliveries to ${n.url} have failed for ${deps.config.WEBHOOK_DISABLE_AFTER_DAYS} days, so the subscription ${n.subscriptionId} was disabled on ${n.at.toISOString()}. Fix the endpoint, subscribe it again, and recover the failed deliveries (POST /api/v1/webhooks/{id}/recover).`
  await sendMessage(deps, {
    companyId, channel: 'email', messageType: 'webhook_disabled', to: company!.contact_email, subject: `Webhook disabled: ${n.url}`,
    body: `<p>${escapeHtml(text)}</p>`, text, idempotencyKey: `webhook-disabled:${n.subscriptionId}`,
  }).catch((error) => deps.logger.warn({ err: error, companyId }, 'could not email the owner about a disabled webhook'))
}
