// Domain events go to event_outbox in the same transaction as the change, for the webhooks
// capability to deliver. Canonical names are the REST ones (the MCP tool's lead_created style names
// become aliases when webhooks are built).
import type postgres from 'postgres'

export const EVENT_TYPES = [
  'lead.created', 'lead.updated', 'quote.created', 'quote.sent', 'quote.accepted',
  'job.created', 'job.scheduled', 'job.completed', 'invoice.sent', 'payment.received',
] as const
export type EventType = (typeof EVENT_TYPES)[number]


export async function recordEvent(
  tx: postgres.TransactionSql,
  event: { companyId: string; type: EventType; entityType: string; entityId: string; payload: unknown; at: Date },
): Promise<void> {
  await tx`
    insert into event_outbox (company_id, event_type, entity_type, entity_id, payload, created_at)
    values (${event.companyId}, ${event.type}, ${event.entityType}, ${event.entityId},
            ${tx.json(event.payload as postgres.JSONValue)}, ${event.at})`
}
