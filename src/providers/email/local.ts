import type { EmailProvider, EmailResult, OutboundEmail } from './provider.js'

/** No mail server configured: the message is only recorded in the communications table. */
export class LocalOutboxEmail implements EmailProvider {
  readonly name = 'local-outbox'
  constructor(readonly from: string) {}
  async send(message: OutboundEmail): Promise<EmailResult> {
    return { providerMessageId: `local:${message.idempotencyKey}`, status: 'recorded' }
  }
}
