// Webhook subscriptions: subscribe (the secret is shown once), list, unsubscribe, rotate the secret
// (the old one keeps signing for 24 hours), and the deliveries with every attempt, which can be sent
// again one by one or all failed ones since a time.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import { canonicalEvents, SUBSCRIBABLE_EVENT_NAMES } from './events.js'
import { checkWebhookUrl } from './http-post.js'
import { newWebhookSecret } from './signing.js'
import type { ListDeliveriesInput, ListSubscriptionsInput, RecoverInput, SubscribeInput } from './schema.js'
import { webhookDeliveriesWorkflowId } from './workflows/webhook-deliveries.js'
import {
  findDeliveryRow, findSubscriptionState, insertSubscription, listAttemptRows, listDeliveryRows, listSubscriptionRows, lockFailedDeliveriesSince,
  lockSubscription, markSubscriptionRemoved, notifyDispatcher, reopenDelivery, rotateSubscriptionSecret, subscriptionExists, type DeliveryRow, type SubscriptionRow,
} from './queries.js'

const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000


function present(row: SubscriptionRow, now: Date) {
  return {
    id: row.id, url: row.url, events: row.events, description: row.description, status: row.status, disabledReason: row.disabled_reason,
    failingSince: row.failing_since?.toISOString() ?? null,
    secretRotatedUntil: row.previous_secret_expires_at && row.previous_secret_expires_at > now ? row.previous_secret_expires_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  }
}

export async function subscribe(deps: Deps, principal: Principal, input: Static<typeof SubscribeInput>) {
  const problems: string[] = []
  const urlProblem = checkWebhookUrl(input.url, { allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS })
  if (urlProblem) problems.push(`url: ${urlProblem}`)
  const { events, unknown } = canonicalEvents(input.events)
  if (unknown.length) problems.push(`events: unknown ${unknown.map((u) => `'${u}'`).join(', ')}; valid names are ${SUBSCRIBABLE_EVENT_NAMES.join(', ')}`)
  if (problems.length) throw validationError(problems)
  const secret = newWebhookSecret()
  const now = deps.clock.now()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const row = await insertSubscription(tx, principal.companyId, { url: input.url, events, description: input.description ?? null, secret }, now)
    return { subscription: present(row, now), secret }
  })
}

export async function listSubscriptions(deps: Deps, principal: Principal, input: Static<typeof ListSubscriptionsInput>) {
  const page = pageFrom(input)
  const now = deps.clock.now()
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => listSubscriptionRows(tx, page))
  const webhooks = rows.map((r) => present(r, now))
  return { webhooks, ...pageEnvelope(webhooks, total, page) }
}

async function findSubscription(tx: postgres.TransactionSql, id: string): Promise<SubscriptionRow> {
  const row = await lockSubscription(tx, id)
  if (!row) throw notFound('Webhook subscription')
  return row
}

export async function unsubscribe(deps: Deps, principal: Principal, id: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    await findSubscription(tx, id)
    // Kept (deliveries and attempts point at it) but never matched or delivered to again.
    await markSubscriptionRemoved(tx, id, deps.clock.now())
    return { removed: true, subscription_id: id }
  })
}

export async function rotateSecret(deps: Deps, principal: Principal, id: string) {
  const now = deps.clock.now()
  const secret = newWebhookSecret()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    await findSubscription(tx, id)
    const row = await rotateSubscriptionSecret(tx, id, secret, new Date(now.getTime() + ROTATION_OVERLAP_MS), now)
    return { subscription: present(row, now), secret }
  })
}

async function presentDeliveries(tx: postgres.TransactionSql, rows: DeliveryRow[]) {
  const attempts = rows.length
    ? await listAttemptRows(tx, rows.map((r) => r.id))
    : []
  return rows.map((r) => ({
    id: r.id, subscriptionId: r.subscription_id, eventId: `evt_${r.event_id}`, eventType: r.event_type, status: r.status,
    attempts: attempts.filter((a) => a.delivery_id === r.id).map((a) => ({
      attempt: a.attempt, run: a.run, ok: a.ok, responseStatus: a.response_status, latencyMs: a.latency_ms, responseBody: a.response_body, error: a.error, at: a.created_at.toISOString(),
    })),
    createdAt: r.created_at.toISOString(), deliveredAt: r.delivered_at?.toISOString() ?? null,
  }))
}

export async function listDeliveries(deps: Deps, principal: Principal, input: Static<typeof ListDeliveriesInput>) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    if (!(await subscriptionExists(tx, input.id))) throw notFound('Webhook subscription')
    const rows = await listDeliveryRows(tx, input.id, { status: input.status, limit: input.limit })
    return { deliveries: await presentDeliveries(tx, rows) }
  })
}

/**
 * Each row pending again as its next run, due now; the dispatcher (woken by the NOTIFY at commit,
 * or its sweep after a crash) signals the subscription's delivery workflow. The answer names that
 * workflow once per delivery.
 */
async function redeliverRows(deps: Deps, tx: postgres.TransactionSql, companyId: string, rows: DeliveryRow[]) {
  const ids: string[] = []
  for (const row of rows) {
    await reopenDelivery(tx, row.id, row.redeliveries + 1, deps.clock.now())
    ids.push(webhookDeliveriesWorkflowId({ companyId, subscriptionId: row.subscription_id }))
  }
  if (ids.length) await notifyDispatcher(tx)
  return ids
}

export async function redeliver(deps: Deps, principal: Principal, id: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const row = await findDeliveryRow(tx, id, { forUpdate: true })
    if (!row) throw notFound('Webhook delivery')
    const sub = await findSubscriptionState(tx, row.subscription_id)
    if (sub.deleted_at || sub.status !== 'active') throw new AppError('conflict', 'The subscription is disabled or removed; subscribe again (or fix the endpoint and subscribe anew) to receive deliveries.', { subscription_status: sub.deleted_at ? 'removed' : sub.status })
    const [workflowId] = await redeliverRows(deps, tx, principal.companyId, [row])
    const after = await findDeliveryRow(tx, id)
    return { delivery: (await presentDeliveries(tx, [after!]))[0]!, workflow_id: workflowId! }
  })
}

export async function recover(deps: Deps, principal: Principal, input: Static<typeof RecoverInput>) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const sub = await findSubscription(tx, input.id)
    if (sub.status !== 'active') throw new AppError('conflict', 'The subscription is disabled; subscribe the fixed endpoint again, then recover.', { subscription_status: sub.status })
    const rows = await lockFailedDeliveriesSince(tx, input.id, input.since)
    const ids = await redeliverRows(deps, tx, principal.companyId, rows)
    return { redelivered: ids.length, workflow_ids: ids }
  })
}
