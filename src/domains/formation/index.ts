import { defineDomain } from '../../core/domain.js'
import { formationPlannedTools } from './operations.js'
import { formationSimulationOperations } from './operations-simulation.js'

export const formationDomain = defineDomain({
  name: 'formation',
  description: 'Starting a trade business: setup guides, requirements, funding and location scores.',
  operations: [...formationPlannedTools, ...formationSimulationOperations],
})
