import { defineDomain } from '../../core/domain.js'
import { cashflowPlannedTools } from './operations.js'

export const cashflowDomain = defineDomain({
  name: 'cashflow',
  description: 'Cash-flow forecasts from invoices, jobs and quotes.',
  operations: [...cashflowPlannedTools],
})
