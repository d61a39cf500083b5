// The invoicing steps workflows.trigger_invoice and workflows.quote_to_invoice share, as activities:
// a Completed job's final invoice (invoicing.generate's path, once per job), then its first send,
// which is the payment link when the company's payment account is active, else the invoice itself.
// That first send moves the invoice to Sent and starts its payment chase (invoicing/send.ts), as
// every first send does.
import Type from 'typebox'
import type { Deps } from '../../../core/deps.js'
import { AppError } from '../../../core/errors.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { withTenantEmitting } from '../../../core/reactions.js'
import { findInvoice, paymentsActive } from '../../invoicing/queries.js'
import { queueInvoiceMessages } from '../../invoicing/send.js'
import { generateInvoice, loadInvoice } from '../../invoicing/service.js'
import { actingFor } from './job-flow-common.js'
import { companyToday } from '../../../core/company-time.js'
import type { ChannelChoice } from '../../../../workflows/messages.js'
import type { InvoiceStep, InvoiceSummary, SendStep } from '../../../../workflows/invoice-steps.js'
import { findLiveFinalInvoice } from './queries.js'

export type { InvoiceStep, InvoiceSummary, SendStep }

export const InvoiceSummarySchema = Type.Object({
  id: Type.String(), invoice_number: Type.String(), status: Type.String(), total: Type.Number({ description: 'AUD incl. GST' }),
  payment_url: Nullable(Type.String({ description: 'Online payment page, when a payment account is active' })),
})

export const presentSummary = (i: InvoiceSummary) => ({ id: i.id, invoice_number: i.invoiceNumber, status: i.status, total: i.total, payment_url: i.paymentUrl })

const summary = (i: { id: string; invoiceNumber: string; status: string; total: number; paymentUrl: string | null }): InvoiceSummary =>
  ({ id: i.id, invoiceNumber: i.invoiceNumber, status: i.status, total: i.total, paymentUrl: i.paymentUrl })

/** The job's live final invoice, if it has one. */
export async function existingFinalInvoice(deps: Deps, companyId: string, jobId: string): Promise<InvoiceSummary | null> {
  return withTenant(deps.db, companyId, async (tx) => {
    const row = await findLiveFinalInvoice(tx, jobId)
    return row ? summary(await loadInvoice(deps, tx, row.id)) : null
  })
}

/**
 * The final invoice of a Completed job: generated (invoicing.generate's path, not sent yet), or the
 * one it has already (a retried activity, or another automation got there first). A refusal (the
 * job is not Completed, nothing to invoice) stops the run with its message.
 */
export async function invoiceCompletedJob(deps: Deps, input: { companyId: string; jobId: string }): Promise<InvoiceStep> {
  const existing = await existingFinalInvoice(deps, input.companyId, input.jobId)
  if (existing) return { stop: null, invoice: existing, created: false }
  try {
    const made = await generateInvoice(deps, actingFor(input.companyId), { job_id: input.jobId })
    return { stop: null, invoice: summary(made.invoice), created: true }
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'internal_error') throw error
    if (error.code === 'conflict' && typeof error.extra.invoice_id === 'string') {
      const raced = await existingFinalInvoice(deps, input.companyId, input.jobId)
      if (raced) return { stop: null, invoice: raced, created: false }
    }
    return { stop: error.message, invoice: null, created: false }
  }
}

/**
 * The invoice's first send, once: its row is locked and a sent invoice is left alone, so a retried
 * activity (or a second automation) never sends it twice. Payment link when payments are active.
 */
export async function sendInvoiceFirstTime(deps: Deps, input: { companyId: string; invoiceId: string; channel: ChannelChoice }): Promise<SendStep> {
  const now = deps.clock.now()
  return withTenantEmitting(deps, input.companyId, async (tx, emit, start) => {
    const inv = await findInvoice(tx, input.invoiceId, await companyToday(tx, now), { forUpdate: true })
    if (!inv) return { skipped: 'invoice not found', purpose: null, channels: [], notSent: [] }
    if (inv.sent_count > 0) return { skipped: `invoice ${inv.invoice_number} was already sent`, purpose: null, channels: [], notSent: [] }
    if (inv.stored_status === 'Void' || inv.stored_status === 'Paid') return { skipped: `invoice ${inv.invoice_number} is ${inv.stored_status}`, purpose: null, channels: [], notSent: [] }
    const purpose = (await paymentsActive(tx, deps.payments.name)) ? 'pay_link' as const : 'invoice' as const
    const delivery = await queueInvoiceMessages(deps, tx, start, {
      companyId: input.companyId, invoiceId: inv.id, sms: input.channel !== 'email', email: input.channel !== 'sms', purpose, now,
    }, emit)
    if (!delivery.channels.length) return { skipped: `nothing sent: ${delivery.skipped.join('; ') || 'no channel'}`, purpose, channels: [], notSent: delivery.skipped }
    return { skipped: null, purpose, channels: delivery.channels, notSent: delivery.skipped }
  })
}
