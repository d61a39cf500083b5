// Webhook SQL: subscriptions, deliveries and their attempts. Tenant functions take the transaction
// from withTenant() (RLS scopes the rows); the dispatcher's two take the app pool and call SECURITY
// DEFINER functions, since it starts deliveries of every company.
import type postgres from 'postgres'
import { listPage, type Page } from '../../core/paging.js'
import type { Sql } from '../../db/sql.js'

// Subscriptions (service.ts).

export interface SubscriptionRow {
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

export interface NewSubscription {
  url: string
  events: string[]
  description: string | null
  secret: string
}

export async function insertSubscription(tx: postgres.TransactionSql, companyId: string, s: NewSubscription, now: Date): Promise<SubscriptionRow> {
  const [row] = await tx<SubscriptionRow[]>`
      insert into webhook_subscriptions (company_id, url, events, description, secret, created_at, updated_at)
      values (${companyId}, ${s.url}, ${s.events}, ${s.description}, ${s.secret}, ${now}, ${now})
      returning ${columns(tx)}`
  return row!
}

/** A page of the subscriptions not removed, newest first, counted up to COUNT_CAP + 1. */
export async function listSubscriptionRows(tx: postgres.TransactionSql, page: Page): Promise<{ rows: SubscriptionRow[]; total: number }> {
  return listPage<SubscriptionRow>(tx, page, {
    select: tx`select ${columns(tx)} from webhook_subscriptions w`, from: tx`from webhook_subscriptions w`, alias: 'w', matching: [tx`w.deleted_at is null`],
  })
}

/** The subscription, not removed, locked for a change. */
export async function lockSubscription(tx: postgres.TransactionSql, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await tx<SubscriptionRow[]>`select ${columns(tx)} from webhook_subscriptions where id = ${id} and deleted_at is null for no key update`
  return row
}

/** Kept (deliveries and attempts point at it) but never matched or delivered to again. */
export async function markSubscriptionRemoved(tx: postgres.TransactionSql, id: string, now: Date): Promise<void> {
  await tx`update webhook_subscriptions set deleted_at = ${now}, status = 'disabled', disabled_reason = 'unsubscribed' where id = ${id}`
}

/** The new secret signs from now; the old one also signs until previousExpiresAt. */
export async function rotateSubscriptionSecret(tx: postgres.TransactionSql, id: string, secret: string, previousExpiresAt: Date, now: Date): Promise<SubscriptionRow> {
  const [row] = await tx<SubscriptionRow[]>`
      update webhook_subscriptions set previous_secret = secret, previous_secret_expires_at = ${previousExpiresAt},
             secret = ${secret}, updated_at = ${now}
      where id = ${id} returning ${columns(tx)}`
  return row!
}

/** Whether the subscription exists, removed or not. */
export async function subscriptionExists(tx: postgres.TransactionSql, id: string): Promise<boolean> {
  const [sub] = await tx`select id from webhook_subscriptions where id = ${id}`
  return sub !== undefined
}

export async function findSubscriptionState(tx: postgres.TransactionSql, id: string): Promise<{ status: string; deleted_at: Date | null }> {
  const [sub] = await tx<{ status: string; deleted_at: Date | null }[]>`select status, deleted_at from webhook_subscriptions where id = ${id}`
  return sub!
}

// Deliveries as the owner sees them (service.ts).

export interface DeliveryRow { id: string; subscription_id: string; event_id: string; event_type: string; status: 'pending' | 'delivered' | 'failed'; redeliveries: number; created_at: Date; delivered_at: Date | null }
export interface AttemptRow { delivery_id: string; attempt: number; run: number; ok: boolean; response_status: number | null; latency_ms: number; response_body: string | null; error: string | null; created_at: Date }

/** Every attempt of the deliveries, oldest first. */
export async function listAttemptRows(tx: postgres.TransactionSql, deliveryIds: string[]): Promise<AttemptRow[]> {
  return tx<AttemptRow[]>`select delivery_id, attempt, run, ok, response_status, latency_ms, response_body, error, created_at
                             from webhook_attempts where delivery_id = any(${deliveryIds}::uuid[]) order by created_at, id`
}

/** The subscription's deliveries, newest first. */
export async function listDeliveryRows(tx: postgres.TransactionSql, subscriptionId: string, filter: { status?: DeliveryRow['status']; limit?: number }): Promise<DeliveryRow[]> {
  return tx<DeliveryRow[]>`
      select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries
      where subscription_id = ${subscriptionId} ${filter.status ? tx`and status = ${filter.status}` : tx``}
      order by created_at desc, id desc limit ${filter.limit ?? 50}`
}

export async function findDeliveryRow(tx: postgres.TransactionSql, id: string, options: { forUpdate?: boolean } = {}): Promise<DeliveryRow | undefined> {
  const [row] = options.forUpdate
    ? await tx<DeliveryRow[]>`select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries where id = ${id} for no key update`
    : await tx<DeliveryRow[]>`select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries where id = ${id}`
  return row
}

/** The subscription's failed deliveries since the time, oldest first (at most 1000), locked. */
export async function lockFailedDeliveriesSince(tx: postgres.TransactionSql, subscriptionId: string, since: string): Promise<DeliveryRow[]> {
  return tx<DeliveryRow[]>`
      select id, subscription_id, event_id, event_type, status, redeliveries, created_at, delivered_at from webhook_deliveries
      where subscription_id = ${subscriptionId} and status = 'failed' and created_at >= ${since} order by created_at limit 1000 for no key update`
}

/** Pending again, as redelivery number `run`, its first attempt due now and not yet signalled to its workflow. */
export async function reopenDelivery(tx: postgres.TransactionSql, id: string, run: number, now: Date): Promise<void> {
  await tx`update webhook_deliveries set redeliveries = ${run}, status = 'pending', delivered_at = null,
             next_attempt = 1, next_attempt_at = ${now}, workflow_started_at = null where id = ${id}`
}

/** Wakes the dispatcher at commit, as the fan-out trigger does for new deliveries. */
export async function notifyDispatcher(tx: postgres.TransactionSql): Promise<void> {
  await tx`select pg_notify('webhook_deliveries', '')`
}

// Dispatching (dispatcher.ts), across companies.

/** Deliveries whose subscription's workflow has not been signalled for them yet (workflow_started_at null). */
export async function unsignalledDeliveries(sql: Sql, batch: number): Promise<{ id: string; company_id: string; subscription_id: string }[]> {
  return sql<{ id: string; company_id: string; subscription_id: string }[]>`select id, company_id, subscription_id from unsignalled_webhook_deliveries(${batch})`
}

export async function markDeliveriesStarted(sql: Sql, ids: string[]): Promise<void> {
  await sql`select mark_webhook_deliveries_started(${ids}::uuid[])`
}

// Attempts (delivery.ts).

/** The event a delivery carries, as stored: what its body is built from (deliveryBody). */
export interface DeliveredEvent {
  event_id: string
  event_type: string
  created_at: Date
  payload: unknown
  entity_type: string
  entity_id: string
}

/** A delivery with its event and subscription: what one attempt sends, and where. */
export interface DeliveryToAttempt extends DeliveredEvent {
  status: string
  url: string
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  sub_status: string
  deleted_at: Date | null
  failing_since: Date | null
  subscription_id: string
}

export async function findDeliveryToAttempt(tx: postgres.TransactionSql, deliveryId: string): Promise<DeliveryToAttempt | undefined> {
  const [row] = await tx<DeliveryToAttempt[]>`
    select d.status, d.event_id, e.event_type, e.created_at, e.payload, e.entity_type, e.entity_id, s.url, s.secret, s.previous_secret,
           s.previous_secret_expires_at, s.status as sub_status, s.deleted_at, s.failing_since, s.id as subscription_id
    from webhook_deliveries d join event_outbox e on e.id = d.event_id join webhook_subscriptions s on s.id = d.subscription_id
    where d.id = ${deliveryId}`
  return row
}

/** A pending delivery stops as failed (its subscription went away). */
export async function failPendingDelivery(tx: postgres.TransactionSql, deliveryId: string): Promise<void> {
  await tx`update webhook_deliveries set status = 'failed' where id = ${deliveryId} and status = 'pending'`
}

export async function findAttempt(tx: postgres.TransactionSql, deliveryId: string, run: number, attempt: number): Promise<{ ok: boolean; response_status: number | null } | undefined> {
  const [done] = await tx<{ ok: boolean; response_status: number | null }[]>`
    select ok, response_status from webhook_attempts where delivery_id = ${deliveryId} and run = ${run} and attempt = ${attempt}`
  return done
}

export interface NewAttempt {
  deliveryId: string
  run: number
  attempt: number
  ok: boolean
  responseStatus: number | null
  latencyMs: number
  responseBody: string | null
  error: string | null
}

/** Records the attempt once per (delivery, run, attempt); whether this call recorded it. */
export async function insertAttempt(tx: postgres.TransactionSql, companyId: string, a: NewAttempt, at: Date): Promise<boolean> {
  const inserted = await tx`
      insert into webhook_attempts (company_id, delivery_id, attempt, run, ok, response_status, latency_ms, response_body, error, created_at)
      values (${companyId}, ${a.deliveryId}, ${a.attempt}, ${a.run}, ${a.ok}, ${a.responseStatus}, ${a.latencyMs},
              ${a.responseBody}, ${a.error}, ${at})
      on conflict (delivery_id, run, attempt) do nothing returning id`
  return inserted.length > 0
}

export async function countDeliveryAttempt(tx: postgres.TransactionSql, deliveryId: string, at: Date): Promise<void> {
  await tx`update webhook_deliveries set attempts = attempts + 1, last_attempt_at = ${at} where id = ${deliveryId}`
}

export async function markDelivered(tx: postgres.TransactionSql, deliveryId: string, at: Date): Promise<void> {
  await tx`update webhook_deliveries set status = 'delivered', delivered_at = ${at} where id = ${deliveryId}`
}

export async function markDeliveryFailed(tx: postgres.TransactionSql, deliveryId: string): Promise<void> {
  await tx`update webhook_deliveries set status = 'failed' where id = ${deliveryId}`
}

export async function clearSubscriptionFailing(tx: postgres.TransactionSql, subscriptionId: string): Promise<void> {
  await tx`update webhook_subscriptions set failing_since = null where id = ${subscriptionId} and failing_since is not null`
}

/** When the subscription's current run of failures began (now, if this is the first). */
export async function markSubscriptionFailing(tx: postgres.TransactionSql, subscriptionId: string, at: Date): Promise<Date> {
  const [sub] = await tx<{ failing_since: Date }[]>`
      update webhook_subscriptions set failing_since = coalesce(failing_since, ${at}) where id = ${subscriptionId} returning failing_since`
  return sub!.failing_since
}

/** The endpoint answered 410 Gone. */
export async function disableGoneSubscription(tx: postgres.TransactionSql, subscriptionId: string, at: Date): Promise<void> {
  await tx`update webhook_subscriptions set status = 'disabled', disabled_reason = 'the endpoint answered 410 Gone', disabled_at = ${at} where id = ${subscriptionId}`
}

/** Failing too long: switched off, once. */
export async function disableFailingSubscription(tx: postgres.TransactionSql, subscriptionId: string, disableAfterDays: number, at: Date): Promise<void> {
  await tx`update webhook_subscriptions set status = 'disabled', disabled_reason = ${`failing for ${disableAfterDays} days`}, disabled_at = ${at}
               where id = ${subscriptionId} and status = 'active'`
}

export async function findCompanyContact(tx: postgres.TransactionSql): Promise<{ contact_email: string; business_name: string } | undefined> {
  const [company] = await tx<{ contact_email: string; business_name: string }[]>`select contact_email, business_name from companies`
  return company
}
