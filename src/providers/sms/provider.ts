// SMS provider interface. The local default records messages in our outbox only (status
// 'recorded'); the Twilio adapter sends for real. Chosen by SMS_PROVIDER.

export interface OutboundSms {
  to: string // E.164
  body: string
  /** Stable per logical message, so a retried activity never sends twice. */
  idempotencyKey: string
  /** Where the gateway reports delivery status (our public Twilio status route for this message). */
  statusCallback?: string
}

export interface SmsResult {
  providerMessageId: string
  /**
   * 'recorded' = kept in our outbox only; 'queued' = accepted by the gateway, not yet sent to the
   * carrier (its status callbacks move it on); 'sent' = already on its way to the carrier.
   */
  status: 'recorded' | 'queued' | 'sent'
}

export interface SmsProvider {
  readonly name: string
  send(message: OutboundSms): Promise<SmsResult>
}

/** A permanent failure (bad number, unverified sender): retrying cannot help. */
export class PermanentDeliveryError extends Error {
  override readonly name = 'PermanentDeliveryError'
}
