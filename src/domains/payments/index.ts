import { defineDomain } from '../../core/domain.js'
import { paymentsPlannedTools } from './operations.js'

export const paymentsDomain = defineDomain({
  name: 'payments',
  description: 'Payment links for jobs.',
  operations: [...paymentsPlannedTools],
})
