import { defineDomain } from '../../core/domain.js'
import { operatorOperations } from './operations.js'

export const operatorDomain = defineDomain({
  name: 'operator',
  description: 'Operators running several companies: switch, portfolio and dashboards.',
  operations: operatorOperations,
})
