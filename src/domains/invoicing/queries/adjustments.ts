// Adjustment SQL: voiding, credit notes against an invoice, and the check before a manual payment.
// Every function takes the tenant transaction, with the invoice already locked by findInvoice.
import type postgres from 'postgres'
import type { InvoiceStatus } from '../document.js'

/** How many credit notes that are not void an invoice has against it. */
export async function countLiveCreditNotes(tx: postgres.TransactionSql, invoiceId: string): Promise<number> {
  const [credited] = await tx<{ n: number }[]>`select count(*)::int as n from invoices where credits_invoice_id = ${invoiceId} and status <> 'Void'`
  return credited!.n
}

/** Subtotal and GST (cents) of the credit notes that are not void against an invoice. */
export async function liveCreditTotals(tx: postgres.TransactionSql, invoiceId: string): Promise<{ subtotalCents: number; gstCents: number }> {
  const [row] = await tx<{ subtotal: string; gst: string }[]>`
    select coalesce(sum(subtotal_cents), 0) as subtotal, coalesce(sum(gst_cents), 0) as gst
    from invoices where credits_invoice_id = ${invoiceId} and status <> 'Void'`
  return { subtotalCents: Number(row!.subtotal), gstCents: Number(row!.gst) }
}

export async function markInvoiceVoid(tx: postgres.TransactionSql, id: string, reason: string, now: Date): Promise<void> {
  await tx`update invoices set status = 'Void', voided_at = ${now}, void_reason = ${reason}, updated_at = ${now} where id = ${id}`
}

/** A voided credit note's amount, owed again on the invoice it credited; its status follows (restoreStatusAfterCredit). */
export async function removeCredit(tx: postgres.TransactionSql, invoiceId: string | null, amountCents: number, now: Date): Promise<void> {
  await tx`update invoices set amount_credited_cents = amount_credited_cents - ${amountCents}, updated_at = ${now} where id = ${invoiceId}`
}

/** The status an invoice's paid and credited amounts give it now. */
export async function restoreStatusAfterCredit(tx: postgres.TransactionSql, invoiceId: string | null): Promise<void> {
  await tx`update invoices set
                 status = case when amount_paid_cents + amount_credited_cents >= total_cents then 'Paid'
                               when amount_paid_cents > 0 then 'Partially Paid' when sent_count > 0 then 'Sent' else 'Draft' end,
                 paid_at = case when amount_paid_cents + amount_credited_cents >= total_cents then paid_at end
               where id = ${invoiceId}`
}

/** A credit note's amount taken off the invoice, with the status and paid time the caller worked out. */
export async function applyCredit(tx: postgres.TransactionSql, invoiceId: string, amountCents: number, status: Exclude<InvoiceStatus, 'Overdue'>, paidAt: Date | null, now: Date): Promise<void> {
  await tx`update invoices set amount_credited_cents = amount_credited_cents + ${amountCents},
             status = ${status}, paid_at = ${paidAt}, updated_at = ${now} where id = ${invoiceId}`
}

/** The invoice, when it exists. */
export async function findInvoiceId(tx: postgres.TransactionSql, id: string): Promise<{ id: string } | undefined> {
  const [exists] = await tx<{ id: string }[]>`select id from invoices where id = ${id}`
  return exists
}
