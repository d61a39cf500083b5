// Recording an outbound message: composed as it will go out (marketing identification and opt-out
// added, the plain-text part derived), inserted once per idempotency key. Used both by the action
// that queues a message (comms.send_sms, in its own transaction) and by the send activity (for
// messages queued by other actions), so a message reads the same whichever way it was recorded.
import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { normaliseAuPhone } from '../../core/phone.js'
import { composeMessage } from './compose.js'
import { isMarketing, optOutAddress, type Sender } from './spam-act.js'
import type { MessageRequest } from '../../../workflows/messages.js'
import { findCompanySender, insertOutboundMessage } from './queries/messages.js'
import { findOptedOutAt } from './queries/opt-outs.js'

export interface Company extends Sender {
  contactEmail: string
}

export async function readCompany(tx: postgres.TransactionSql): Promise<Company> {
  const row = await findCompanySender(tx)
  return { businessName: row.business_name, abn: row.abn, contactEmail: row.contact_email }
}

export const unsubscribeUrl = (deps: Deps, token: string) => `${deps.urls.siteRoot}/u/${token}`

/** The address as kept: an SMS number in E.164 when it reads as an Australian number. */
export function canonicalAddress(channel: 'sms' | 'email', to: string): string {
  if (channel === 'sms') return normaliseAuPhone(to)?.e164 ?? to.trim()
  return optOutAddress('email', to)
}

/** When the recipient opted out of this company's marketing on this channel, and still is. */
export async function optedOutSince(tx: postgres.TransactionSql, channel: 'sms' | 'email', to: string): Promise<Date | null> {
  return findOptedOutAt(tx, channel, canonicalAddress(channel, to))
}

export function optedOutReason(channel: 'sms' | 'email', to: string, since: Date, company: Sender): string {
  const how = channel === 'sms' ? 'replied STOP' : 'unsubscribed'
  return `not sent: ${to} ${how} on ${since.toISOString()} and has opted out of marketing messages from ${company.businessName} (Spam Act 2003). ` +
    'Transactional messages (quotes, invoices, ETAs, reminders) still go; see GET /api/v1/comms/opt-outs.'
}

/** Inserts the message unless its idempotency key is already recorded; returns nothing either way. */
export async function recordOutbound(
  deps: Deps,
  tx: postgres.TransactionSql,
  req: MessageRequest,
  options: { provider: string; company: Company; id?: string; status?: 'queued' | 'failed'; error?: string },
): Promise<void> {
  const token = req.channel === 'email' && isMarketing(req.messageType) ? randomBytes(24).toString('base64url') : null
  const composed = await composeMessage(req, options.company, token ? unsubscribeUrl(deps, token) : null)
  const now = deps.clock.now()
  await insertOutboundMessage(tx, {
    id: options.id, company_id: req.companyId, channel: req.channel, message_type: req.messageType,
    to_address: req.channel === 'sms' ? canonicalAddress('sms', req.to) : req.to,
    from_address: req.channel === 'email' ? deps.email.from : (deps.sms.name === 'twilio' ? deps.config.TWILIO_FROM ?? null : null),
    subject: req.subject ?? null, body: composed.body, text_body: composed.text, unsubscribe_token: token,
    lead_id: req.leadId ?? null, quote_id: req.quoteId ?? null, job_id: req.jobId ?? null, invoice_id: req.invoiceId ?? null,
    attach_invoice_pdf: req.attachInvoicePdf ?? null, provider: options.provider,
    status: options.status ?? 'queued', error: options.error ?? null, idempotency_key: req.idempotencyKey, quota_counted: req.quotaReserved ?? false,
  }, now)
}
