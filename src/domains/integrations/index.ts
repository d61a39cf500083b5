import { defineDomain } from '../../core/domain.js'
import { integrationsOperations, integrationsPlannedTools, integrationsSyncOperation } from './operations.js'
import { finishSyncRound, integrationSyncDefinition, syncBatch } from './sync.js'
import type { IntegrationSyncActivities } from './workflows/integration-sync.js'

export const integrationsDomain = defineDomain({
  name: 'integrations',
  description: 'Connections to accounting packages (Xero first): connect, status, push, and a sync workflow per connection.',
  operations: [...integrationsOperations, integrationsSyncOperation, ...integrationsPlannedTools],
  activities: (deps) => ({
    syncBatch: (input) => syncBatch(deps, input),
    finishSyncRound: (input) => finishSyncRound(deps, input),
  }) satisfies IntegrationSyncActivities,
  workflows: [integrationSyncDefinition],
})
