// SQL for integration connections, their entity links, sync cursors and webhook events. Tokens
// are read and written only sealed (token-crypto.ts); presentConnection never shows them.
import type postgres from 'postgres'
import type { Page } from '../../core/paging.js'
import { listPage } from '../../core/paging.js'
import { accountingListings } from '../../providers/accounting/catalogue.js'
import type { AccountingEntity, AccountingProviderId, RateLimits } from '../../providers/accounting/provider.js'
import type { Config } from '../../config.js'
import type { ConnectionStatus } from './schema.js'

export interface ConnectionRow {
  id: string
  company_id: string
  provider: AccountingProviderId
  tenant_id: string
  tenant_name: string | null
  status: ConnectionStatus
  access_token_sealed: string
  refresh_token_sealed: string
  token_key_id: string
  access_token_expires_at: Date
  scopes: string[]
  refreshed_at: Date | null
  last_error: string | null
  last_error_at: Date | null
  minute_limit_remaining: number | null
  day_limit_remaining: number | null
  limits_seen_at: Date | null
  connected_by: string
  created_at: Date
  updated_at: Date
}

export interface SealedTokens {
  access_token_sealed: string
  refresh_token_sealed: string
  token_key_id: string
  access_token_expires_at: Date
  scopes: string[]
}

export async function findConnection(tx: postgres.TransactionSql, id: string, options: { forUpdate?: boolean } = {}): Promise<ConnectionRow | null> {
  const [row] = options.forUpdate
    ? await tx<ConnectionRow[]>`select * from integration_connections where id = ${id} for no key update`
    : await tx<ConnectionRow[]>`select * from integration_connections where id = ${id}`
  return row ?? null
}

/** A second grant of the same organisation replaces the tokens: one connection per company, provider and tenant. */
export async function upsertConnection(
  tx: postgres.TransactionSql,
  companyId: string,
  fields: { provider: AccountingProviderId; tenant_id: string; tenant_name: string | null; connected_by: string } & SealedTokens,
  at: Date,
): Promise<ConnectionRow> {
  const [row] = await tx<ConnectionRow[]>`
    insert into integration_connections (company_id, provider, tenant_id, tenant_name, status, access_token_sealed, refresh_token_sealed, token_key_id,
                                         access_token_expires_at, scopes, refreshed_at, connected_by, created_at, updated_at)
    values (${companyId}, ${fields.provider}, ${fields.tenant_id}, ${fields.tenant_name}, 'active', ${fields.access_token_sealed}, ${fields.refresh_token_sealed},
            ${fields.token_key_id}, ${fields.access_token_expires_at}, ${fields.scopes}, ${at}, ${fields.connected_by}, ${at}, ${at})
    on conflict (company_id, provider, tenant_id) do update set
      tenant_name = excluded.tenant_name, status = 'active', access_token_sealed = excluded.access_token_sealed,
      refresh_token_sealed = excluded.refresh_token_sealed, token_key_id = excluded.token_key_id,
      access_token_expires_at = excluded.access_token_expires_at, scopes = excluded.scopes, refreshed_at = excluded.refreshed_at,
      connected_by = excluded.connected_by, last_error = null, last_error_at = null, updated_at = excluded.updated_at
    returning *`
  return row!
}

export async function storeRefreshedTokens(tx: postgres.TransactionSql, id: string, tokens: SealedTokens, at: Date): Promise<void> {
  await tx`
    update integration_connections set access_token_sealed = ${tokens.access_token_sealed}, refresh_token_sealed = ${tokens.refresh_token_sealed},
      token_key_id = ${tokens.token_key_id}, access_token_expires_at = ${tokens.access_token_expires_at}, scopes = ${tokens.scopes},
      refreshed_at = ${at}, status = 'active', last_error = null, last_error_at = null, updated_at = ${at}
    where id = ${id}`
}

