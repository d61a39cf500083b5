// Comms SQL, marketing opt-outs (Spam Act 2003): recorded by STOP and unsubscribe links, read before
// every marketing message. Every function takes the tenant transaction from withTenant().
import type postgres from 'postgres'
import type { Page } from '../../../core/paging.js'

/** When the (canonical) address opted out of marketing on this channel, and still is. */
export async function findOptedOutAt(tx: postgres.TransactionSql, channel: 'sms' | 'email', address: string): Promise<Date | null> {
  const [row] = await tx<{ opted_out_at: Date }[]>`
    select opted_out_at from message_opt_outs
    where channel = ${channel} and address = ${address} and opted_back_in_at is null`
  return row?.opted_out_at ?? null
}

export interface OptOutUpsert {
  companyId: string
  channel: 'sms' | 'email'
  /** Canonical (canonicalAddress). */
  address: string
  source: 'sms_keyword' | 'email_unsubscribe'
  detail: string
  at: Date
}

/** Records or renews the opt-out; an opt-out still in force keeps its first time. */
export async function upsertOptOut(tx: postgres.TransactionSql, c: OptOutUpsert): Promise<void> {
  await tx`
    insert into message_opt_outs as o (company_id, channel, address, source, detail, opted_out_at, updated_at)
    values (${c.companyId}, ${c.channel}, ${c.address}, ${c.source}, ${c.detail}, ${c.at}, ${c.at})
    on conflict (company_id, channel, address) do update
      set opted_out_at = case when o.opted_back_in_at is null then o.opted_out_at else excluded.opted_out_at end,
          source = excluded.source, detail = excluded.detail, opted_back_in_at = null, updated_at = excluded.updated_at`
}

export async function markOptedBackIn(tx: postgres.TransactionSql, c: Omit<OptOutUpsert, 'source' | 'companyId'>): Promise<void> {
  await tx`
    update message_opt_outs set opted_back_in_at = ${c.at}, detail = ${c.detail}, updated_at = ${c.at}
    where channel = ${c.channel} and address = ${c.address} and opted_back_in_at is null`
}

export interface OptOutRow {
  channel: 'sms' | 'email'
  address: string
  source: string
  detail: string | null
  opted_out_at: Date
  opted_back_in_at: Date | null
  updated_at: Date
}

/** Newest change first; one row more than the page, to tell whether there is more. */
export async function listOptOutRows(tx: postgres.TransactionSql, filter: { includeOptedIn: boolean; channel: 'sms' | 'email' | null }, page: Page): Promise<OptOutRow[]> {
  const includeOptedIn = filter.includeOptedIn
  return tx<OptOutRow[]>`
    select channel, address, source, detail, opted_out_at, opted_back_in_at, updated_at from message_opt_outs
    where (${includeOptedIn} or opted_back_in_at is null) and (${filter.channel}::text is null or channel = ${filter.channel})
    order by updated_at desc, channel, address limit ${page.limit + 1} offset ${page.offset}`
}
