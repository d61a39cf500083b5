// Webhook subscriptions: subscribe (the secret is shown once), list, unsubscribe, rotate the secret
// (the old one keeps signing for 24 hours), and the deliveries with every attempt, which can be sent
// again one by one or all failed ones since a time.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { pageEnvelope, pageFrom, listPage } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { workflowStart } from '../../temporal/contract.js'
import { canonicalEvents, SUBSCRIBABLE_EVENT_NAMES } from './events.js'
import { checkWebhookUrl } from './http-post.js'
import { newWebhookSecret } from './signing.js'
import type { ListDeliveriesInput, ListSubscriptionsInput, RecoverInput, SubscribeInput } from './schema.js'
import { deliveryRunInput, webhookDeliveryDefinition } from './delivery.js'

const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

interface SubscriptionRow {
  id: string
  url: string
  events: string[]
  description: string | null
  status: 'active' | 'disabled'
  disabled_reason: string | null
  failing_since: Date | null
  previous_secret_expires_at: Date | null
  created_at: Date
}
const columns = (tx: postgres.TransactionSql) => tx`id, url, events, description, status, disabled_reason, failing_since, previous_secret_expires_at, created_at`

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
    const [row] = await tx<SubscriptionRow[]>`
      insert into webhook_subscriptions (company_id, url, events, description, secret, created_at, updated_at)
      values (${principal.companyId}, ${input.url}, ${events}, ${input.description ?? null}, ${secret}, ${now}, ${now})
      returning ${columns(tx)}`
    return { subscription: present(row!, now), secret }
  })
}

export async function listSubscriptions(deps: Deps, principal: Principal, input: Static<typeof ListSubscriptionsInput>) {
  const page = pageFrom(input)
  const now = deps.clock.now()
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => listPage<SubscriptionRow>(tx, page, {
    select: tx`select ${columns(tx)} from webhook_subscriptions w`, from: tx`from webhook_subscriptions w`, alias: 'w', matching: [tx`w.deleted_at is null`],
  }))
  const webhooks = rows.map((r) => present(r, now))
  return { webhooks, ...pageEnvelope(webhooks, total, page) }
}

async function findSubscription(tx: postgres.TransactionSql, id: string): Promise<SubscriptionRow> {
  const [row] = await tx<SubscriptionRow[]>`select ${columns(tx)} from webhook_subscriptions where id = ${id} and deleted_at is null for update`
  if (!row) throw notFound('Webhook subscription')
  return row
}

export async function unsubscribe(deps: Deps, principal: Principal, id: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    await findSubscription(tx, id)
    // Kept (deliveries and attempts point at it) but never matched or delivered to again.
    await tx`update webhook_subscriptions set deleted_at = ${deps.clock.now()}, status = 'disabled', disabled_reason = 'unsubscribed' where id = ${id}`
    return { removed: true, subscription_id: id }
  })
}

export async function rotateSecret(deps: Deps, principal: Principal, id: string) {
  const now = deps.clock.now()
  const secret = newWebhookSecret()
  return withTenant(deps.db, principal.companyId, async (tx) => {
    await findSubscription(tx, id)
    const [row] = await tx<SubscriptionRow[]>`
      update webhook_subscriptions set previous_secret = secret, previous_secret_expires_at = ${new Date(now.getTime() + ROTATION_OVERLAP_MS)},
             secret = ${secret}, updated_at = ${now}
      where id = ${id} returning ${columns(tx)}`
    return { subscription: present(row!, now), secret }
  })
}

interface DeliveryRow { id: string; subscription_id: string; event_id: string; event_type: string; status: 'pending' | 'delivered' | 'failed'; redeliveries: number; created_at: Date; delivered_at: Date | null }
interface AttemptRow { delivery_id: string; attempt: number; run: number; ok: boolean; response_status: number | null; latency_ms: number; response_body: string | null; error: string | null; created_at: Date }

async function presentDeliveries(tx: postgres.TransactionSql, rows: DeliveryRow[]) {
  const attempts = rows.length
    ? await tx<AttemptRow[]>`select delivery_id, attempt, run, ok, response_status, latency_ms, response_body, error, created_at
                             from webhook_attempts where delivery_id = any(${rows.map((r) => r.id)}::uuid[]) order by created_at, id`
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
    const [sub] = await tx`select id from webhook_subscriptions where id = ${input.id}`
    if (!sub) throw notFound('Webhook subscription')
    const rows = await tx<DeliveryRow[]>`
      select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries
      where subscription_id = ${input.id} ${input.status ? tx`and status = ${input.status}` : tx``}
      order by created_at desc, id desc limit ${input.limit ?? 50}`
    return { deliveries: await presentDeliveries(tx, rows) }
  })
}

async function redeliverRows(deps: Deps, tx: postgres.TransactionSql, start: Parameters<Parameters<typeof withTenantThenStart>[2]>[1], companyId: string, rows: DeliveryRow[]) {
  const ids: string[] = []
  for (const row of rows) {
    const run = row.redeliveries + 1
    await tx`update webhook_deliveries set redeliveries = ${run}, status = 'pending', delivered_at = null where id = ${row.id}`
    const item = await start(workflowStart(webhookDeliveryDefinition, deliveryRunInput(deps, { companyId, deliveryId: row.id, run })))
    ids.push(item.workflow_id)
  }
  return ids
}

export async function redeliver(deps: Deps, principal: Principal, id: string) {
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const [row] = await tx<DeliveryRow[]>`select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries where id = ${id} for update`
    if (!row) throw notFound('Webhook delivery')
    const [sub] = await tx<{ status: string; deleted_at: Date | null }[]>`select status, deleted_at from webhook_subscriptions where id = ${row.subscription_id}`
    if (sub!.deleted_at || sub!.status !== 'active') throw new AppError('conflict', 'The subscription is disabled or removed; subscribe again (or fix the endpoint and subscribe anew) to receive deliveries.', { subscription_status: sub!.deleted_at ? 'removed' : sub!.status })
    const [workflowId] = await redeliverRows(deps, tx, start, principal.companyId, [row])
    const [after] = await tx<DeliveryRow[]>`select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries where id = ${id}`
    return { delivery: (await presentDeliveries(tx, [after!]))[0]!, workflow_id: workflowId! }
  })
}

export async function recover(deps: Deps, principal: Principal, input: Static<typeof RecoverInput>) {
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const sub = await findSubscription(tx, input.id)
    if (sub.status !== 'active') throw new AppError('conflict', 'The subscription is disabled; subscribe the fixed endpoint again, then recover.', { subscription_status: sub.status })
    const rows = await tx<DeliveryRow[]>`
      select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries
      where subscription_id = ${input.id} and status = 'failed' and created_at >= ${input.since} order by created_at limit 1000 for update`
    const ids = await redeliverRows(deps, tx, start, principal.companyId, rows)
    return { redelivered: ids.length, workflow_ids: ids }
  })
}
