// Messages that go out as part of a domain action (quote link, ETA) are queued on the workflow
// outbox in the action's transaction and delivered by the deliverMessages workflow.
import type { WorkflowSpec } from '../../temporal/outbox.js'
import type { MessageRequest } from './send.js'

export type QueuedMessage = Omit<MessageRequest, 'companyId'>

export interface DeliverMessagesInput {
  companyId: string
  messages: QueuedMessage[]
}

/** The deliverMessages workflow for these messages; its id is the business key, e.g. quote-send:<company>:<quote>:<n>. */
export function messageDelivery(companyId: string, workflowId: string, messages: QueuedMessage[]): WorkflowSpec {
  return { companyId, workflowType: 'deliverMessages', workflowId, input: { companyId, messages } satisfies DeliverMessagesInput }
}
