// Platform upkeep that belongs to no company: the daily retention run. No tools (so no toolset).
import { defineDomain } from '../../core/domain.js'
import type { Deps } from '../../core/deps.js'
import { dataRetentionDefinition, pruneRetentionRound } from './retention.js'

export const opsDomain = defineDomain({
  name: 'ops',
  description: 'Platform upkeep: the daily retention run.',
  operations: [],
  activities: (deps: Deps) => ({
    pruneRetentionRound: (input: Parameters<typeof pruneRetentionRound>[1]) => pruneRetentionRound(deps, input),
  }),
  workflows: [dataRetentionDefinition],
})
