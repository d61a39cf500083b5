import { defineDomain } from '../../core/domain.js'
import { documentOperations } from './operations.js'

export const documentsDomain = defineDomain({
  name: 'documents',
  description: 'Filing of receipts, invoices, certificates and other documents to their job or lead.',
  operations: [...documentOperations],
})
