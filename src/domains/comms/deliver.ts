// Messages that go out as part of a domain action (quote link, ETA) are queued on the workflow
// outbox in the action's transaction and delivered by the deliverMessages workflow.
import { defineWorkflow, workflowStart, type WorkflowSpec } from '../../temporal/contract.js'
import { deliverMessages } from '../../../workflows/deliver-messages.js'
import type { MessageRequest } from './send.js'

export type QueuedMessage = Omit<MessageRequest, 'companyId'>

export interface DeliverMessagesInput {
  companyId: string
  /** What the messages are about, e.g. quote-send:<quoteId>:<send number>; the workflow id comes from it. */
  subject: string
  messages: QueuedMessage[]
}

export const deliverMessagesDefinition = defineWorkflow({
  workflow: deliverMessages,
  id: (input: DeliverMessagesInput) => `deliver:${input.companyId}:${input.subject}`,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Delivers the messages of one action (a quote sent, an on-my-way notice) with retries; one run per action, and each message is sent at most once.',
})

export function messageDelivery(companyId: string, subject: string, messages: QueuedMessage[]): WorkflowSpec {
  return workflowStart(deliverMessagesDefinition, { companyId, subject, messages })
}
