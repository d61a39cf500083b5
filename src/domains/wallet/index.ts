import { defineDomain } from '../../core/domain.js'
import { walletOperations } from './operations.js'

export const walletDomain = defineDomain({
  name: 'wallet',
  description: 'The credit wallet: balance, deposits, history and transfers.',
  operations: walletOperations,
})
