// Twilio Programmable Messaging over its REST API (no SDK: one form POST is all we need). The
// message is sent with a StatusCallback URL, so Twilio's status callbacks (verified by
// twilio-signature.ts) move it on from 'queued' to sent, delivered, failed or undelivered.
import { PermanentDeliveryError, type OutboundSms, type SmsProvider, type SmsResult } from './provider.js'

export interface TwilioConfig {
  accountSid: string
  authToken: string
  /** Sender: an E.164 number or an alphanumeric sender id. */
  from: string
  baseUrl?: string
}

/**
 * Twilio's status at creation, in our words: accepted/queued/scheduled wait at Twilio (its status
 * callbacks move them on); sending/sent, or a reply naming no status, count as handed over.
 */
function statusAtCreation(status: string | undefined): SmsResult['status'] {
  return status === 'accepted' || status === 'queued' || status === 'scheduled' ? 'queued' : 'sent'
}

export class TwilioSms implements SmsProvider {
  readonly name = 'twilio'
  constructor(readonly config: TwilioConfig) {}

  async send(message: OutboundSms): Promise<SmsResult> {
    const base = this.config.baseUrl ?? 'https://api.twilio.com'
    const form = new URLSearchParams({ To: message.to, From: this.config.from, Body: message.body })
    if (message.statusCallback) form.set('StatusCallback', message.statusCallback)
    const res = await fetch(`${base}/2010-04-01/Accounts/${this.config.accountSid}/Messages.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.config.accountSid}:${this.config.authToken}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        // Twilio de-duplicates retried requests carrying the same key.
        'I-Twilio-Idempotency-Token': message.idempotencyKey,
      },
      body: form,
      signal: AbortSignal.timeout(10_000),
    })
    const body = (await res.json().catch(() => ({}))) as { sid?: string; status?: string; message?: string; code?: number }
    if (res.ok && body.sid) return { providerMessageId: body.sid, status: statusAtCreation(body.status) }
    const detail = `Twilio ${res.status}${body.code ? ` (${body.code})` : ''}: ${body.message ?? 'no detail'}`
    // 4xx other than rate limiting means the request itself is wrong: do not retry.
    if (res.status >= 400 && res.status < 500 && res.status !== 429) throw new PermanentDeliveryError(detail)
    throw new Error(detail)
  }
}
