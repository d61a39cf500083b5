import { defineDomain } from '../../core/domain.js'
import { clientOperations } from './operations.js'
import { listClients } from './service.js'

export const clientsDomain = defineDomain({
  name: 'clients',
  description: 'Clients (leads with jobs) with job counts, quote counts and revenue.',
  operations: clientOperations,
  resources: [{
    uri: 'service://clients', name: 'Clients', scope: 'clients', description: 'Clients (leads with jobs) with job counts, quote counts and revenue (newest 100).',
    read: (deps, principal) => listClients(deps, principal, { limit: 100 }, 'any_job'),
  }],
})
