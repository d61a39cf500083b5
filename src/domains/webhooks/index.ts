import { defineDomain } from '../../core/domain.js'
import { webhooksPlannedTools } from './operations.js'

export const webhooksDomain = defineDomain({
  name: 'webhooks',
  description: 'Signed outbound webhook subscriptions.',
  operations: [...webhooksPlannedTools],
})
