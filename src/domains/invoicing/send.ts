// Sending an invoice: the link by SMS and/or an email with the tax invoice PDF attached, counted
// against the month's message limits and delivered by the deliverMessages workflow after commit.
// The first send moves a Draft to Sent; every send writes invoice.sent.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { escapeHtml } from '../../core/html-escape.js'
import { formatCents } from '../../core/money.js'
import { customerEmail, customerSms, firstNameOf } from '../comms/customer-message.js'
import { messageViews, type SentMessageView } from '../comms/preview.js'
import { isAuMobile } from '../../core/phone.js'
import type { StartAfterCommit } from '../../temporal/outbox.js'
import { reserveMessageDelivery, type QueuedMessage } from '../comms/deliver.js'
import { recordInvoiceSent } from './issue.js'
import { balanceCents, findInvoice, markInvoiceSent, publicInvoiceUrl } from './queries.js'
import { findBusinessName, findClientContact } from './queries/parties.js'
import { companyToday } from '../../core/company-time.js'
// A cycle with service.ts, used only at call time: the event carries the invoice as the API shows it.
import { loadInvoice } from './load.js'
import type { Emit } from '../../core/reactions.js'
import type { InvoiceDeliveryQueued } from './events.js'

export interface Delivery {
  workflow_id: string | null
  channels: ('sms' | 'email')[]
  skipped: string[]
}

export interface InvoiceMessageRequest {
  companyId: string
  invoiceId: string
  sms: boolean
  email: boolean
  message?: string
  /** What the messages say: the invoice itself, or a link to pay it (payments.send_link). */
  purpose?: 'invoice' | 'pay_link'
  now: Date
}

export async function queueInvoiceMessages(deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, req: InvoiceMessageRequest, emit: Emit): Promise<Delivery> {
  return (await sendInvoiceMessages(deps, tx, start, req, emit)).delivery
}

/**
 * The invoice's messages, queued; or with `dryRun`, only composed and shown: nothing is counted,
 * marked sent or emitted. Both take the same messages, so the dry run shows what the send sends.
 */
export async function sendInvoiceMessages(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, req: InvoiceMessageRequest & { dryRun?: boolean }, emit: Emit,
): Promise<{ delivery: Delivery; messages: SentMessageView[] }> {
  if (!req.sms && !req.email) return { delivery: { workflow_id: null, channels: [], skipped: [] }, messages: [] }
  const inv = (await findInvoice(tx, req.invoiceId, await companyToday(tx, req.now), { forUpdate: true }))!
  const lead = (await findClientContact(tx, inv.lead_id))!
  const business = await findBusinessName(tx)
  const firstName = firstNameOf(lead.name)
  const page = publicInvoiceUrl(deps.urls.siteRoot, inv.public_token)
  const payLink = req.purpose === 'pay_link'
  const link = payLink ? `${page}/pay` : page
  const owing = formatCents(balanceCents(inv))
  const sendCount = inv.sent_count + 1
  const note = req.message
  const base = { messageType: payLink ? 'payment_link' : 'invoice', leadId: inv.lead_id, jobId: inv.job_id ?? undefined, invoiceId: inv.id }
  const messages: QueuedMessage[] = []
  const skipped: string[] = []
  const key = `${req.purpose ?? 'invoice'}:${inv.id}:${sendCount}`
  if (req.sms) {
    if (lead.phone && isAuMobile(lead.phone)) {
      const about = payLink
        ? `you can pay invoice ${inv.invoice_number} from ${business} (${owing}) online: ${link}`
        : `invoice ${inv.invoice_number} from ${business}: ${owing} due ${inv.due_date}. View and pay: ${link}`
      messages.push({ ...base, channel: 'sms', to: lead.phone, idempotencyKey: `${key}:sms`, body: customerSms({ firstName, note, about }) })
    } else skipped.push('sms: the client has no Australian mobile number')
  }
  if (req.email) {
    if (lead.email) {
      const pay = payLink ? 'Pay it online here' : 'View it and pay online here'
      const about = `please find attached tax invoice ${inv.invoice_number} for ${owing} incl. GST, due ${inv.due_date}.`
      const email = customerEmail({
        firstName, note, signOff: business, about: `${about}\n${pay}: ${link}`,
        aboutHtml: `${escapeHtml(about)}</p><p><a href="${escapeHtml(link)}">${pay}</a>.`,
      })
      messages.push({ ...base, channel: 'email', to: lead.email, idempotencyKey: `${key}:email`,
        subject: `Tax invoice ${inv.invoice_number} from ${business}`, body: email.html, text: email.text, attachInvoicePdf: inv.id })
    } else skipped.push('email: the client has no email address')
  }
  const views = await messageViews(tx, messages)
  const channels = messages.map((m) => m.channel)
  if (req.dryRun || !messages.length) return { delivery: { workflow_id: null, channels: req.dryRun ? channels : [], skipped }, messages: views }
  const delivery = await start(await reserveMessageDelivery(tx, { companyId: req.companyId, subject: key, messages, now: req.now }))
  await markInvoiceSent(tx, inv.id, sendCount, req.now)
  await recordInvoiceSent(tx, req.companyId, await loadInvoice(deps, tx, inv.id), channels, req.now)
  // Reactions run here: the first send starts its payment chase (a later send leaves it as it is).
  const queued: InvoiceDeliveryQueued = { invoiceId: inv.id, kind: inv.kind, dueDate: inv.due_date, firstSend: inv.stored_status === 'Draft' }
  await emit({ companyId: req.companyId, type: 'invoice.delivery_queued', entityType: 'invoice', entityId: inv.id, payload: queued, at: req.now })
  return { delivery: { workflow_id: delivery.workflow_id, channels, skipped }, messages: views }
}
