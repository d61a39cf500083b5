import { defineDomain } from '../../core/domain.js'
import { analyticsPlannedTools } from './operations.js'

export const analyticsDomain = defineDomain({
  name: 'analytics',
  description: 'Financial summaries, detailed analytics and the business dashboard.',
  resources: [
    { uri: 'service://financials', name: 'Financials', scope: 'financials', description: 'Revenue, conversion rates and invoice status.', capability: 'Invoicing, payments and cash flow' },
  ],
  operations: [...analyticsPlannedTools],
})
