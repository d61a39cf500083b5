// Events invoicing and payments emit for reactions only (core/reactions.ts): never written, not
// webhooks. The public ones (invoice.sent; payment.received in payments) are in `events`.
import type { InvoiceKind } from './document.js'

export const INVOICE_INTERNAL_EVENTS = ['invoice.delivery_queued', 'invoice.closed'] as const

/** invoice.delivery_queued: messages carrying the invoice (or its payment link) were queued; firstSend when it was a Draft. */
export interface InvoiceDeliveryQueued { invoiceId: string; kind: InvoiceKind; dueDate: string; firstSend: boolean }

/** invoice.closed: nothing more is owed on it (paid in full, credited to nothing, or voided). */
export interface InvoiceClosed { invoiceId: string; how: 'paid' | 'credited' | 'voided' }

/** invoice.closed (internal) for an invoice. */
export function invoiceClosed(companyId: string, invoiceId: string, how: InvoiceClosed['how'], at: Date) {
  const payload: InvoiceClosed = { invoiceId, how }
  return { companyId, type: 'invoice.closed' as const, entityType: 'invoice', entityId: invoiceId, payload, at }
}
