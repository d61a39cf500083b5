import { ApplicationFailure } from '@temporalio/activity'
import { defineDomain } from '../../core/domain.js'
import { PermanentDeliveryError } from '../../providers/sms/provider.js'
import { commsPlannedTools } from './operations.js'
import { deliverMessagesDefinition } from './deliver.js'
import { sendMessage, type MessageRequest } from './send.js'

export const commsDomain = defineDomain({
  name: 'comms',
  description: 'SMS and email: history, and sending to clients within the plan\'s monthly limits.',
  operations: commsPlannedTools,
  resources: [
    { uri: 'service://communications', name: 'Communications', scope: 'clients', description: 'SMS and email history with delivery status.', capability: 'Communications and reminders' },
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
  }),
  workflows: [deliverMessagesDefinition],
  usageCounts: { communications: 'select count(*)::int from communications' },
})
