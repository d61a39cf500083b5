// Messages that go out as part of a domain action (quote link, ETA) are queued on the workflow
// outbox in the action's transaction and delivered by the deliverMessages workflow.
import type postgres from 'postgres'
import { enqueueWorkflow, type OutboxItem } from '../../temporal/outbox.js'
import type { MessageRequest } from './send.js'

export type QueuedMessage = Omit<MessageRequest, 'companyId'>

export interface DeliverMessagesInput {
  companyId: string
  messages: QueuedMessage[]
}

/** Workflow id from the business key, e.g. quote-send:<company>:<quote>:<n>. */
export function queueMessages(tx: postgres.TransactionSql, companyId: string, key: string, messages: QueuedMessage[]): Promise<OutboxItem> {
  return enqueueWorkflow(tx, {
    companyId,
    workflowType: 'deliverMessages',
    workflowId: `${key}`,
    input: { companyId, messages } satisfies DeliverMessagesInput,
  })
}
