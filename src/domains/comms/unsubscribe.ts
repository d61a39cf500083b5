// The marketing email's unsubscribe link, /u/<token>: the token (random, one per message) is the
// only credential. Reading the page changes nothing (mail scanners follow links); the POST, from
// the page's button or a mail client's RFC 8058 one-click request, records the opt-out.
import type { Deps } from '../../core/deps.js'
import { notFound } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { recordOptOut } from './opt-outs.js'
import { optedOutSince, readCompany } from './record.js'
import { findMessageByUnsubscribeToken, findUnsubscribeCompany } from './queries/callbacks.js'

const TOKEN = /^[A-Za-z0-9_-]{20,64}$/

export interface UnsubscribeView {
  businessName: string
  /** The address, partly hidden: the page may be seen by someone the email was forwarded to. */
  maskedAddress: string
  optedOut: boolean
}

function mask(address: string): string {
  const [local = '', domain = ''] = address.split('@')
  return `${local.slice(0, 1)}${'*'.repeat(Math.max(1, Math.min(local.length - 1, 6)))}@${domain}`
}

async function withToken<T>(deps: Deps, token: string, fn: (companyId: string, message: { id: string; to: string }) => Promise<T>): Promise<T> {
  if (!TOKEN.test(token)) throw notFound('Unsubscribe link')
  const companyId = await findUnsubscribeCompany(deps.db.app, token)
  if (!companyId) throw notFound('Unsubscribe link')
  return fn(companyId, await withTenant(deps.db, companyId, async (tx) => {
    const row = await findMessageByUnsubscribeToken(tx, token)
    if (!row) throw notFound('Unsubscribe link')
    return { id: row.id, to: row.to_address }
  }))
}

export async function unsubscribeView(deps: Deps, token: string): Promise<UnsubscribeView> {
  return withToken(deps, token, (companyId, message) => withTenant(deps.db, companyId, async (tx) => {
    const company = await readCompany(tx)
    return { businessName: company.businessName, maskedAddress: mask(message.to), optedOut: (await optedOutSince(tx, 'email', message.to)) !== null }
  }))
}

export async function unsubscribe(deps: Deps, token: string): Promise<UnsubscribeView> {
  return withToken(deps, token, (companyId, message) => withTenant(deps.db, companyId, async (tx) => {
    const now = deps.clock.now()
    if ((await optedOutSince(tx, 'email', message.to)) === null) {
      await recordOptOut(tx, { companyId, channel: 'email', address: message.to, source: 'email_unsubscribe', detail: `message ${message.id}`, at: now })
    }
    const company = await readCompany(tx)
    return { businessName: company.businessName, maskedAddress: mask(message.to), optedOut: true }
  }))
}