export async function recordConnectionError(tx: postgres.TransactionSql, id: string, error: string, status: ConnectionStatus, at: Date): Promise<void> {
  await tx`update integration_connections set status = ${status}, last_error = ${error}, last_error_at = ${at}, updated_at = ${at} where id = ${id}`
}

export async function recordLimits(tx: postgres.TransactionSql, id: string, limits: RateLimits, at: Date): Promise<void> {
  await tx`
    update integration_connections set minute_limit_remaining = ${limits.minute_remaining}, day_limit_remaining = ${limits.day_remaining}, limits_seen_at = ${at}
    where id = ${id}`
}

export async function activeProviders(tx: postgres.TransactionSql): Promise<Set<string>> {
  const rows = await tx<{ provider: string }[]>`select distinct provider from integration_connections where status = 'active'`
  return new Set(rows.map((r) => r.provider))
}

export async function listConnectionRows(tx: postgres.TransactionSql, filter: { status?: ConnectionStatus }, page: Page) {
  return listPage<ConnectionRow>(tx, page, {
    select: tx`select * from integration_connections`,
    from: tx`from integration_connections`,
    matching: [filter.status && tx`status = ${filter.status}`],
  })
}

export function presentConnection(config: Config, row: ConnectionRow) {
  const listing = accountingListings(config).find((l) => l.provider === row.provider)!
  return {
    id: row.id,
    provider: row.provider,
    category: 'accounting' as const,
    tenant_id: row.tenant_id,
    tenant_name: row.tenant_name,
    status: row.status,
    capabilities: listing.capabilities,
    scopes: row.scopes,
    access_token_expires_at: row.access_token_expires_at.toISOString(),
    last_error: row.last_error,
    last_error_at: row.last_error_at?.toISOString() ?? null,
    rate_limits: { minute_remaining: row.minute_limit_remaining, day_remaining: row.day_limit_remaining, seen_at: row.limits_seen_at?.toISOString() ?? null },
    createdAt: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}

export interface EntityLink { provider_id: string; provider_number: string | null; linked_by: string }

export async function findLink(tx: postgres.TransactionSql, connectionId: string, entityType: AccountingEntity, ourId: string): Promise<EntityLink | null> {
  const [row] = await tx<EntityLink[]>`
    select provider_id, provider_number, linked_by from integration_entity_links
    where connection_id = ${connectionId} and entity_type = ${entityType} and our_id = ${ourId}`
  return row ?? null
}

/** The first link stands: a concurrent push that linked the same record keeps its link (and its provider id). */
export async function insertLink(
  tx: postgres.TransactionSql, companyId: string, connectionId: string, entityType: AccountingEntity, ourId: string,
  link: EntityLink, at: Date,
): Promise<EntityLink> {
  await tx`
    insert into integration_entity_links (company_id, connection_id, entity_type, our_id, provider_id, provider_number, linked_by, synced_at)
    values (${companyId}, ${connectionId}, ${entityType}, ${ourId}, ${link.provider_id}, ${link.provider_number}, ${link.linked_by}, ${at})
    on conflict do nothing`
  return (await findLink(tx, connectionId, entityType, ourId))!
}

export async function markPushed(
  tx: postgres.TransactionSql, companyId: string, connectionId: string, entityType: AccountingEntity, result: { ok: boolean; error: string | null }, at: Date,
): Promise<void> {
  await tx`
    insert into integration_sync_cursors (company_id, connection_id, entity_type, direction, last_synced_at, last_result, last_error, records_done, updated_at)
    values (${companyId}, ${connectionId}, ${entityType}, 'push', ${at}, ${result.ok ? 'ok' : 'error'}, ${result.error}, ${result.ok ? 1 : 0}, ${at})
    on conflict (connection_id, entity_type, direction) do update set
      last_synced_at = excluded.last_synced_at, last_result = excluded.last_result, last_error = excluded.last_error,
      records_done = integration_sync_cursors.records_done + excluded.records_done, updated_at = excluded.updated_at`
}

export async function connectionActivity(tx: postgres.TransactionSql, connectionId: string) {
  const [cursors, [links], [events]] = await Promise.all([
    tx<{ entity_type: AccountingEntity; direction: 'pull' | 'push'; last_synced_at: Date | null; last_result: 'ok' | 'error' | null; last_error: string | null; records_done: number }[]>`
      select entity_type, direction, last_synced_at, last_result, last_error, records_done from integration_sync_cursors
      where connection_id = ${connectionId} order by entity_type, direction`,
    tx<{ n: number }[]>`select count(*)::int as n from integration_entity_links where connection_id = ${connectionId}`,
    tx<{ n: number }[]>`select count(*)::int as n from integration_webhook_events where connection_id = ${connectionId} and processed_at is null`,
  ])
  return {
    entities: cursors.map((c) => ({ ...c, last_synced_at: c.last_synced_at?.toISOString() ?? null })),
    linked_records: links!.n,
    webhook_events_waiting: events!.n,
  }
}

export interface WebhookEvent { eventCategory: string; eventType: string; resourceId: string; eventDateUtc: string; tenantId: string }

/** Returns how many were new (a redelivered event is already there). */
export async function insertWebhookEvents(tx: postgres.TransactionSql, companyId: string, connectionId: string, events: WebhookEvent[], at: Date): Promise<number> {
  let added = 0
  for (const e of events) {
    const rows = await tx`
      insert into integration_webhook_events (company_id, connection_id, event_category, event_type, resource_id, event_at, received_at)
      values (${companyId}, ${connectionId}, ${e.eventCategory}, ${e.eventType}, ${e.resourceId}, ${new Date(e.eventDateUtc)}, ${at})
      on conflict do nothing returning id`
    added += rows.length
  }
  return added
}

/** The lead (or client) a contact is pushed from. */
export async function findLeadContact(tx: postgres.TransactionSql, leadId: string): Promise<{ name: string; email: string | null; phone: string | null } | null> {
  const [lead] = await tx<{ name: string; email: string | null; phone: string | null }[]>`select name, email, phone from leads where id = ${leadId}`
  return lead ?? null
}

export interface InvoiceForPush { id: string; lead_id: string; invoice_number: string; kind: string; status: string; issue_date: string; due_date: string }
export interface InvoiceLineForPush { description: string; quantity: string; unit_price_cents: string; gst_cents: string; total_cents: string }

/** An invoice or credit note with its lines, as pushed to the accounting package. */
export async function findInvoiceForPush(tx: postgres.TransactionSql, invoiceId: string): Promise<{ invoice: InvoiceForPush | undefined; lines: InvoiceLineForPush[] }> {
  const [invoice] = await tx<InvoiceForPush[]>`
    select id, lead_id, invoice_number, kind, status, issue_date::text, due_date::text from invoices where id = ${invoiceId}`
  const lines = invoice
    ? await tx<InvoiceLineForPush[]>`select description, quantity::text, unit_price_cents::text, gst_cents::text, total_cents::text from invoice_line_items where invoice_id = ${invoiceId} order by position`
    : []
  return { invoice, lines }
}

/** Every company connected to a provider's organisation (webhooks carry only the tenant id; a definer function, before any tenant is set). */
export async function findConnectionsOfTenant(sql: postgres.Sql, provider: AccountingProviderId, tenantId: string): Promise<{ company_id: string; connection_id: string }[]> {
  return sql<{ company_id: string; connection_id: string }[]>`select * from integration_connections_for_tenant(${provider}, ${tenantId})`
}

/** The company's connections that can take a push now. */
export async function activeConnectionIds(tx: postgres.TransactionSql): Promise<{ id: string; provider: AccountingProviderId }[]> {
  return tx<{ id: string; provider: AccountingProviderId }[]>`select id, provider from integration_connections where status = 'active' order by created_at, id`
}
