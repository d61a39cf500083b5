import { defineDomain } from '../../core/domain.js'
import { lifecycleOperations } from './operations.js'

export const lifecycleDomain = defineDomain({
  name: 'lifecycle',
  description: 'Where the business stands: formation, survival, capacity, funding, scaling.',
  operations: [...lifecycleOperations],
})
