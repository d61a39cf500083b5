// Messages that go out as part of a domain action (quote link, ETA) are counted against the
// month's limits and queued on the workflow outbox in the action's transaction, then delivered by
// the deliverMessages workflow.
import type postgres from 'postgres'
import { defineWorkflow, workflowStart, type WorkflowSpec } from '../../temporal/contract.js'
import { reserveOrRefuse } from '../billing/message-quota.js'
import { deliverMessages, deliverMessagesWorkflowId, type DeliverMessagesInput, type DeliverMessagesActivities } from './workflows/deliver-messages.js'
import type { QueuedMessage } from '../../../workflows/messages.js'

export type { QueuedMessage, DeliverMessagesInput }

export const deliverMessagesDefinition = defineWorkflow<DeliverMessagesActivities>()({
  workflow: deliverMessages,
  id: deliverMessagesWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Delivers the messages of one action (a quote sent, an on-my-way notice) with retries; one run per action, and each message is sent at most once.',
})

/**
 * Counts the messages against the SMS and email limits, all or nothing (over a limit it throws
 * rate_limited and the action's transaction rolls back), and returns their delivery to start.
 */
export async function reserveMessageDelivery(
  tx: postgres.TransactionSql,
  request: { companyId: string; subject: string; messages: QueuedMessage[]; now: Date },
): Promise<WorkflowSpec> {
  await reserveOrRefuse(tx, request.companyId, request.messages, request.now)
  const messages = request.messages.map((m) => ({ ...m, quotaReserved: true }))
  return workflowStart(deliverMessagesDefinition, { companyId: request.companyId, subject: request.subject, messages })
}
