import { defineDomain } from '../../core/domain.js'
import { invoiceManagement, invoicingTools } from './operations.js'
import { INVOICE_INTERNAL_EVENTS } from './events.js'

export const invoicingDomain = defineDomain({
  name: 'invoicing',
  description: 'Tax invoices from jobs (deposits, progress claims, final invoices net of both), credit notes, chasing overdue invoices and recovery advice.',
  operations: [...invoicingTools, ...invoiceManagement],
  events: ['invoice.sent'],
  internalEvents: INVOICE_INTERNAL_EVENTS,
  usageCounts: { invoices: "select count(*)::int from invoices where kind <> 'credit_note'" },
})
