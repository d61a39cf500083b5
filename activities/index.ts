// Activities are thin wrappers over domain services, built from injected deps so tests run the
// real ones against their own database.
import { ApplicationFailure } from '@temporalio/activity'
import type { Deps } from '../src/core/deps.js'
import { expireTrialIfUnpaid } from '../src/domains/billing/subscription.js'
import { markLeadContacted, planInstantResponse } from '../src/domains/automations/instant-response.js'
import { sendMessage, type MessageRequest } from '../src/domains/comms/send.js'
import { PermanentDeliveryError } from '../src/providers/sms/provider.js'

export function createActivities(deps: Deps) {
  return {
    async expireTrialIfUnpaid(input: { companyId: string }): Promise<{ expired: boolean }> {
      return { expired: await expireTrialIfUnpaid(deps, input.companyId) }
    },
    planInstantResponse(input: { companyId: string; leadId: string }) {
      return planInstantResponse(deps, input.companyId, input.leadId)
    },
    async sendMessage(input: MessageRequest) {
      try {
        return await sendMessage(deps, input)
      } catch (error) {
        if (error instanceof PermanentDeliveryError) {
          throw ApplicationFailure.nonRetryable(error.message, 'PermanentDeliveryError')
        }
        throw error
      }
    },
    markLeadContacted(input: { companyId: string; leadId: string }) {
      return markLeadContacted(deps, input.companyId, input.leadId)
    },
  }
}

export type Activities = ReturnType<typeof createActivities>
