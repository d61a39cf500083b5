// integrations.sync and the sync workflow's activities. One workflow per connection
// (integration-sync:<company>:<connection>), started write-then-start and then signalled, so asking
// again while it runs only asks for another round. A webhook and workflows.sync_contact ask the same
// way (requestSync). The activities refresh the token (serialised, tokens.ts), run one batch of one
// step (sync-steps.ts), turn a rate limit into a wait for the workflow's timer and an unusable
// connection into a stop, and keep the limits the provider reported.
import { Context } from '@temporalio/activity'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { PROVIDER_NAMES } from '../../providers/accounting/catalogue.js'
import { ProviderCallError } from '../../providers/accounting/provider.js'
import { defineWorkflow, workflowStart } from '../../temporal/contract.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { PushContext } from './push.js'
import { findConnection, recordConnectionError, type ConnectionRow } from './queries.js'
import { markWebhookEventsProcessed } from './queries/sync.js'
import type { SyncInput } from './schema.js'
import { runSyncStep } from './sync-steps.js'
import { connectionAccess, keepLimits } from './tokens.js'
import {
  integrationSync, integrationSyncWorkflowId, syncRequestedSignal, type IntegrationSyncActivities, type SyncBatchResult,
} from './workflows/integration-sync.js'

export const integrationSyncDefinition = defineWorkflow<IntegrationSyncActivities>()({
  workflow: integrationSync,
  id: integrationSyncWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE',
  description: "Keeps one accounting connection in step (contacts both ways, invoices and credit notes out, payments both ways), a round on request (integrations.sync, a webhook) or every INTEGRATIONS_SYNC_INTERVAL_MS. One run per connection: a second start joins the running one; a stopped one may start again.",
})

/** A usable connection, or a conflict that says to connect (again). */
function usable(row: ConnectionRow | null, connectionId: string): ConnectionRow {
  if (!row) throw new AppError('not_found', `No integration connection ${connectionId}; see integrations.list_connections, or connect one with integrations.connect.`)
  if (row.status === 'disconnected') {
    throw new AppError('conflict', `Connection ${row.id} (${PROVIDER_NAMES[row.provider]}) is disconnected, so nothing can be synced; connect it again with integrations.connect.`)
  }
  return row
}

/**
 * Starts the connection's sync workflow (after commit) if it is not running, then signals it for a
 * round now. Returns its id. The connection must exist and not be disconnected.
 */
export async function requestSync(deps: Deps, companyId: string, connectionId: string): Promise<{ workflowId: string; connection: ConnectionRow }> {
  const input = { companyId, connectionId, intervalMs: deps.config.INTEGRATIONS_SYNC_INTERVAL_MS }
  const connection = await withTenantThenStart(deps, companyId, async (tx, start) => {
    const row = usable(await findConnection(tx, connectionId), connectionId)
    await start(workflowStart(integrationSyncDefinition, input))
    return row
  })
  const workflowId = integrationSyncWorkflowId(input)
  await deps.workflows.signal(workflowId, syncRequestedSignal)
  return { workflowId, connection }
}

export async function syncConnection(deps: Deps, principal: Principal, input: Static<typeof SyncInput>) {
  const { workflowId, connection } = await requestSync(deps, principal.companyId, input.connection_id)
  return { connection_id: connection.id, workflow_id: workflowId, requested: true }
}

/** Heartbeats every few seconds while a batch runs (a provider's Retry-After may hold a call), so only a dead worker misses them. */
function heartbeating(): { beat: () => void; stop: () => void } {
  let context: Context | null = null
  try { context = Context.current() } catch { /* called outside an activity (a test): nothing to heartbeat */ }
  if (!context) return { beat: () => {}, stop: () => {} }
  const beat = () => context.heartbeat()
  const timer = setInterval(beat, 3000)
  return { beat, stop: () => clearInterval(timer) }
}

const stop = (why: string): SyncBatchResult => ({ more: false, waitMs: null, stopped: why, done: 0, failed: 0 })

export async function syncBatch(deps: Deps, input: Parameters<IntegrationSyncActivities['syncBatch']>[0]): Promise<SyncBatchResult> {
  const heartbeat = heartbeating()
  try {
    let access
    try {
      access = await connectionAccess(deps, input.companyId, input.connectionId)
    } catch (error) {
      if (error instanceof AppError && error.code === 'rate_limited') return { more: true, waitMs: 60_000, stopped: null, done: 0, failed: 0 }
      if (error instanceof AppError) return stop(error.message)
      throw error
    }
    const keeper = new PushContext(deps, input.companyId, access)
    try {
      const result = await runSyncStep({ deps, companyId: input.companyId, access, batchSize: deps.config.INTEGRATIONS_SYNC_BATCH_SIZE, progress: heartbeat.beat, push: keeper }, input.step)
      await keepLimits(deps, input.companyId, input.connectionId, keeper.limits)
      return { ...result, waitMs: null, stopped: null }
    } catch (error) {
      if (!(error instanceof ProviderCallError)) throw error
      await keepLimits(deps, input.companyId, input.connectionId, error.limits ?? keeper.limits)
      // A rate limit longer than the adapter waits: the workflow sleeps it out on a timer.
      if (error.status === 429) return { more: true, waitMs: (error.retryAfterSeconds ?? 60) * 1000, stopped: null, done: 0, failed: 0 }
      if (error.status === 401 || error.status === 403) {
        const message = `${PROVIDER_NAMES[access.connection.provider]}: ${error.message}`
        await withTenant(deps.db, input.companyId, (tx) => recordConnectionError(tx, input.connectionId, message, 'error', deps.clock.now()))
        return stop(`${message}; connect again with integrations.connect`)
      }
      throw error // a 5xx or no answer: the activity is retried, with the same idempotency keys
    }
  } finally {
    heartbeat.stop()
  }
}

export async function finishSyncRound(deps: Deps, input: Parameters<IntegrationSyncActivities['finishSyncRound']>[0]): Promise<void> {
  const processed = await withTenant(deps.db, input.companyId, (tx) => markWebhookEventsProcessed(tx, input.connectionId, new Date(input.startedAt), deps.clock.now()))
  deps.logger.info({ companyId: input.companyId, connectionId: input.connectionId, outcome: input.outcome, webhookEvents: processed }, 'integration sync round finished')
}
