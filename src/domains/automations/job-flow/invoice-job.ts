// The invoicing steps workflows.trigger_invoice and workflows.quote_to_invoice share, as activities:
// a Completed job's final invoice (invoicing.generate's path, once per job), then its first send,
// which is the payment link when the company's payment account is active, else the invoice itself.
// That first send moves the invoice to Sent and starts its payment chase (invoicing/send.ts), as
// every first send does. A dry run (previewInvoiceAndSend) runs invoicing's own path and rolls it back.
import type postgres from 'postgres'
import Type from 'typebox'
import type { Deps } from '../../../core/deps.js'
import { AppError } from '../../../core/errors.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { withTenantEmitting } from '../../../core/reactions.js'
import { findInvoice, paymentsActive } from '../../invoicing/queries.js'
import { sendInvoiceMessages } from '../../invoicing/send.js'
import { generateInvoice, loadInvoice } from '../../invoicing/service.js'
import { actingFor } from './job-flow-common.js'
import { companyToday } from '../../../core/company-time.js'
import type { ChannelChoice } from '../../../../workflows/messages.js'
import type { SentMessageView } from '../../comms/preview.js'
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

/** The first send: the payment link when the company's payment account is active, else the invoice itself. */
async function firstSendPurpose(deps: Deps, tx: postgres.TransactionSql): Promise<'pay_link' | 'invoice'> {
  return (await paymentsActive(tx, deps.payments.name)) ? 'pay_link' : 'invoice'
}

const sendsBy = (channel: ChannelChoice) => ({ sms: channel !== 'email', email: channel !== 'sms' })
const sendFlags = (channel: ChannelChoice) => ({ send_sms: sendsBy(channel).sms, send_email: sendsBy(channel).email })

export type InvoiceAndSendPreview =
  | { stop: string }
  | { stop: null; invoice: InvoiceSummary; created: boolean; send: SendStep; messages: SentMessageView[] }

/**
 * A dry run of the invoice-then-send steps (invoiceAndSend) for a Completed job: the invoice it has,
 * or the one invoicing.generate would issue (issued and rolled back, so its link carries a token the
 * real invoice will not have), and the messages of its first send, composed by invoicing's own
 * path. A refusal is the stop the run would make.
 */
export async function previewInvoiceAndSend(deps: Deps, companyId: string, jobId: string, channel: ChannelChoice): Promise<InvoiceAndSendPreview> {
  const existing = await existingFinalInvoice(deps, companyId, jobId)
  if (existing) return { stop: null, invoice: existing, created: false, ...(await firstSend(deps, { companyId, invoiceId: existing.id, channel }, true)) }
  const purpose = await withTenant(deps.db, companyId, (tx) => firstSendPurpose(deps, tx))
  try {
    const made = await generateInvoice(deps, actingFor(companyId), { job_id: jobId, ...sendFlags(channel), dry_run: true }, { purpose })
    const { channels, skipped } = made.delivery
    const send: SendStep = { skipped: channels.length ? null : `nothing sent: ${skipped.join('; ') || 'no channel'}`, purpose, channels, notSent: skipped }
    return { stop: null, invoice: summary(made.invoice), created: true, send, messages: made.messages }
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'internal_error') throw error
    return { stop: error.message }
  }
}

/** A dry run's answer of trigger_invoice (and quote_to_invoice): nothing started (status stopped); the invoice and first send the run would make now. */
export function dryRunAnswer(preview: InvoiceAndSendPreview) {
  if (preview.stop !== null) {
    return { workflow_id: null, status: 'stopped' as const, outcome: `Dry run: the run would stop, not invoiced: ${preview.stop}`, already_invoiced: false, invoice: null, sent: null, dry_run: true, messages: [] }
  }
  const { invoice, send } = preview
  const what = send.skipped ? `nothing (${send.skipped})` : send.purpose === 'pay_link' ? 'its payment link as shown' : 'the invoice as shown (no active payment account)'
  return {
    workflow_id: null, status: 'stopped' as const, already_invoiced: !preview.created, invoice: presentSummary(invoice), dry_run: true, messages: preview.messages,
    sent: { purpose: send.purpose, channels: send.channels, skipped: send.skipped },
    outcome: `Dry run: nothing was invoiced or sent. A real run ${preview.created ? 'issues' : 'takes'} invoice ${invoice.invoiceNumber} and sends ${what}${preview.created ? "; the link gets the real invoice's own token" : ''}.`,
  }
}

/**
 * The invoice's first send, once: its row is locked and a sent invoice is left alone, so a retried
 * activity (or a second automation) never sends it twice. Payment link when payments are active.
 */
export async function sendInvoiceFirstTime(deps: Deps, input: { companyId: string; invoiceId: string; channel: ChannelChoice }): Promise<SendStep> {
  return (await firstSend(deps, input, false)).send
}

/** The first send; with dryRun its messages only, composed as it would send them (nothing written, counted or queued). */
async function firstSend(deps: Deps, input: { companyId: string; invoiceId: string; channel: ChannelChoice }, dryRun: boolean): Promise<{ send: SendStep; messages: SentMessageView[] }> {
  const now = deps.clock.now()
  const skip = (skipped: string) => ({ send: { skipped, purpose: null, channels: [], notSent: [] }, messages: [] })
  return withTenantEmitting(deps, input.companyId, async (tx, emit, start) => {
    const inv = await findInvoice(tx, input.invoiceId, await companyToday(tx, now), { forUpdate: true })
    if (!inv) return skip('invoice not found')
    if (inv.sent_count > 0) return skip(`invoice ${inv.invoice_number} was already sent`)
    if (inv.stored_status === 'Void' || inv.stored_status === 'Paid') return skip(`invoice ${inv.invoice_number} is ${inv.stored_status}`)
    const purpose = await firstSendPurpose(deps, tx)
    const { delivery, messages } = await sendInvoiceMessages(deps, tx, start, { companyId: input.companyId, invoiceId: inv.id, ...sendsBy(input.channel), purpose, now, dryRun }, emit)
    if (!delivery.channels.length) return { send: { skipped: `nothing sent: ${delivery.skipped.join('; ') || 'no channel'}`, purpose, channels: [], notSent: delivery.skipped }, messages }
    return { send: { skipped: null, purpose, channels: delivery.channels, notSent: delivery.skipped }, messages }
  })
}
