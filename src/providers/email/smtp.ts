// SMTP through nodemailer. The idempotency key becomes the Message-ID, so a retried send can be
// recognised downstream as the same message. The server's answer decides the status: the
// recipient accepted is 'sent'; a recipient rejected, or any 5xx, is a permanent failure (not
// retried); a 4xx or a lost connection is temporary (the activity retries).
import type { Transporter } from 'nodemailer'
import { PermanentDeliveryError } from '../sms/provider.js'
import type { EmailProvider, EmailResult, OutboundEmail } from './provider.js'
import { loadOnce } from '../../core/load-once.js'

interface SmtpFailure { responseCode?: number; code?: string; response?: string; message?: string }

const addressOf = (entry: unknown) => (typeof entry === 'string' ? entry : (entry as { address?: string })?.address ?? '').toLowerCase()

// Loaded on the first send (not when this module is imported), then cached.
const loadNodemailer = loadOnce(() => import('nodemailer'))

export class SmtpEmail implements EmailProvider {
  readonly name = 'smtp'
  /** The transport, made on first send. */
  private readonly transporter = loadOnce(async (): Promise<Transporter> => (await loadNodemailer()).default.createTransport(this.url))

  constructor(private readonly url: string, readonly from: string) {}

  async send(message: OutboundEmail): Promise<EmailResult> {
    const domain = this.from.split('@')[1]?.replace(/>.*$/, '') ?? 'localhost'
    let info: { messageId: string; accepted?: unknown[]; rejected?: unknown[]; response?: string }
    const transport = await this.transporter()
    try {
      info = await transport.sendMail({
        from: this.from,
        to: message.to,
        replyTo: message.replyTo,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: message.headers,
        attachments: message.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        messageId: `<${message.idempotencyKey.replace(/[^A-Za-z0-9._-]/g, '.')}@${domain}>`,
      })
    } catch (error) {
      const e = error as SmtpFailure
      // EENVELOPE: every recipient refused. A 5xx reply is the server's final word.
      if (e.code === 'EENVELOPE' || (e.responseCode !== undefined && e.responseCode >= 500 && e.responseCode < 600)) {
        throw new PermanentDeliveryError(`SMTP refused the message: ${e.response ?? e.message ?? 'no detail'}`)
      }
      throw error
    }
    const rejected = (info.rejected ?? []).map(addressOf)
    if (rejected.includes(message.to.toLowerCase()) || (info.accepted ?? []).length === 0) {
      throw new PermanentDeliveryError(`SMTP rejected the recipient ${message.to}${info.response ? `: ${info.response}` : ''}`)
    }
    return { providerMessageId: info.messageId, status: 'sent' }
  }
}
