import { defineDomain } from '../../core/domain.js'
import { integrationsOperations, integrationsPlannedTools } from './operations.js'

export const integrationsDomain = defineDomain({
  name: 'integrations',
  description: 'Connections to accounting packages (Xero first): connect, status, push; sync comes next.',
  operations: [...integrationsOperations, ...integrationsPlannedTools],
})
