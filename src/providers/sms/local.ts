import type { OutboundSms, SmsProvider, SmsResult } from './provider.js'

/** No SMS gateway configured: the message is only recorded in the communications table. */
export class LocalOutboxSms implements SmsProvider {
  readonly name = 'local-outbox'
  async send(message: OutboundSms): Promise<SmsResult> {
    return { providerMessageId: `local:${message.idempotencyKey}`, status: 'recorded' }
  }
}
