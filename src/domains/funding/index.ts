import { defineDomain } from '../../core/domain.js'
import { fundingOperations } from './operations.js'

export const fundingDomain = defineDomain({
  name: 'funding',
  description: 'Grants and funding programs a business may be eligible for.',
  operations: [...fundingOperations],
})
