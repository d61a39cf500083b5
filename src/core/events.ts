// Domain events go to event_outbox in the same transaction as the change, for the webhooks
// capability to deliver. Canonical names are the REST ones; the MCP tool's names are aliases.
import type postgres from 'postgres'

export const EVENT_TYPES = [
  'lead.created', 'lead.updated', 'quote.created', 'quote.sent', 'quote.accepted',
  'job.created', 'job.scheduled', 'job.completed', 'invoice.sent', 'payment.received',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

/** The MCP webhooks.subscribe names (lead_created ...) mapped to canonical ones. */
export const EVENT_ALIASES: Record<string, EventType> = Object.fromEntries(
  EVENT_TYPES.map((t) => [t.replace('.', '_'), t]),
) as Record<string, EventType>

export async function recordEvent(
  tx: postgres.TransactionSql,
  event: { companyId: string; type: EventType; entityType: string; entityId: string; payload: unknown; at: Date },
): Promise<void> {
  await tx`
    insert into event_outbox (company_id, event_type, entity_type, entity_id, payload, created_at)
    values (${event.companyId}, ${event.type}, ${event.entityType}, ${event.entityId},
            ${tx.json(event.payload as postgres.JSONValue)}, ${event.at})`
}
