// Opt-outs from marketing messages, per company, channel and address (Spam Act 2003). Recorded by
// an inbound STOP (Twilio webhook) or an email's unsubscribe page; read by sendMessage before every
// marketing message, and listed for the owner (GET /api/v1/comms/opt-outs).
import type { Static } from 'typebox'
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { pageFrom, type Page } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import { canonicalAddress } from './record.js'
import type { ListOptOutsInput } from './schema.js'

export interface OptOutChange {
  companyId: string
  channel: 'sms' | 'email'
  address: string
  source: 'sms_keyword' | 'email_unsubscribe'
  detail: string
  at: Date
}

/** Records (or renews) the opt-out. Idempotent: a second STOP or a second click changes nothing but the time. */
export async function recordOptOut(tx: postgres.TransactionSql, c: OptOutChange): Promise<void> {
  await tx`
    insert into message_opt_outs as o (company_id, channel, address, source, detail, opted_out_at, updated_at)
    values (${c.companyId}, ${c.channel}, ${canonicalAddress(c.channel, c.address)}, ${c.source}, ${c.detail}, ${c.at}, ${c.at})
    on conflict (company_id, channel, address) do update
      set opted_out_at = case when o.opted_back_in_at is null then o.opted_out_at else excluded.opted_out_at end,
          source = excluded.source, detail = excluded.detail, opted_back_in_at = null, updated_at = excluded.updated_at`
}

/** START / UNSTOP / YES: marketing may go again. The row stays, as the record of consent. */
export async function recordOptIn(tx: postgres.TransactionSql, c: Omit<OptOutChange, 'source'>): Promise<void> {
  await tx`
    update message_opt_outs set opted_back_in_at = ${c.at}, detail = ${c.detail}, updated_at = ${c.at}
    where channel = ${c.channel} and address = ${canonicalAddress(c.channel, c.address)} and opted_back_in_at is null`
}

interface OptOutRow {
  channel: 'sms' | 'email'
  address: string
  source: string
  detail: string | null
  opted_out_at: Date
  opted_back_in_at: Date | null
  updated_at: Date
}

export async function listOptOuts(deps: Deps, principal: Principal, input: Static<typeof ListOptOutsInput>) {
  const page: Page = pageFrom({ limit: input.limit, offset: input.offset })
  const includeOptedIn = input.include_opted_back_in ?? false
  const rows = await withTenant(deps.db, principal.companyId, (tx) => tx<OptOutRow[]>`
    select channel, address, source, detail, opted_out_at, opted_back_in_at, updated_at from message_opt_outs
    where (${includeOptedIn} or opted_back_in_at is null) and (${input.channel ?? null}::text is null or channel = ${input.channel ?? null})
    order by updated_at desc, channel, address limit ${page.limit + 1} offset ${page.offset}`)
  const more = rows.length > page.limit
  return {
    optOuts: rows.slice(0, page.limit).map((r) => ({
      channel: r.channel, address: r.address, source: r.source, detail: r.detail,
      optedOutAt: r.opted_out_at.toISOString(), optedBackInAt: r.opted_back_in_at?.toISOString() ?? null,
      inForce: r.opted_back_in_at === null,
    })),
    limit: page.limit,
    offset: page.offset,
    hasMore: more,
  }
}
