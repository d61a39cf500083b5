// Delivers a small set of messages (a quote link, an on-my-way notice) with retries; each message
// is idempotent on its own key, so a retried or restarted run never sends twice.
import { proxyActivities } from '@temporalio/workflow'
import type { QueuedMessage, SendMessageActivities } from '../../../../workflows/messages.js'

export interface DeliverMessagesInput {
  companyId: string
  /** What the messages are about, e.g. quote-send:<quoteId>:<send number>; the workflow id comes from it. */
  subject: string
  messages: QueuedMessage[]
}

export interface DeliverMessagesResult {
  results: { channel: string; to: string; status: string; error?: string }[]
}

/** One run per action (its subject). */
export const deliverMessagesWorkflowId = (keys: Pick<DeliverMessagesInput, 'companyId' | 'subject'>) => `deliver:${keys.companyId}:${keys.subject}`

export type DeliverMessagesActivities = SendMessageActivities

const { sendMessage } = proxyActivities<DeliverMessagesActivities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8,
    nonRetryableErrorTypes: ['PermanentDeliveryError'],
  },
})

export async function deliverMessages(input: DeliverMessagesInput): Promise<DeliverMessagesResult> {
  const results: DeliverMessagesResult['results'] = []
  for (const message of input.messages) {
    try {
      const outcome = await sendMessage({ companyId: input.companyId, ...message })
      results.push({ channel: message.channel, to: message.to, status: outcome.status, ...(outcome.reason ? { error: outcome.reason } : {}) })
    } catch (error) {
      results.push({ channel: message.channel, to: message.to, status: 'failed', error: (error as Error).message })
    }
  }
  return { results }
}
