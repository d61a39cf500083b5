import { defineDomain } from '../../core/domain.js'
import { leadOperations } from './operations.js'
import { listLeads } from './service.js'

export const leadsDomain = defineDomain({
  name: 'leads',
  description: 'Leads (prospects): list, create and update; a new lead gets the instant reply.',
  operations: leadOperations,
  resources: [{
    uri: 'service://leads', name: 'Leads', scope: 'leads',
    description: 'Leads with contact info, status and priority (newest 100, with the total).',
    read: (deps, principal) => listLeads(deps, principal, { limit: 100 }),
  }],
  events: ['lead.created', 'lead.updated'],
  usageCounts: { leads: 'select count(*)::int from leads' },
})
