import { defineDomain } from '../../core/domain.js'
import { keyOperations } from './operations.js'

export const keysDomain = defineDomain({
  name: 'keys',
  description: 'API keys with their scopes and permission (admin keys).',
  operations: keyOperations,
  usageCounts: { api_keys: 'select count(*)::int from api_keys where revoked_at is null' },
})
