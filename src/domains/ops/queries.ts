// Retention SQL: each call deletes at most `limit` old rows of one kind through the migration's
// cross-tenant functions (045), one statement and so one short transaction per call.
import type { Sql } from '../../db/sql.js'

export async function pruneIdempotencyKeys(sql: Sql, now: Date, limit: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select prune_idempotency_keys(${now}, ${limit}) as n`
  return row!.n
}

export async function pruneWorkflowOutbox(sql: Sql, before: Date, limit: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select prune_workflow_outbox(${before}, ${limit}) as n`
  return row!.n
}

export async function pruneWebhookDeliveries(sql: Sql, before: Date, limit: number): Promise<{ deliveries: number; attempts: number }> {
  const [row] = await sql<{ deliveries: number; attempts: number }[]>`select deliveries, attempts from prune_webhook_deliveries(${before}, ${limit})`
  return row!
}

export async function pruneEventOutbox(sql: Sql, before: Date, limit: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select prune_event_outbox(${before}, ${limit}) as n`
  return row!.n
}
