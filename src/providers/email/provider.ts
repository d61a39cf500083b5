// Email provider interface: local outbox default, SMTP (nodemailer) when EMAIL_PROVIDER=smtp.

export interface OutboundEmail {
  to: string
  subject: string
  html: string
  text: string
  idempotencyKey: string
  attachments?: EmailAttachment[]
  replyTo?: string
  /** Extra headers, e.g. List-Unsubscribe on a marketing email. */
  headers?: Record<string, string>
}

export interface EmailAttachment {
  filename: string
  contentType: string
  content: Buffer
}

export interface EmailResult {
  providerMessageId: string
  /** 'recorded' = kept in our outbox only; 'sent' = the mail server accepted the recipient. */
  status: 'recorded' | 'sent'
}

export interface EmailProvider {
  readonly name: string
  readonly from: string
  send(message: OutboundEmail): Promise<EmailResult>
}
