import { ApplicationFailure } from '@temporalio/activity'
import { defineDomain } from '../../core/domain.js'
import { PermanentDeliveryError } from '../../providers/sms/provider.js'
import { commsManagement, commsOperations } from './operations.js'
import { deliverMessagesDefinition } from './deliver.js'
import { sendMessage } from './send.js'
import type { MessageRequest } from '../../../workflows/messages.js'
import { listMessages } from './service.js'
import type { SendMessageActivities } from '../../../workflows/messages.js'

export const commsDomain = defineDomain({
  name: 'comms',
  description: 'SMS and email: history, and sending to clients within the plan\'s monthly limits.',
  operations: [...commsOperations, ...commsManagement],
  resources: [
    {
      uri: 'service://communications', name: 'Communications', scope: 'clients',
      description: 'SMS and email history with delivery status (newest 100, with the total), as comms.list returns it.',
      read: (deps, principal) => listMessages(deps, principal, { limit: 100 }),
    },
  ],
  activities: (deps) => ({
    async sendMessage(input: MessageRequest) {
      try {
        return await sendMessage(deps, input)
      } catch (error) {
        // A provider's permanent refusal (bad number, say) is not retried.
        if (error instanceof PermanentDeliveryError) throw ApplicationFailure.nonRetryable(error.message, 'PermanentDeliveryError')
        throw error
      }
    },
  }) satisfies SendMessageActivities,
  workflows: [deliverMessagesDefinition],
  usageCounts: { communications: 'select count(*)::int from communications' },
})
