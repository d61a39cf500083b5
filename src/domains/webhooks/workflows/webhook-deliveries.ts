// Delivers one subscription's webhooks: one long-lived run per subscription instead of one workflow
// per delivery, because a workflow start costs more than the delivery itself (the embedded server
// starts about 75 a second; the attempt alone runs at hundreds a second). Each pass is one activity
// that claims the subscription's due deliveries from the database, POSTs them a few at a time and
// records every attempt and its outcome on its delivery (the retry schedule and the next attempt's
// time live on the row, so nothing is lost with this run's state). Between passes the run sleeps
// until the earliest next attempt, or until the dispatcher's signal says new deliveries are
// waiting; idle long enough it ends (the next signalWithStart starts it again), and it continues
// as new before its history grows large. A disabled or removed subscription ends it.
import { condition, defineSignal, makeContinueAsNewFunc, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow'

export interface WebhookDeliveriesInput {
  companyId: string
  subscriptionId: string
  /** Delay before each attempt, in ms (the policy is part of the input, so tests run it short). */
  scheduleMs: number[]
  /** How long the run waits for new deliveries with nothing left to do before it ends. */
  idleMs: number
  /** Passes before the run continues as new (default 500; a test sets a few). */
  passesPerRun?: number
}

export interface WebhookDeliveriesResult {
  /** 'idle': nothing left to deliver; 'stopped': the subscription was disabled or removed. */
  outcome: 'idle' | 'stopped'
  passes: number
}

/** One run per subscription at a time; the dispatcher signals it (signalWithStart) for each new batch. */
export const webhookDeliveriesWorkflowId = (keys: Pick<WebhookDeliveriesInput, 'companyId' | 'subscriptionId'>) =>
  `webhook-deliveries:${keys.companyId}:${keys.subscriptionId}`

/** New deliveries are waiting (they are read from the database; the signal carries nothing). */
export const deliveriesPendingSignal = defineSignal('deliveriesPending')

export interface DeliveryPassResult {
  /** Deliveries this pass attempted. */
  attempted: number
  /** The pass claimed a full batch: there may be more due now. */
  full: boolean
  /**
   * How long until the earliest pending delivery is due, or null when none is pending. A duration
   * (not a time) so the worker's clock and the workflow's do not have to agree.
   */
  nextDueInMs: number | null
  /** The subscription is disabled or removed: its pending deliveries were failed. */
  stopped: boolean
}

export interface WebhookDeliveriesActivities {
  /** Claims the due deliveries, attempts them, records each attempt and schedules the failed ones' next. */
  deliverWebhookBatch(input: { companyId: string; subscriptionId: string; scheduleMs: number[] }): Promise<DeliveryPassResult>
}

// A local activity, as the per-delivery workflow used: it runs in the workflow task's worker with no
// activity task round trip through the server. Its timeout covers a batch of slow receivers (the
// batch is bounded, see delivery-batch.ts); a retry after a crash finds the claimed rows leased
// and the unrecorded ones come due again when the lease ends.
const { deliverWebhookBatch } = proxyLocalActivities<WebhookDeliveriesActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
})

/** Passes per run before continuing as new (the history stays small; the server also suggests it). */
const PASSES_PER_RUN = 500

export async function webhookDeliveries(input: WebhookDeliveriesInput): Promise<WebhookDeliveriesResult> {
  // A run starts by draining: the signal that started it, or the deliveries a previous run left.
  let pending = true
  setHandler(deliveriesPendingSignal, () => {
    pending = true
  })
  let passes = 0
  for (;;) {
    pending = false
    const pass = await deliverWebhookBatch({ companyId: input.companyId, subscriptionId: input.subscriptionId, scheduleMs: input.scheduleMs })
    passes++
    if (pass.stopped) return { outcome: 'stopped', passes }
    if (passes >= (input.passesPerRun ?? PASSES_PER_RUN) || workflowInfo().continueAsNewSuggested) {
      // Whatever this run was told is in the database; the next run begins with a pass. It keeps the
      // CompanyId search attribute, so the operator's filter in the Temporal UI still finds it.
      await makeContinueAsNewFunc<typeof webhookDeliveries>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })(input)
    }
    if (pass.full) continue
    if (pass.nextDueInMs === null) {
      // Nothing pending: wait for a signal a while, then end (a signal arriving as it ends is not
      // lost: the server refuses the completion and the run goes on).
      if (!(await condition(() => pending, input.idleMs))) return { outcome: 'idle', passes }
    } else if (pass.nextDueInMs > 0) {
      await condition(() => pending, pass.nextDueInMs)
    }
  }
}
