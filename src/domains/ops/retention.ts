// Retention (issue 27): old rows no one reads any more are deleted every day by one Temporal
// Schedule (dataRetention), created or updated at start-up by every process that runs a worker
// (the same call again changes nothing). What goes, and when:
// - idempotency keys past their 24-hour expiry;
// - workflow outbox rows started more than RETENTION_OUTBOX_DAYS ago;
// - webhook deliveries delivered or failed, created more than RETENTION_DELIVERY_DAYS ago, with
//   their attempts (a pending delivery keeps every attempt);
// - events older than RETENTION_OUTBOX_DAYS that no delivery refers to any more (and not the
//   quote.sent of a quote still awaiting a reply: the follow-up reads it).
// Deletes go RETENTION_BATCH_SIZE rows per statement, skipping locked rows, so no lock is held long.
import type { Deps } from '../../core/deps.js'
import { defineWorkflow, workflowStart } from '../../temporal/contract.js'
import { pruneEventOutbox, pruneIdempotencyKeys, pruneWebhookDeliveries, pruneWorkflowOutbox } from './queries.js'
import { dataRetention, dataRetentionWorkflowId, type DataRetentionActivities, type RetentionKind, type RetentionRound } from './workflows/data-retention.js'

/** Retention is not one company's: its runs carry this placeholder as their company (search attribute, id). */
export const PLATFORM_COMPANY_ID = '00000000-0000-0000-0000-000000000000'

/** Batches per activity call: a round stays seconds long, and the workflow asks for the next. */
const BATCHES_PER_ROUND = 10
const DAY_MS = 86_400_000

export const dataRetentionDefinition = defineWorkflow<DataRetentionActivities>()({
  workflow: dataRetention,
  id: dataRetentionWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE',
  description: 'Deletes expired idempotency keys, old started outbox rows, settled webhook deliveries and events past their retention, in small batches; started daily by the retention Temporal Schedule (the fire time is appended to the id).',
})

/**
 * The schedule's id: one per task queue, so deployments (or test apps) sharing a Temporal namespace
 * each prune their own database.
 */
export const retentionScheduleId = (taskQueue: string) => `data-retention:${taskQueue}`

/** Creates or updates the daily retention schedule. Idempotent. */
export async function ensureRetentionSchedule(deps: Deps): Promise<void> {
  await deps.workflows.upsertDailySchedule(
    retentionScheduleId(deps.config.TEMPORAL_TASK_QUEUE),
    workflowStart(dataRetentionDefinition, { companyId: PLATFORM_COMPANY_ID }),
    { hour: deps.config.RETENTION_HOUR_UTC, minute: 17, timeZone: 'UTC' },
  )
}

/** Activity: up to BATCHES_PER_ROUND batches of one kind; done when a batch comes back short. */
export async function pruneRetentionRound(deps: Deps, input: { kind: RetentionKind }): Promise<RetentionRound> {
  const { config } = deps
  const limit = config.RETENTION_BATCH_SIZE
  const now = deps.clock.now()
  const outboxBefore = new Date(now.getTime() - config.RETENTION_OUTBOX_DAYS * DAY_MS)
  const deliveriesBefore = new Date(now.getTime() - config.RETENTION_DELIVERY_DAYS * DAY_MS)
  const sql = deps.db.app
  let deleted = 0
  let attempts = 0
  let done = false
  for (let batch = 0; batch < BATCHES_PER_ROUND && !done; batch++) {
    let n: number
    switch (input.kind) {
      case 'idempotency_keys': n = await pruneIdempotencyKeys(sql, now, limit); break
      case 'workflow_outbox': n = await pruneWorkflowOutbox(sql, outboxBefore, limit); break
      case 'event_outbox': n = await pruneEventOutbox(sql, outboxBefore, limit); break
      case 'webhook_deliveries': {
        const gone = await pruneWebhookDeliveries(sql, deliveriesBefore, limit)
        n = gone.deliveries
        attempts += gone.attempts
        break
      }
    }
    deleted += n
    done = n < limit
  }
  return { deleted: input.kind === 'webhook_deliveries' ? { webhook_deliveries: deleted, webhook_attempts: attempts } : { [input.kind]: deleted }, done }
}
