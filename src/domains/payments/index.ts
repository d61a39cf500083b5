import { defineDomain } from '../../core/domain.js'
import { paymentOperations } from './operations.js'

export const paymentsDomain = defineDomain({
  name: 'payments',
  description: 'Payment links for jobs, the company\'s payment account, and processor webhooks that record payments once.',
  operations: paymentOperations,
  events: ['payment.received'],
})
