import { defineDomain } from '../../core/domain.js'
import { invoiceManagement, invoicingTools } from './operations.js'

export const invoicingDomain = defineDomain({
  name: 'invoicing',
  description: 'Tax invoices from jobs (deposits, progress claims, final invoices net of both), credit notes, chasing overdue invoices and recovery advice.',
  operations: [...invoicingTools, ...invoiceManagement],
  events: ['invoice.sent'],
  usageCounts: { invoices: "select count(*)::int from invoices where kind <> 'credit_note'" },
})
