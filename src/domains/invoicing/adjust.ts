// What happens to an invoice after it is issued. A sent invoice is never edited or deleted: it is
// voided (only while nothing is paid on it) and a new one generated, or reduced by a credit note
// (an adjustment note, CN-00001). Payments received outside the processor are recorded here too.
import { randomUUID } from 'node:crypto'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { formatCents, parseDollars } from '../../core/money.js'
import { gstInInclusiveCents } from '../../core/gst.js'
import { companyToday } from '../../core/company-time.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { invoiceClosed } from './events.js'
import { recordPayment } from '../payments/record.js'
import { issueInvoice } from './issue.js'
import { balanceCents, findInvoice } from './queries.js'
import { applyCredit, countLiveCreditNotes, liveCreditTotals, findInvoiceId, markInvoiceVoid, removeCredit, restoreStatusAfterCredit } from './queries/adjustments.js'
import type { CreditNoteInput, RecordPaymentInput, SendInvoiceInput, VoidInvoiceInput } from './schema.js'
import { sendInvoiceMessages } from './send.js'
import { loadInvoice } from './service.js'

export async function voidInvoice(deps: Deps, principal: Principal, input: Static<typeof VoidInvoiceInput>) {
  const now = deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const inv = await findInvoice(tx, input.id, await companyToday(tx, now), { forUpdate: true })
    if (!inv) throw notFound('Invoice')
    if (inv.stored_status === 'Void') throw new AppError('conflict', `${inv.invoice_number} is already void.`, { invoice_status: 'Void' })
    if (Number(inv.amount_paid_cents) > 0) {
      throw new AppError('conflict', `${inv.invoice_number} has payments recorded, so it cannot be voided; issue a credit note (POST /api/v1/invoices/${inv.id}/credit-notes) for what should not be charged.`, { invoice_status: inv.status })
    }
    if (await countLiveCreditNotes(tx, inv.id) > 0) throw new AppError('conflict', `${inv.invoice_number} has credit notes against it; void those first.`, {})
    await markInvoiceVoid(tx, inv.id, input.reason, now)
    await emit(invoiceClosed(principal.companyId, inv.id, 'voided', now)) // its chase stops now
    if (inv.kind === 'credit_note') {
      // The credited invoice owes that amount again.
      await removeCredit(tx, inv.credits_invoice_id, Number(inv.total_cents), now)
      await restoreStatusAfterCredit(tx, inv.credits_invoice_id)
    }
    return { invoice: await loadInvoice(deps, tx, inv.id) }
  })
}

export async function creditNote(deps: Deps, principal: Principal, input: Static<typeof CreditNoteInput>) {
  const now = deps.clock.now()
  const amount = parseDollars(input.amount, 'amount')
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const inv = await findInvoice(tx, input.id, await companyToday(tx, now), { forUpdate: true })
    if (!inv) throw notFound('Invoice')
    if (inv.kind === 'credit_note' || inv.stored_status === 'Void') throw new AppError('conflict', `${inv.invoice_number} is ${inv.kind === 'credit_note' ? 'a credit note' : 'void'}; credit the invoice itself.`, {})
    const balance = balanceCents(inv)
    const unpaid = Number(inv.amount_paid_cents) === 0
    if (amount > balance || (unpaid && amount === balance)) {
      throw new AppError('validation_error', unpaid && amount === balance
        ? `That would credit all of unpaid ${inv.invoice_number}; void it instead (POST /api/v1/invoices/${inv.id}/void) and generate a new one if needed.`
        : `A credit note can reduce ${inv.invoice_number} by at most its balance of ${formatCents(balance)}. For money already paid, refund it outside the service and record why.`, {
        messages: [`amount: at most ${(balance / 100).toFixed(2)}${unpaid ? ' (less than the whole balance: void an invoice to cancel it)' : ''}`],
      })
    }
    const gst = creditGstCents(amount, Number(inv.subtotal_cents), Number(inv.gst_cents), await liveCreditTotals(tx, inv.id))
    const id = await issueInvoice(tx, {
      companyId: principal.companyId, leadId: inv.lead_id, jobId: inv.job_id, quoteId: inv.quote_id, kind: 'credit_note',
      lines: [{ description: `Credit against ${inv.invoice_number}: ${input.reason}`, quantity: 1, unitPriceCents: amount - gst, totalCents: amount - gst, gstCents: gst, source: 'credit', sourceInvoiceId: inv.id }],
      dueInDays: 0, notes: null, creditsInvoiceId: inv.id, sent: true, now,
    })
    const settled = amount === balance
    await applyCredit(tx, inv.id, amount, settled ? 'Paid' : inv.stored_status, settled ? now : null, now)
    if (settled) await emit(invoiceClosed(principal.companyId, inv.id, 'credited', now)) // credited to nothing: its chase stops now
    return { credit_note: await loadInvoice(deps, tx, id), invoice: await loadInvoice(deps, tx, inv.id) }
  })
}

/**
 * The GST in a credit of `amountCents` (GST-inclusive, as every invoice amount is): one eleventh,
 * rounded half up, as a tax invoice shows it ($29.51 -> $26.83 + $2.68). Never more GST than the
 * invoice still carries after its earlier credit notes, nor more ex-GST than its subtotal still
 * carries, so an invoice and its notes never net to negative GST or subtotal (on an invoice with no
 * GST the note has none). The credit is at most the balance, so both bounds always fit.
 */
export function creditGstCents(amountCents: number, subtotalCents: number, gstCents: number, credited: { subtotalCents: number; gstCents: number }): number {
  const gstLeft = Math.max(0, gstCents - credited.gstCents)
  const subtotalLeft = Math.max(0, subtotalCents - credited.subtotalCents)
  return Math.max(amountCents - subtotalLeft, Math.min(gstInInclusiveCents(amountCents), gstLeft, amountCents), 0)
}

export async function recordManualPayment(deps: Deps, principal: Principal, input: Static<typeof RecordPaymentInput>) {
  const amount = parseDollars(input.amount, 'amount')
  const receivedAt = input.received_at ? new Date(input.received_at) : deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const exists = await findInvoiceId(tx, input.id)
    if (!exists) throw notFound('Invoice')
    // Without a reference, each call is a new payment (the Idempotency-Key header makes a retry safe).
    const reference = input.reference?.trim() || null
    return recordPayment(deps, tx, principal.companyId, {
      invoiceId: input.id, amountCents: amount, surchargeCents: 0, method: input.method, provider: 'manual',
      providerPaymentId: reference ? `${input.id}:${reference}` : `${input.id}:${randomUUID()}`, reference, receivedAt, alreadyTaken: false,
    }, emit)
  })
}

export async function sendInvoice(deps: Deps, principal: Principal, input: Static<typeof SendInvoiceInput>) {
  const now = deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit, start) => {
    const inv = await findInvoice(tx, input.id, await companyToday(tx, now))
    if (!inv) throw notFound('Invoice')
    if (inv.stored_status === 'Void') throw new AppError('conflict', `${inv.invoice_number} is void and cannot be sent.`, { invoice_status: 'Void' })
    const { delivery, messages } = await sendInvoiceMessages(deps, tx, start, {
      companyId: principal.companyId, invoiceId: inv.id, sms: input.send_sms ?? false, email: input.send_email ?? true, message: input.message, now,
      dryRun: input.dry_run,
    }, emit)
    return { invoice: await loadInvoice(deps, tx, inv.id), dry_run: input.dry_run ?? false, messages, delivery }
  })
}

