import { defineDomain } from '../../core/domain.js'
import { scalingOperations } from './operations.js'

export const scalingDomain = defineDomain({
  name: 'scaling',
  description: 'Readiness to scale the business.',
  operations: [...scalingOperations],
})
