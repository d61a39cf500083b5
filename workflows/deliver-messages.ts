// Delivers a small set of messages (a quote link, an on-my-way notice) with retries; each message
// is idempotent on its own key, so a retried or restarted run never sends twice.
import { proxyActivities } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import type { DeliverMessagesInput } from '../src/domains/comms/deliver.js'

const { sendMessage } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 8,
    nonRetryableErrorTypes: ['PermanentDeliveryError'],
  },
})

export async function deliverMessages(input: DeliverMessagesInput) {
  const results: { channel: string; to: string; status: string; error?: string }[] = []
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
