// One accounting connection's sync, running for as long as the connection does: a round goes
// through each step (contacts out, contacts in, invoices and credit notes out, payments in and out),
// each a series of activities that do a batch of records and move that step's cursor with them, so a
// restarted worker resumes where the last batch stopped. A rate limit the adapter could not wait out
// comes back as a wait, slept on a durable timer (not a failure). Between rounds the run waits for a
// `syncRequested` signal (integrations.sync, a Xero webhook, workflows.sync_contact) or the interval;
// after ROUNDS_PER_RUN rounds it continues as new, so its history stays short. A connection that can
// no longer be used (disconnected, its grant refused) ends the run with the reason; integrations.sync
// starts it again once the owner has connected again.
import { ActivityFailure, condition, continueAsNew, defineSignal, proxyActivities, setHandler, sleep } from '@temporalio/workflow'

export interface IntegrationSyncInput {
  companyId: string
  connectionId: string
  /** How long to wait between rounds when nothing asks for one. */
  intervalMs: number
}

export const SYNC_STEPS = ['contacts_out', 'contacts_in', 'invoices_out', 'credit_notes_out', 'payments_in', 'payments_out'] as const
export type SyncStep = (typeof SYNC_STEPS)[number]

export interface SyncBatchResult {
  /** Another batch of this step has records to do. */
  more: boolean
  /** The provider asked to wait this long (429) before the next batch. */
  waitMs: number | null
  /** The connection cannot be used (disconnected, refused, no adapter): the round stops here, saying why. */
  stopped: string | null
  done: number
  failed: number
}

export interface IntegrationSyncActivities {
  /** One batch of one step, its cursor moved in the transactions that store its records. */
  syncBatch(input: { companyId: string; connectionId: string; step: SyncStep }): Promise<SyncBatchResult>
  /** The round is over: the webhook events it covered are marked processed. */
  finishSyncRound(input: { companyId: string; connectionId: string; startedAt: string; outcome: string }): Promise<void>
}

export const integrationSyncWorkflowId = (keys: Pick<IntegrationSyncInput, 'companyId' | 'connectionId'>) => `integration-sync:${keys.companyId}:${keys.connectionId}`

/** Run a round now (a webhook arrived, or someone asked). */
export const syncRequestedSignal = defineSignal('syncRequested')

const ROUNDS_PER_RUN = 20
/** A batch that keeps failing (after its retries) is left for the next round rather than ending the run. */
const { syncBatch, finishSyncRound } = proxyActivities<IntegrationSyncActivities>({
  startToCloseTimeout: '3 minutes',
  // The activity heartbeats while it works, so a killed worker's batch is tried again within seconds.
  heartbeatTimeout: '15 seconds',
  scheduleToCloseTimeout: '15 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
})

async function round(input: IntegrationSyncInput): Promise<{ outcome: string; stopped: boolean }> {
  const totals = { done: 0, failed: 0 }
  for (const step of SYNC_STEPS) {
    for (;;) {
      const batch = await syncBatch({ companyId: input.companyId, connectionId: input.connectionId, step })
      totals.done += batch.done
      totals.failed += batch.failed
      if (batch.stopped) return { outcome: `stopped at ${step}: ${batch.stopped}`, stopped: true }
      if (batch.waitMs) await sleep(batch.waitMs)
      else if (!batch.more) break
    }
  }
  return { outcome: `${totals.done} records synced, ${totals.failed} failed`, stopped: false }
}

/** The run ends only when the connection cannot be used: why. */
export async function integrationSync(input: IntegrationSyncInput): Promise<{ stopped: string }> {
  let requested = false
  setHandler(syncRequestedSignal, () => { requested = true })
  for (let n = 0; n < ROUNDS_PER_RUN; n++) {
    requested = false
    const startedAt = new Date(Date.now()).toISOString()
    let result: { outcome: string; stopped: boolean }
    try {
      result = await round(input)
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error
      result = { outcome: `failed: ${error.cause?.message ?? error.message}; the next round tries again`, stopped: false }
    }
    await finishSyncRound({ companyId: input.companyId, connectionId: input.connectionId, startedAt, outcome: result.outcome })
    if (result.stopped) return { stopped: result.outcome }
    await condition(() => requested, input.intervalMs)
  }
  return continueAsNew<typeof integrationSync>(input)
}
