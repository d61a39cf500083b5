// What a tool that messages a customer shows of its messages: for a dry run the whole answer, for
// a real send the record of what went. Both come from the queued messages the real send hands to
// deliverMessages, rendered by composeMessage, the function recordOutbound stores and the provider
// receives, so a dry run cannot show something other than what is sent.
import type postgres from 'postgres'
import type { QueuedMessage } from '../../../workflows/messages.js'
import { composeMessage } from './compose.js'
import { canonicalAddress, readCompany } from './record.js'
import { isMarketing } from './spam-act.js'

export interface SentMessageView {
  channel: 'sms' | 'email'
  to: string
  subject: string | null
  text: string
  html: string | null
}

/** Shown in place of a marketing email's own unsubscribe link, which exists only once the message is recorded. */
export const UNSUBSCRIBE_PLACEHOLDER = '<unsubscribe link>'

/** A recorded message as it went to the provider (comms.send_sms and send_email answer with it). */
export function recordedView(row: { channel: 'sms' | 'email'; to_address: string; subject: string | null; body: string; text_body: string | null }): SentMessageView {
  return row.channel === 'sms'
    ? { channel: 'sms', to: row.to_address, subject: null, text: row.body, html: null }
    : { channel: 'email', to: row.to_address, subject: row.subject ?? '', text: row.text_body ?? '', html: row.body }
}

export async function messageViews(tx: postgres.TransactionSql, messages: QueuedMessage[]): Promise<SentMessageView[]> {
  if (!messages.length) return []
  const company = await readCompany(tx)
  return Promise.all(messages.map(async (m): Promise<SentMessageView> => {
    const unsubscribe = m.channel === 'email' && isMarketing(m.messageType) ? UNSUBSCRIBE_PLACEHOLDER : null
    const composed = await composeMessage(m, company, unsubscribe)
    return m.channel === 'sms'
      ? { channel: 'sms', to: canonicalAddress('sms', m.to), subject: null, text: composed.body, html: null }
      : { channel: 'email', to: m.to, subject: m.subject ?? '', text: composed.text ?? '', html: composed.body }
  }))
}
