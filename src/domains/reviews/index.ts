import { defineDomain } from '../../core/domain.js'
import { reviewOperations } from './operations.js'

export const reviewsDomain = defineDomain({
  name: 'reviews',
  description: 'Review requests after completed jobs, and the company\'s review platforms and links.',
  operations: reviewOperations,
  usageCounts: { review_requests: 'select count(*)::int from review_requests' },
})
