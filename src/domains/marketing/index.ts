import { defineDomain } from '../../core/domain.js'
import { marketingOperations } from './operations.js'

export const marketingDomain = defineDomain({
  name: 'marketing',
  description: 'Marketing strategy and content.',
  operations: [...marketingOperations],
})
