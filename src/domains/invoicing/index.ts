import { defineDomain } from '../../core/domain.js'
import { invoicingPlannedTools } from './operations.js'

export const invoicingDomain = defineDomain({
  name: 'invoicing',
  description: 'Invoices from completed jobs, payment chasing and recovery.',
  operations: [...invoicingPlannedTools],
  /** Written once invoicing lands; listed now so webhook subscriptions can name them. */
  events: ['invoice.sent', 'payment.received'],
})
