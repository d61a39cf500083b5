import { defineDomain } from '../../core/domain.js'
import { ecosystemOperations } from './operations.js'

export const ecosystemDomain = defineDomain({
  name: 'ecosystem',
  description: 'Referral links and the partner ecosystem.',
  operations: ecosystemOperations,
})
