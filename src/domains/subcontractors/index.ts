import { defineDomain } from '../../core/domain.js'
import { subcontractorOperations, subcontractorsPlannedTools } from './operations.js'

export const subcontractorsDomain = defineDomain({
  name: 'subcontractors',
  description: 'Subcontractors: register, verify, list and dispatch.',
  operations: [...subcontractorOperations, ...subcontractorsPlannedTools],
})
