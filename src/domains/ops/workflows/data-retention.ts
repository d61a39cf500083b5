// One daily fire of the retention Schedule: each kind of old row is deleted in rounds (each round
// a short activity of a few batches), until a round finds less than it may delete, or the run has
// done MAX_ROUNDS of a kind (the rest waits for tomorrow, so one run's history stays small).
import { proxyActivities } from '@temporalio/workflow'

export interface DataRetentionInput {
  /** The platform placeholder (PLATFORM_COMPANY_ID): retention spans every company. */
  companyId: string
}

export type RetentionKind = 'idempotency_keys' | 'workflow_outbox' | 'webhook_deliveries' | 'event_outbox'

/** Rows deleted, by table (webhook_attempts go with their deliveries). */
export interface RetentionCounts {
  idempotency_keys: number
  workflow_outbox: number
  webhook_deliveries: number
  webhook_attempts: number
  event_outbox: number
}

export interface RetentionRound {
  deleted: Partial<RetentionCounts>
  /** Nothing of this kind is left to delete (a batch came back short). */
  done: boolean
}

export interface DataRetentionActivities {
  /** Deletes a few batches of one kind of old row, each batch its own short transaction. */
  pruneRetentionRound(input: { kind: RetentionKind }): Promise<RetentionRound>
}

/** The schedule's id and its runs' (the schedule appends each fire's time). */
export const dataRetentionWorkflowId = (keys: Pick<DataRetentionInput, 'companyId'>) => `data-retention:${keys.companyId}`

// Deliveries before events: an event goes only once no delivery refers to it.
const KINDS: readonly RetentionKind[] = ['idempotency_keys', 'workflow_outbox', 'webhook_deliveries', 'event_outbox']
const MAX_ROUNDS = 50

const { pruneRetentionRound } = proxyActivities<DataRetentionActivities>({
  startToCloseTimeout: '2 minutes',
  scheduleToCloseTimeout: '30 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
})

export async function dataRetention(_input: DataRetentionInput): Promise<RetentionCounts> {
  const total: RetentionCounts = { idempotency_keys: 0, workflow_outbox: 0, webhook_deliveries: 0, webhook_attempts: 0, event_outbox: 0 }
  for (const kind of KINDS) {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const { deleted, done } = await pruneRetentionRound({ kind })
      for (const [table, n] of Object.entries(deleted) as [keyof RetentionCounts, number][]) total[table] += n
      if (done) break
    }
  }
  return total
}
