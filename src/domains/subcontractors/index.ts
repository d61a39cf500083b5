import { defineDomain } from '../../core/domain.js'
import { subcontractorsPlannedTools } from './operations.js'

export const subcontractorsDomain = defineDomain({
  name: 'subcontractors',
  description: 'Subcontractors: register, verify, list and dispatch.',
  operations: [...subcontractorsPlannedTools],
})
