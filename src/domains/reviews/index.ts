import { defineDomain } from '../../core/domain.js'
import { reviewsPlannedTools } from './operations.js'

export const reviewsDomain = defineDomain({
  name: 'reviews',
  description: 'Review requests after completed jobs, and review platforms.',
  operations: [...reviewsPlannedTools],
})
