// Sending an invoice: the link by SMS and/or an email with the tax invoice PDF attached, counted
// against the month's message limits and delivered by the deliverMessages workflow after commit.
// The first send moves a Draft to Sent; every send writes invoice.sent.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { escapeHtml } from '../../core/html-escape.js'
import { formatCents } from '../../core/money.js'
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
  if (!req.sms && !req.email) return { workflow_id: null, channels: [], skipped: [] }
  const inv = (await findInvoice(tx, req.invoiceId, await companyToday(tx, req.now), { forUpdate: true }))!
  const lead = await findClientContact(tx, inv.lead_id)
  const business = await findBusinessName(tx)
  const first = lead!.name.split(/\s+/)[0] ?? lead!.name
  const page = publicInvoiceUrl(deps.urls.siteRoot, inv.public_token)
  const link = req.purpose === 'pay_link' ? `${page}/pay` : page
  const owing = formatCents(balanceCents(inv))
  const sendCount = inv.sent_count + 1
  const note = req.message ? `${req.message}\n\n` : ''
  const base = { messageType: req.purpose === 'pay_link' ? 'payment_link' : 'invoice', leadId: inv.lead_id, jobId: inv.job_id ?? undefined, invoiceId: inv.id }
  const messages: QueuedMessage[] = []
  const skipped: string[] = []
  const key = `${req.purpose ?? 'invoice'}:${inv.id}:${sendCount}`
  if (req.sms) {
    if (lead!.phone && isAuMobile(lead!.phone)) {
      messages.push({ ...base, channel: 'sms', to: lead!.phone, idempotencyKey: `${key}:sms`,
        body: req.purpose === 'pay_link'
          ? `Hi ${first}, ${note}you can pay invoice ${inv.invoice_number} from ${business} (${owing}) online: ${link}`
          : `Hi ${first}, ${note}invoice ${inv.invoice_number} from ${business}: ${owing} due ${inv.due_date}. View and pay: ${link}` })
    } else skipped.push('sms: the client has no Australian mobile number')
  }
  if (req.email) {
    if (lead!.email) {
      const pay = req.purpose === 'pay_link' ? 'Pay it online here' : 'View it and pay online here'
      messages.push({ ...base, channel: 'email', to: lead!.email, idempotencyKey: `${key}:email`,
        subject: `Tax invoice ${inv.invoice_number} from ${business}`,
        body: `<p>Hi ${escapeHtml(first)},</p>${req.message ? `<p>${escapeHtml(req.message)}</p>` : ''}<p>Please find attached tax invoice ${inv.invoice_number} for ${owing} incl. GST, due ${inv.due_date}.</p><p><a href="${link}">${pay}</a>.</p><p>${escapeHtml(business)}</p>`,
        text: `Hi ${first},\n\n${note}Please find attached tax invoice ${inv.invoice_number} for ${owing} incl. GST, due ${inv.due_date}.\n${pay}: ${link}\n\n${business}`,
        attachInvoicePdf: inv.id })
    } else skipped.push('email: the client has no email address')
  }
  if (!messages.length) return { workflow_id: null, channels: [], skipped }
  const delivery = await start(await reserveMessageDelivery(tx, { companyId: req.companyId, subject: key, messages, now: req.now }))
  await markInvoiceSent(tx, inv.id, sendCount, req.now)
  await recordInvoiceSent(tx, req.companyId, await loadInvoice(deps, tx, inv.id), messages.map((m) => m.channel), req.now)
  // Reactions run here: the first send starts its payment chase (a later send leaves it as it is).
  const queued: InvoiceDeliveryQueued = { invoiceId: inv.id, kind: inv.kind, dueDate: inv.due_date, firstSend: inv.stored_status === 'Draft' }
  await emit({ companyId: req.companyId, type: 'invoice.delivery_queued', entityType: 'invoice', entityId: inv.id, payload: queued, at: req.now })
  return { workflow_id: delivery.workflow_id, channels: messages.map((m) => m.channel), skipped }
}
