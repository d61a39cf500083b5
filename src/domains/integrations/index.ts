import { defineDomain } from '../../core/domain.js'
import { integrationsPlannedTools } from './operations.js'

export const integrationsDomain = defineDomain({
  name: 'integrations',
  description: 'Connections to accounting and other systems, sync and push.',
  operations: [...integrationsPlannedTools],
})
