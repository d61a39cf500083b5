// Instant lead response. Plan the messages, send each (activities are idempotent per message),
// then mark the lead Contacted if at least one message went out. Timeouts fit the 30-second promise.
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import type { InstantResponseInput } from '../src/domains/automations/instant-response.js'

const { planInstantResponse, markLeadContacted } = proxyActivities<Activities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 10 },
})

const { sendMessage } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 6,
    nonRetryableErrorTypes: ['PermanentDeliveryError'],
  },
})

export interface InstantResponseResult {
  skipped: string | null
  sent: { channel: string; status: string; provider: string }[]
  failed: { channel: string; error: string }[]
  contacted: boolean
}

export async function instantResponse(input: InstantResponseInput): Promise<InstantResponseResult> {
  const plan = await planInstantResponse({ companyId: input.companyId, leadId: input.leadId })
  const result: InstantResponseResult = { skipped: plan.skipped, sent: [], failed: [], contacted: false }
  for (const message of plan.messages) {
    try {
      const outcome = await sendMessage({ companyId: input.companyId, leadId: input.leadId, messageType: 'instant_response', ...message })
      result.sent.push({ channel: message.channel, status: outcome.status, provider: outcome.provider })
    } catch (error) {
      // One channel failing (a bad email address, say) must not stop the other.
      result.failed.push({ channel: message.channel, error: error instanceof ApplicationFailure || error instanceof Error ? error.message : String(error) })
    }
  }
  if (result.sent.length) result.contacted = await markLeadContacted({ companyId: input.companyId, leadId: input.leadId })
  return result
}
