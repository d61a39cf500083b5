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
import { listOptOutRows, markOptedBackIn, upsertOptOut } from './queries/opt-outs.js'

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
  await upsertOptOut(tx, { ...c, address: canonicalAddress(c.channel, c.address) })
}

/** START / UNSTOP / YES: marketing may go again. The row stays, as the record of consent. */
export async function recordOptIn(tx: postgres.TransactionSql, c: Omit<OptOutChange, 'source'>): Promise<void> {
  await markOptedBackIn(tx, { channel: c.channel, address: canonicalAddress(c.channel, c.address), detail: c.detail, at: c.at })
}

export async function listOptOuts(deps: Deps, principal: Principal, input: Static<typeof ListOptOutsInput>) {
  const page: Page = pageFrom({ limit: input.limit, offset: input.offset })
  const includeOptedIn = input.include_opted_back_in ?? false
  const rows = await withTenant(deps.db, principal.companyId, (tx) => listOptOutRows(tx, { includeOptedIn, channel: input.channel ?? null }, page))
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
