// Bounded retries for the automations' activities: each attempt 10 s at most, all attempts within
// 10 minutes (schedule-to-close), so a run never retries an outage forever. Sending a message also
// gives up at once on a provider's permanent refusal (a bad number).
import type { ActivityOptions } from '@temporalio/workflow'

export const DATABASE_STEP: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '10 minutes',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
}

export const MESSAGE_SEND: ActivityOptions = {
  ...DATABASE_STEP,
  retry: { ...DATABASE_STEP.retry, nonRetryableErrorTypes: ['PermanentDeliveryError'] },
}
