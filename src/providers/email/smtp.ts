// SMTP through nodemailer. The idempotency key becomes the Message-ID, so a retried send can be
// recognised downstream as the same message.
import nodemailer, { type Transporter } from 'nodemailer'
import type { EmailProvider, EmailResult, OutboundEmail } from './provider.js'

export class SmtpEmail implements EmailProvider {
  readonly name = 'smtp'
  private readonly transport: Transporter

  constructor(url: string, readonly from: string) {
    this.transport = nodemailer.createTransport(url)
  }

  async send(message: OutboundEmail): Promise<EmailResult> {
    const domain = this.from.split('@')[1]?.replace(/>.*$/, '') ?? 'localhost'
    const info = await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      attachments: message.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
      messageId: `<${message.idempotencyKey.replace(/[^A-Za-z0-9._-]/g, '.')}@${domain}>`,
    })
    return { providerMessageId: info.messageId, status: 'sent' }
  }
}
