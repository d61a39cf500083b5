// Writing an invoice: number (gapless per company), lines, totals from the lines, dates from the
// payment terms, an unguessable page token, and the invoice.sent event when it goes out.
import { randomBytes } from 'node:crypto'
import type postgres from 'postgres'
import { AppError } from '../../core/errors.js'
import { recordEvent } from '../../core/events.js'
import { addDays } from '../../core/period.js'
import { companyToday } from '../../core/company-time.js'
import type { InvoiceKind } from './document.js'
import { nextInvoiceNumber } from './queries.js'

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
  const [row] = await tx<{ id: string }[]>`
    insert into invoices (company_id, lead_id, job_id, quote_id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents,
                          issue_date, due_date, notes, public_token, claim, credits_invoice_id, replaces_invoice_id,
                          sent_count, sent_at, created_at, updated_at)
    values (${inv.companyId}, ${inv.leadId}, ${inv.jobId}, ${inv.quoteId}, ${number}, ${inv.kind}, ${inv.sent ? 'Sent' : 'Draft'},
            ${subtotal}, ${gst}, ${subtotal + gst}, ${issueDate}, ${addDays(issueDate, inv.dueInDays)}, ${inv.notes},
            ${randomBytes(24).toString('base64url')}, ${inv.claim ? tx.json(inv.claim as postgres.JSONValue) : null},
            ${inv.creditsInvoiceId ?? null}, ${inv.replacesInvoiceId ?? null}, ${inv.sent ? 1 : 0}, ${inv.sent ? inv.now : null}, ${inv.now}, ${inv.now})
    returning id`
  await tx`insert into invoice_line_items ${tx(inv.lines.map((l, i) => ({
    company_id: inv.companyId, invoice_id: row!.id, position: i + 1, description: l.description, quantity: l.quantity,
    unit_price_cents: l.unitPriceCents, total_cents: l.totalCents, gst_cents: l.gstCents, source: l.source,
    source_position: l.sourcePosition ?? null, source_invoice_id: l.sourceInvoiceId ?? null,
  })))}`
  return row!.id
}

/** invoice.sent, with the invoice as it is now; written whenever an invoice goes out (first send or again). */
export async function recordInvoiceSent(tx: postgres.TransactionSql, companyId: string, invoice: { id: string }, via: string[], now: Date) {
  await recordEvent(tx, { companyId, type: 'invoice.sent', entityType: 'invoice', entityId: invoice.id, payload: { invoice, via }, at: now })
}
