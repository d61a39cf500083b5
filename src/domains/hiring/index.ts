import { defineDomain } from '../../core/domain.js'
import { hiringOperations } from './operations.js'

export const hiringDomain = defineDomain({
  name: 'hiring',
  description: 'Capacity, readiness and cost of hiring staff and apprentices.',
  operations: [...hiringOperations],
})
