// Domain events go to event_outbox in the same transaction as the change, for webhook delivery
// (domains/webhooks) to pick up. Canonical names are the REST ones (lead.created); the MCP tool's
// lead_created spellings are aliases (webhooks/events.ts). Each domain lists the events it writes
// (defineDomain's events); the catalogue is the union, and a test checks every written event is in it.
import type postgres from 'postgres'

export type EventType = `${string}.${string}`


export async function recordEvent(
  tx: postgres.TransactionSql,
  event: { companyId: string; type: EventType; entityType: string; entityId: string; payload: unknown; at: Date },
): Promise<void> {
  await tx`
    insert into event_outbox (company_id, event_type, entity_type, entity_id, payload, created_at)
    values (${event.companyId}, ${event.type}, ${event.entityType}, ${event.entityId},
            ${tx.json(event.payload as postgres.JSONValue)}, ${event.at})`
}
