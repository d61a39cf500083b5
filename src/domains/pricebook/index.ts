import { defineDomain } from '../../core/domain.js'
import { pricebookPlannedTools } from './operations.js'

export const pricebookDomain = defineDomain({
  name: 'pricebook',
  description: 'Supplier price book search and import.',
  operations: [...pricebookPlannedTools],
})
