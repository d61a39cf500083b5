// What an invoice shows, to the API, the public page and the PDF alike. Money is AUD dollars with
// two decimals (computed from integer cents); dates are calendar dates (YYYY-MM-DD) local to the company.

export const INVOICE_STATUSES = ['Draft', 'Sent', 'Partially Paid', 'Paid', 'Overdue', 'Void'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

/** deposit: asked for when a quote is accepted; progress: a stage of the work; final: the job's invoice, net of the others; credit_note: an adjustment note reducing an earlier invoice. */
export const INVOICE_KINDS = ['deposit', 'progress', 'final', 'credit_note'] as const
export type InvoiceKind = (typeof INVOICE_KINDS)[number]

export interface InvoiceLine {
  description: string
  quantity: number
  /** AUD per unit, ex GST; negative on a line that nets off an earlier invoice. */
  unitPrice: number
  /** quantity x unitPrice, ex GST. */
  total: number
  /** GST on this line. */
  gst: number
}

export interface Invoice {
  id: string
  invoiceNumber: string
  kind: InvoiceKind
  status: InvoiceStatus
  jobId: string | null
  quoteId: string | null
  leadId: string
  clientName: string
  lineItems: InvoiceLine[]
  subtotal: number
  gst: number
  total: number
  amountPaid: number
  balance: number
  issueDate: string
  dueDate: string
  notes: string | null
  publicUrl: string
  pdfUrl: string
  /** Where the client pays online; null without an active payment account or once nothing is owed. */
  paymentUrl: string | null
  /** For a credit note: the invoice it reduces. */
  creditsInvoiceId: string | null
  /** For a reissue: the voided invoice it replaces. */
  replacesInvoiceId: string | null
  voidedAt: string | null
  voidReason: string | null
  sentAt: string | null
  paidAt: string | null
  createdAt: string
  updatedAt: string
}

export interface Party {
  name: string
  abn: string | null
  address: string | null
  phone: string | null
  email: string | null
}

/** Everything needed to print an invoice (page or PDF). */
export interface InvoiceDocument {
  invoice: Invoice
  seller: Party
  /** Named on every invoice: a tax invoice of A$1,000 or more must identify the buyer, so no threshold is checked. */
  buyer: Party
  /** Card surcharge the company adds when paying by card, as a percentage (null: none). */
  cardSurchargePercent: number | null
  /** The seller's own zone (companies.time_zone): instants such as paid or voided at are printed as its dates. */
  timeZone: string
}
