import { defineDomain } from '../../core/domain.js'
import { cashflowOperations, recurringCostOperations } from './operations.js'

export const cashflowDomain = defineDomain({
  name: 'cashflow',
  description: 'Cash-flow forecasts from invoices, jobs and recorded recurring costs.',
  operations: [...cashflowOperations, ...recurringCostOperations],
})
