// Writing an invoice: number (gapless per company), lines, totals from the lines, dates from the
// payment terms, an unguessable page token, and the invoice.sent event when it goes out.
import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'
import { AppError } from '../../core/errors.js'
import { recordEvent } from '../../core/events.js'
import { addDays } from '../../core/period.js'
import { companyToday } from '../../core/company-time.js'
import type { InvoiceKind } from './document.js'
import { insertInvoice, insertInvoiceLines, nextInvoiceNumber } from './queries.js'

export interface NewLine {
  description: string
  quantity: number
  unitPriceCents: number
  totalCents: number
  gstCents: number
  source: 'quote_line' | 'job_amount' | 'extra' | 'claim' | 'less_invoiced' | 'credit'
  sourcePosition?: number | null
  sourceInvoiceId?: string | null
}

export interface NewInvoice {
  companyId: string
  leadId: string
  jobId: string | null
  quoteId: string | null
  kind: InvoiceKind
  lines: NewLine[]
  dueInDays: number
  notes: string | null
  claim?: Record<string, unknown> | null
  creditsInvoiceId?: string | null
  replacesInvoiceId?: string | null
  /** Issued and shown to the client now (deposit on acceptance, credit notes) rather than left as a Draft to send. */
  sent: boolean
  now: Date
}

export async function issueInvoice(tx: postgres.TransactionSql, inv: NewInvoice): Promise<string> {
  const subtotal = inv.lines.reduce((a, l) => a + l.totalCents, 0)
  const gst = inv.lines.reduce((a, l) => a + l.gstCents, 0)
  if (subtotal < 0 || gst < 0) {
    // The allocation never lets this happen; refuse rather than store a negative invoice.
    throw new AppError('conflict', 'This invoice would come to less than zero; nothing was issued.', { subtotal: subtotal / 100, gst: gst / 100 })
  }
  const number = await nextInvoiceNumber(tx, inv.companyId, inv.kind === 'credit_note' ? 'CN' : 'INV')
  const issueDate = await companyToday(tx, inv.now)
  const id = await insertInvoice(tx, {
    companyId: inv.companyId, leadId: inv.leadId, jobId: inv.jobId, quoteId: inv.quoteId, invoiceNumber: number, kind: inv.kind, sent: inv.sent,
    subtotalCents: subtotal, gstCents: gst, issueDate, dueDate: addDays(issueDate, inv.dueInDays), notes: inv.notes,
    publicToken: randomBytes(24).toString('base64url'), claim: inv.claim,
    creditsInvoiceId: inv.creditsInvoiceId ?? null, replacesInvoiceId: inv.replacesInvoiceId ?? null, now: inv.now,
  })
  await insertInvoiceLines(tx, inv.lines.map((l, i) => ({
    company_id: inv.companyId, invoice_id: id, position: i + 1, description: l.description, quantity: l.quantity,
    unit_price_cents: l.unitPriceCents, total_cents: l.totalCents, gst_cents: l.gstCents, source: l.source,
    source_position: l.sourcePosition ?? null, source_invoice_id: l.sourceInvoiceId ?? null,
  })))
  return id
}

/** invoice.sent, with the invoice as it is now; written whenever an invoice goes out (first send or again). */
export async function recordInvoiceSent(tx: postgres.TransactionSql, companyId: string, invoice: { id: string }, via: string[], now: Date) {
  await recordEvent(tx, { companyId, type: 'invoice.sent', entityType: 'invoice', entityId: invoice.id, payload: { invoice, via }, at: now })
}
