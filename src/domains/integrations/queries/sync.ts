// SQL of the sync workflow's steps: each entity's cursor (moved in the same transaction as the
// records it covers), the records of ours not yet at the provider (in a stable order, so a pass
// resumes after the last one done), and the matches for a record pulled from the provider.
import type postgres from 'postgres'
import type { AccountingEntity } from '../../../providers/accounting/provider.js'

export type SyncDirection = 'pull' | 'push'

/** Where a pass stands: (created_at, id) of the last record of ours done. */
export interface After { at: string; id: string }

export async function readCursor(tx: postgres.TransactionSql, connectionId: string, entity: AccountingEntity, direction: SyncDirection): Promise<string | null> {
  const [row] = await tx<{ cursor: string | null }[]>`
    select cursor from integration_sync_cursors where connection_id = ${connectionId} and entity_type = ${entity} and direction = ${direction}`
  return row?.cursor ?? null
}

/** Moves the cursor and counts the records it covers; `error` is kept until a step succeeds again. */
export async function saveCursor(
  tx: postgres.TransactionSql, companyId: string, connectionId: string, entity: AccountingEntity, direction: SyncDirection,
  change: { cursor: string | null; done: number; error: string | null }, at: Date,
): Promise<void> {
  const result = change.error ? 'error' : 'ok'
  await tx`
    insert into integration_sync_cursors (company_id, connection_id, entity_type, direction, cursor, last_synced_at, last_result, last_error, records_done, updated_at)
    values (${companyId}, ${connectionId}, ${entity}, ${direction}, ${change.cursor}, ${at}, ${result}, ${change.error}, ${change.done}, ${at})
    on conflict (connection_id, entity_type, direction) do update set
      cursor = excluded.cursor, last_synced_at = excluded.last_synced_at, last_result = excluded.last_result, last_error = excluded.last_error,
      records_done = integration_sync_cursors.records_done + excluded.records_done, updated_at = excluded.updated_at`
}

const afterClause = (tx: postgres.TransactionSql, alias: string, after: After | null) =>
  after ? tx`and (${tx(alias)}.created_at, ${tx(alias)}.id) > (${after.at}::timestamptz, ${after.id}::uuid)` : tx``

/** `at`: created_at as text, exact to the microsecond, so a cursor made from it compares exactly. */
export interface OurRecord { id: string; at: string }

/** Clients (a lead with a job or an invoice) with no contact at the provider yet. */
export async function unlinkedClients(tx: postgres.TransactionSql, connectionId: string, after: After | null, limit: number): Promise<OurRecord[]> {
  return tx<OurRecord[]>`
    select l.id, l.created_at::text as at from leads l
    where (exists (select 1 from jobs j where j.lead_id = l.id) or exists (select 1 from invoices i where i.lead_id = l.id))
      and not exists (select 1 from integration_entity_links k where k.connection_id = ${connectionId} and k.entity_type = 'contact' and k.our_id = l.id)
      ${afterClause(tx, 'l', after)}
    order by l.created_at, l.id limit ${limit}`
}

/** Invoices (or credit notes) not void and not yet at the provider. */
export async function unlinkedInvoices(tx: postgres.TransactionSql, connectionId: string, entity: 'invoice' | 'credit_note', after: After | null, limit: number): Promise<OurRecord[]> {
  const kind = entity === 'credit_note' ? tx`i.kind = 'credit_note'` : tx`i.kind <> 'credit_note'`
  return tx<OurRecord[]>`
    select i.id, i.created_at::text as at from invoices i
    where ${kind} and i.status <> 'Void'
      and not exists (select 1 from integration_entity_links k where k.connection_id = ${connectionId} and k.entity_type = ${entity} and k.our_id = i.id)
      ${afterClause(tx, 'i', after)}
    order by i.created_at, i.id limit ${limit}`
}

export interface PaymentOut extends OurRecord { amount_cents: string; received_at: Date; reference: string | null; invoice_number: string; invoice_provider_id: string }

/** Our payments on invoices that are at the provider, not yet there themselves and not pulled from it. */
export async function unlinkedPayments(tx: postgres.TransactionSql, connectionId: string, provider: string, after: After | null, limit: number): Promise<PaymentOut[]> {
  return tx<PaymentOut[]>`
    select p.id, p.created_at::text as at, p.amount_cents::text, p.received_at, p.reference, i.invoice_number, k.provider_id as invoice_provider_id
    from payments p
    join invoices i on i.id = p.invoice_id
    join integration_entity_links k on k.connection_id = ${connectionId} and k.entity_type = 'invoice' and k.our_id = p.invoice_id
    where p.provider <> ${provider} and p.amount_cents > 0
      and not exists (select 1 from integration_entity_links pk where pk.connection_id = ${connectionId} and pk.entity_type = 'payment' and pk.our_id = p.id)
      ${afterClause(tx, 'p', after)}
    order by p.created_at, p.id limit ${limit}`
}

/** Our record linked to a provider record, if any. */
export async function ourIdOf(tx: postgres.TransactionSql, connectionId: string, entity: AccountingEntity, providerId: string): Promise<string | null> {
  const [row] = await tx<{ our_id: string }[]>`
    select our_id from integration_entity_links where connection_id = ${connectionId} and entity_type = ${entity} and provider_id = ${providerId}`
  return row?.our_id ?? null
}

/** A lead or client a pulled contact is the same person as: by email first, then by name (case and spacing ignored). */
export async function matchingLead(tx: postgres.TransactionSql, match: { email: string | null; name: string }): Promise<{ id: string; by: 'email' | 'name' } | null> {
  if (match.email) {
    const [byEmail] = await tx<{ id: string }[]>`select id from leads where lower(email) = lower(${match.email}) order by created_at, id limit 1`
    if (byEmail) return { id: byEmail.id, by: 'email' }
  }
  const [byName] = await tx<{ id: string }[]>`
    select id from leads where lower(regexp_replace(trim(name), '\s+', ' ', 'g')) = lower(regexp_replace(trim(${match.name}), '\s+', ' ', 'g'))
    order by created_at, id limit 1`
  return byName ? { id: byName.id, by: 'name' } : null
}

/** Webhook events the round now starting covers. */
export async function markWebhookEventsProcessed(tx: postgres.TransactionSql, connectionId: string, receivedBy: Date, at: Date): Promise<number> {
  const rows = await tx`
    update integration_webhook_events set processed_at = ${at}
    where connection_id = ${connectionId} and processed_at is null and received_at <= ${receivedBy} returning id`
  return rows.length
}
