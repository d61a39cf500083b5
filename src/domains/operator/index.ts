import { defineDomain } from '../../core/domain.js'
import { operatorPlannedTools } from './operations.js'

export const operatorDomain = defineDomain({
  name: 'operator',
  description: 'Operators running several companies: switch, portfolio and dashboards.',
  operations: [...operatorPlannedTools],
})
