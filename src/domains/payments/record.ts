// Recording a payment against an invoice, once: the processor's payment id (or the sandbox form's
// attempt id, or a manual payment's reference) is unique per company, so a replayed webhook, a
// double-clicked Pay button or a retried call finds the first record and changes nothing. A payment
// a person enters may not exceed the balance; money a processor already took beyond the balance is
// recorded as excess to refund, never lost.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import type { Emit } from '../../core/reactions.js'
import { centsToDollars, formatCents } from '../../core/money.js'
import { companyToday } from '../../core/company-time.js'
import { balanceCents, findInvoice, type InvoiceRow } from '../invoicing/queries.js'
import { loadInvoice } from '../invoicing/service.js'
import { invoiceClosed } from '../invoicing/events.js'
import { findPaymentByProviderId, insertPayment, updateInvoicePaid, type PaymentRow } from './queries.js'

export type PaymentMethod = 'card' | 'bank_transfer' | 'cash' | 'cheque' | 'other'

export interface PaymentToRecord {
  invoiceId: string
  amountCents: number
  surchargeCents: number
  method: PaymentMethod
  provider: string
  providerPaymentId: string
  reference: string | null
  receivedAt: Date
  /** Money already taken by a processor: recorded even beyond the balance (the excess is to refund). */
  alreadyTaken: boolean
}

export function presentPayment(row: PaymentRow) {
  return {
    id: row.id, invoiceId: row.invoice_id, amount: centsToDollars(Number(row.amount_cents)), surcharge: centsToDollars(Number(row.surcharge_cents)),
    method: row.method, provider: row.provider, reference: row.reference, receivedAt: row.received_at.toISOString(),
  }
}

function refuse(inv: InvoiceRow, amountCents: number): void {
  if (inv.kind === 'credit_note') throw new AppError('conflict', `${inv.invoice_number} is a credit note; payments go against invoices.`, {})
  if (inv.stored_status === 'Void') throw new AppError('conflict', `Invoice ${inv.invoice_number} is void; nothing can be paid on it.`, { invoice_status: 'Void' })
  const balance = balanceCents(inv)
  if (balance === 0) throw new AppError('conflict', `Invoice ${inv.invoice_number} is already paid in full.`, { invoice_status: inv.status, balance: 0 })
  if (amountCents > balance) {
    throw new AppError('validation_error', `That payment is more than is owed: ${formatCents(amountCents)} against a balance of ${formatCents(balance)} on ${inv.invoice_number}. Record at most the balance.`, {
      messages: [`amount: at most the balance of ${centsToDollars(balance).toFixed(2)}`], balance: centsToDollars(balance),
    })
  }
}

export async function recordPayment(deps: Deps, tx: postgres.TransactionSql, companyId: string, p: PaymentToRecord, emit: Emit) {
  const now = deps.clock.now()
  const existing = await findPaymentByProviderId(tx, p.provider, p.providerPaymentId)
  if (existing) return { payment: presentPayment(existing), invoice: await loadInvoice(deps, tx, existing.invoice_id), already_recorded: true }

  const inv = await findInvoice(tx, p.invoiceId, await companyToday(tx, now), { forUpdate: true })
  if (!inv) throw new AppError('not_found', 'Invoice was not found.')
  if (!p.alreadyTaken) refuse(inv, p.amountCents)
  const applied = Math.min(p.amountCents, balanceCents(inv))
  const row = await insertPayment(tx, companyId, {
    invoice_id: inv.id, amount_cents: applied, surcharge_cents: p.surchargeCents, excess_cents: p.amountCents - applied, method: p.method,
    provider: p.provider, provider_payment_id: p.providerPaymentId, reference: p.reference, received_at: p.receivedAt,
  }, now)
  if (applied > 0) {
    const settled = applied === balanceCents(inv)
    await updateInvoicePaid(tx, inv.id, applied, settled ? 'Paid' : 'Partially Paid', settled ? now : null, now)
    // Paid in full: its chase stops now (it reads the invoice once this transaction commits).
    if (settled) await emit(invoiceClosed(companyId, inv.id, 'paid', now))
  }
  if (applied < p.amountCents) deps.logger.warn({ companyId, invoiceId: inv.id, excessCents: p.amountCents - applied }, 'processor payment beyond the invoice balance recorded as excess to refund')
  const payment = presentPayment(row)
  const invoice = await loadInvoice(deps, tx, inv.id)
  await emit({
    companyId, type: 'payment.received', entityType: 'payment', entityId: payment.id,
    payload: { payment: { ...payment, excess: centsToDollars(p.amountCents - applied) }, invoice }, at: now,
  })
  return { payment, invoice, already_recorded: false }
}
