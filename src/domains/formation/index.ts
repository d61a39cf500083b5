import { defineDomain } from '../../core/domain.js'
import { formationFundingOperation } from './funding.js'
import { formationSetupOperations } from './operations-setup.js'
import { formationSimulationOperations } from './operations-simulation.js'

export const formationDomain = defineDomain({
  name: 'formation',
  description: 'Starting a trade business: setup guides, requirements, funding and location scores.',
  operations: [...formationSetupOperations, formationFundingOperation, ...formationSimulationOperations],
})
