// SQL of a subscription's delivery pass (delivery-batch.ts): the subscription, its due deliveries
// with their events, the earliest next attempt, and one attempt's record on its delivery. Tenant
// functions: the transaction comes from withTenant() (RLS scopes the rows).
import type postgres from 'postgres'
import type { DeliveredEvent } from '../queries.js'

export interface BatchSubscription {
  url: string
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  status: string
  deleted_at: Date | null
}

export async function findBatchSubscription(tx: postgres.TransactionSql, id: string): Promise<BatchSubscription | undefined> {
  const [row] = await tx<BatchSubscription[]>`
    select url, secret, previous_secret, previous_secret_expires_at, status, deleted_at from webhook_subscriptions where id = ${id}`
  return row
}

/** A due delivery with what its attempt sends: the event as stored, and which attempt of which run it is. */
export interface DueDelivery extends DeliveredEvent {
  id: string
  run: number
  attempt: number
}

/**
 * The subscription's deliveries due by `now`, the longest waiting first. Not leased: one workflow per
 * subscription drains them, one pass at a time, so a pass retried after a crash finds the ones it
 * did not record still due and sends them again at once (at-least-once).
 */
export async function dueDeliveries(tx: postgres.TransactionSql, subscriptionId: string, now: Date, limit: number): Promise<DueDelivery[]> {
  return tx<DueDelivery[]>`
    select d.id, d.redeliveries as run, d.next_attempt as attempt, e.id::text as event_id, e.event_type, e.created_at, e.payload, e.entity_type, e.entity_id
    from webhook_deliveries d join event_outbox e on e.id = d.event_id
    where d.subscription_id = ${subscriptionId} and d.status = 'pending' and d.next_attempt_at <= ${now}
    order by d.next_attempt_at limit ${limit}`
}

/** When the subscription's earliest pending delivery is due, or null when none is pending. */
export async function earliestDue(tx: postgres.TransactionSql, subscriptionId: string): Promise<Date | null> {
  const [row] = await tx<{ at: Date | null }[]>`
    select min(next_attempt_at) as at from webhook_deliveries where subscription_id = ${subscriptionId} and status = 'pending' and next_attempt_at is not null`
  return row?.at ?? null
}

/** The subscription went away: its pending deliveries stop as failed; how many. */
export async function failPendingDeliveries(tx: postgres.TransactionSql, subscriptionId: string): Promise<number> {
  const rows = await tx`update webhook_deliveries set status = 'failed', next_attempt_at = null
                        where subscription_id = ${subscriptionId} and status = 'pending' returning 1`
  return rows.length
}

/** What an attempt leaves on its delivery: settled (delivered or failed), or the next attempt's time. */
export type AttemptSettles = { status: 'delivered' | 'failed' } | { status: 'pending'; nextAt: Date }

/**
 * Counts the attempt on the delivery and settles it or schedules the next one, if the delivery is
 * still at this attempt of this run (a redelivery in between starts its own count).
 */
export async function recordAttemptOnDelivery(tx: postgres.TransactionSql, d: { id: string; run: number; attempt: number }, at: Date, settles: AttemptSettles): Promise<void> {
  const pending = settles.status === 'pending'
  await tx`
    update webhook_deliveries set attempts = attempts + 1, last_attempt_at = ${at}, next_attempt = next_attempt + 1,
      status = ${settles.status}, next_attempt_at = ${pending ? settles.nextAt : null},
      delivered_at = ${settles.status === 'delivered' ? at : null}
    where id = ${d.id} and status = 'pending' and redeliveries = ${d.run} and next_attempt = ${d.attempt}`
}
