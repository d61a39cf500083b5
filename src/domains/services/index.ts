import { defineDomain } from '../../core/domain.js'
import { serviceOperations } from './operations.js'
import { listServices } from './service.js'

export const servicesDomain = defineDomain({
  name: 'services',
  description: 'The service catalogue with AUD prices ex GST.',
  operations: serviceOperations,
  resources: [{
    uri: 'service://services', name: 'Service catalogue', scope: 'quotes', description: 'The service catalogue with AUD prices ex GST (newest 100).',
    read: (deps, principal) => listServices(deps, principal, { limit: 100 }),
  }],
  usageCounts: { services: 'select count(*)::int from services' },
})
