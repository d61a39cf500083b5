import { defineDomain } from '../../core/domain.js'
import { documentsPlannedTools } from './operations.js'

export const documentsDomain = defineDomain({
  name: 'documents',
  description: 'Filing of receipts, invoices and other documents.',
  operations: [...documentsPlannedTools],
})
