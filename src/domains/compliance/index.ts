import { defineDomain } from '../../core/domain.js'
import { complianceOperations } from './operations.js'

export const complianceDomain = defineDomain({
  name: 'compliance',
  description: 'Safety documents such as SWMS drafts.',
  operations: [...complianceOperations],
})
