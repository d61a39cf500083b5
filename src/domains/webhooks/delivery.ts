// One delivery attempt: the event as stored (the resource after the change), enveloped, signed with
// the subscription's secret (and the previous one during a rotation), POSTed to an address that is
// checked when connected to, and recorded once per (delivery, run, attempt).
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { defineWorkflow } from '../../temporal/contract.js'
import { webhookDelivery, webhookDeliveryWorkflowId, type AttemptResult, type WebhookDeliveryInput } from '../../../workflows/webhook-delivery.js'
import { sendMessage } from '../comms/send.js'
import { escapeHtml } from '../../core/html-escape.js'
import { postWebhook } from './http-post.js'
import { signDelivery } from './signing.js'

export type { AttemptResult, WebhookDeliveryInput }

export const webhookDeliveryDefinition = defineWorkflow({
  workflow: webhookDelivery,
  id: webhookDeliveryWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Delivers one event to one webhook subscription with retries; one run per delivery and redelivery, each attempt recorded once.',
})

export const DEFAULT_RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]
export const MAX_PAYLOAD_BYTES = 20_000

export function deliveryRunInput(deps: Deps, d: { companyId: string; deliveryId: string; run: number }): WebhookDeliveryInput {
  const configured = deps.config.WEBHOOK_RETRY_SCHEDULE_MS
  const scheduleMs = configured ? configured.split(',').map((s) => Number(s.trim())).filter((n) => Number.isFinite(n) && n >= 0) : DEFAULT_RETRY_SCHEDULE_MS
  return { ...d, scheduleMs: scheduleMs.length ? scheduleMs : DEFAULT_RETRY_SCHEDULE_MS }
}

interface Loaded {
  status: string
  event_id: string
  event_type: string
  created_at: Date
  payload: unknown
  entity_type: string
  entity_id: string
  url: string
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  sub_status: string
  deleted_at: Date | null
  failing_since: Date | null
  subscription_id: string
}

/** The body a receiver gets: the envelope with the full resource, or a pointer when it would pass 20 KB. */
export function deliveryBody(row: Pick<Loaded, 'event_id' | 'event_type' | 'created_at' | 'payload' | 'entity_type' | 'entity_id'>, companyId: string): string {
  const envelope = { id: `evt_${row.event_id}`, type: row.event_type, created_at: row.created_at.toISOString(), company_id: companyId }
  const body = JSON.stringify({ ...envelope, data: row.payload })
  if (Buffer.byteLength(body) <= MAX_PAYLOAD_BYTES) return body
  return JSON.stringify({ ...envelope, data: { truncated: true, entity_type: row.entity_type, entity_id: row.entity_id, note: 'The resource is over 20 KB; read it through the API.' } })
}

async function load(tx: postgres.TransactionSql, deliveryId: string): Promise<Loaded | undefined> {
  const [row] = await tx<Loaded[]>`
    select d.status, d.event_id, e.event_type, e.created_at, e.payload, e.entity_type, e.entity_id, s.url, s.secret, s.previous_secret,
           s.previous_secret_expires_at, s.status as sub_status, s.deleted_at, s.failing_since, s.id as subscription_id
    from webhook_deliveries d join event_outbox e on e.id = d.event_id join webhook_subscriptions s on s.id = d.subscription_id
    where d.id = ${deliveryId}`
  return row
}

const DAY_MS = 24 * 60 * 60 * 1000

