// What a document is, from the words in it, with the words that decided it. Rules rather than a
// model: an owner can see and dispute each reason, and the same text always gives the same answer.
import type { MediaType } from './sniff.js'

export const DOCUMENT_TYPES = ['receipt', 'supplier_invoice', 'compliance_certificate', 'swms', 'photo', 'plan', 'contract', 'other'] as const
export type DocumentType = (typeof DOCUMENT_TYPES)[number]

export interface Classification { type: DocumentType; reason: string }

const RULES: Array<{ type: DocumentType; words: RegExp[] }> = [
  {
    type: 'compliance_certificate',
    words: [/certificate of compliance/, /compliance certificate/, /certificate of electrical safety/, /electrical safety certificate/, /\bccew\b/, /gas compliance/, /plumbing compliance/, /certificate of currency/, /\bcompliance\b.*\bcertif/, /\bcertif\w*\b.*\bcomplian/],
  },
  { type: 'swms', words: [/safe work method statement/, /\bswms\b/] },
  { type: 'plan', words: [/floor plan/, /site plan/, /\belevation\b/, /drawing (no|number)/, /\bscale 1 ?: ?\d+/] },
  { type: 'contract', words: [/\bthis agreement\b/, /\bcontract\b.*\b(sign|parties|terms)/, /home building contract/] },
]
const RECEIPT_WORDS = [/\breceipt\b/, /\beftpos\b/, /\bpaid\b/, /\bchange\b/, /\bcash\b/, /\bvisa\b/, /\bmastercard\b/, /thank you for (shopping|your purchase)/, /\bapproved\b/]
const INVOICE_WORDS = [/\binvoice (no|number|#)/, /\bdue date\b/, /\bamount due\b/, /\bbalance due\b/, /\bbill to\b/, /\bpayment terms\b/, /\bpay by\b/, /\bbsb\b/]

const found = (text: string, words: RegExp[]) => words.map((w) => w.exec(text)?.[0]).filter((m): m is string => Boolean(m))
const quoted = (words: string[]) => words.map((w) => `"${w}"`).join(', ')

export function classify(text: string, mediaType: MediaType, given: DocumentType | undefined): Classification {
  if (given) return { type: given, reason: `given by the caller (document_type ${given})` }
  const lower = text.toLowerCase()
  for (const rule of RULES) {
    const words = found(lower, rule.words)
    if (words.length > 0) return { type: rule.type, reason: `the text says ${quoted(words)}` }
  }
  const receipt = found(lower, RECEIPT_WORDS)
  const invoice = found(lower, INVOICE_WORDS)
  const mentionsInvoice = /\binvoice\b/.test(lower)
  // Australian receipts are headed "TAX INVOICE" too: payment words make it a receipt, billing words an invoice.
  if (receipt.length > 0 && receipt.length >= invoice.length) return { type: 'receipt', reason: `payment words ${quoted(receipt)}${invoice.length ? ` outnumber billing words ${quoted(invoice)}` : ''}` }
  if (invoice.length > 0 || mentionsInvoice) return { type: 'supplier_invoice', reason: `billing words ${quoted(invoice.length ? invoice : ['invoice'])}` }
  if (mediaType.startsWith('image/') && lower.replace(/[^a-z]/g, '').length < 40) return { type: 'photo', reason: 'an image with little or no text' }
  if (/\btotal\b/.test(lower) && /\$\s?\d/.test(lower)) return { type: 'receipt', reason: 'a total in dollars, no billing words' }
  return { type: 'other', reason: lower.trim() ? 'none of the words of a receipt, invoice, certificate, SWMS, plan or contract' : 'no text could be read' }
}
