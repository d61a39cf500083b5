import { defineDomain } from '../../core/domain.js'
import { analyticsOperations } from './operations.js'
import { readFinancialsResource } from './resource.js'

export const analyticsDomain = defineDomain({
  name: 'analytics',
  description: 'Financial summaries, detailed analytics and the business dashboard.',
  resources: [
    {
      uri: 'service://financials', name: 'Financials', scope: 'financials',
      description: 'Revenue, conversion rates and invoice status: the last 30 days summary (as analytics.financials), lead conversion of the last 30 days, and invoices by status now.',
      read: readFinancialsResource,
    },
  ],
  operations: analyticsOperations,
})