export async function attemptWebhookDelivery(deps: Deps, input: { companyId: string; deliveryId: string; run: number; attempt: number; last: boolean }): Promise<AttemptResult> {
  const { companyId, deliveryId } = input
  const row = await withTenant(deps.db, companyId, (tx) => load(tx, deliveryId))
  if (!row) return { outcome: 'stopped' }
  if (row.status === 'delivered') return { outcome: 'delivered' }
  if (row.deleted_at || row.sub_status !== 'active') {
    await withTenant(deps.db, companyId, (tx) => tx`update webhook_deliveries set status = 'failed' where id = ${deliveryId} and status = 'pending'`)
    return { outcome: 'stopped' }
  }
  // A retried activity finds the attempt it already made.
  const [done] = await withTenant(deps.db, companyId, (tx) => tx<{ ok: boolean; response_status: number | null }[]>`
    select ok, response_status from webhook_attempts where delivery_id = ${deliveryId} and run = ${input.run} and attempt = ${input.attempt}`)
  if (done) return done.ok ? { outcome: 'delivered' } : done.response_status === 410 ? { outcome: 'gone' } : { outcome: input.last ? 'failed' : 'retry' }

  const now = deps.clock.now()
  const secrets = [row.secret, ...(row.previous_secret && row.previous_secret_expires_at && row.previous_secret_expires_at > now ? [row.previous_secret] : [])]
  const body = deliveryBody(row, companyId)
  const headers = signDelivery({ messageId: `evt_${row.event_id}`, timestamp: Math.floor(now.getTime() / 1000), body, secrets })
  const result = await postWebhook({ url: row.url, body, headers, allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS, timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS })

  return withTenant(deps.db, companyId, async (tx) => {
    const at = deps.clock.now()
    const inserted = await tx`
      insert into webhook_attempts (company_id, delivery_id, attempt, run, ok, response_status, latency_ms, response_body, error, created_at)
      values (${companyId}, ${deliveryId}, ${input.attempt}, ${input.run}, ${result.ok}, ${result.status}, ${Math.round(result.latencyMs)},
              ${result.bodySnippet || null}, ${result.error ?? (result.redirected ? 'redirect not followed' : null)}, ${at})
      on conflict (delivery_id, run, attempt) do nothing returning id`
    if (!inserted.length) return { outcome: input.last ? 'failed' as const : 'retry' as const }
    await tx`update webhook_deliveries set attempts = attempts + 1, last_attempt_at = ${at} where id = ${deliveryId}`
    if (result.ok) {
      await tx`update webhook_deliveries set status = 'delivered', delivered_at = ${at} where id = ${deliveryId}`
      await tx`update webhook_subscriptions set failing_since = null where id = ${row.subscription_id} and failing_since is not null`
      return { outcome: 'delivered' as const }
    }
    if (result.status === 410) {
      await tx`update webhook_deliveries set status = 'failed' where id = ${deliveryId}`
      await tx`update webhook_subscriptions set status = 'disabled', disabled_reason = 'the endpoint answered 410 Gone', disabled_at = ${at} where id = ${row.subscription_id}`
      return { outcome: 'gone' as const }
    }
    const [sub] = await tx<{ failing_since: Date }[]>`
      update webhook_subscriptions set failing_since = coalesce(failing_since, ${at}) where id = ${row.subscription_id} returning failing_since`
    if (at.getTime() - sub!.failing_since.getTime() >= deps.config.WEBHOOK_DISABLE_AFTER_DAYS * DAY_MS) {
      await tx`update webhook_deliveries set status = 'failed' where id = ${deliveryId}`
      await tx`update webhook_subscriptions set status = 'disabled', disabled_reason = ${`failing for ${deps.config.WEBHOOK_DISABLE_AFTER_DAYS} days`}, disabled_at = ${at}
               where id = ${row.subscription_id} and status = 'active'`
      return { outcome: 'disabled' as const, notify: { subscriptionId: row.subscription_id, url: row.url, at } }
    }
    if (input.last) {
      await tx`update webhook_deliveries set status = 'failed' where id = ${deliveryId}`
      return { outcome: 'failed' as const }
    }
    return { outcome: 'retry' as const, retryAfterSeconds: result.retryAfterSeconds }
  }).then(async (outcome) => {
    if ('notify' in outcome && outcome.notify) await tellOwner(deps, companyId, outcome.notify)
    return { outcome: outcome.outcome, retryAfterSeconds: 'retryAfterSeconds' in outcome ? outcome.retryAfterSeconds : null }
  })
}

/** The owner hears that a subscription was switched off, once (the key is the subscription). */
async function tellOwner(deps: Deps, companyId: string, n: { subscriptionId: string; url: string; at: Date }) {
  const [company] = await withTenant(deps.db, companyId, (tx) => tx<{ contact_email: string; business_name: string }[]>`select contact_email, business_name from companies`)
  const text = `Webhook deliveries to ${n.url} have failed for ${deps.config.WEBHOOK_DISABLE_AFTER_DAYS} days, so the subscription ${n.subscriptionId} was disabled on ${n.at.toISOString()}. Fix the endpoint, subscribe it again, and recover the failed deliveries (POST /api/v1/webhooks/{id}/recover).`
  await sendMessage(deps, {
    companyId, channel: 'email', messageType: 'webhook_disabled', to: company!.contact_email, subject: `Webhook disabled: ${n.url}`,
    body: `<p>${escapeHtml(text)}</p>`, text, idempotencyKey: `webhook-disabled:${n.subscriptionId}`,
  }).catch((error) => deps.logger.warn({ err: error, companyId }, 'could not email the owner about a disabled webhook'))
}
