import { defineDomain } from '../../core/domain.js'
import { companyOperations } from './operations.js'

export const companyDomain = defineDomain({
  name: 'company',
  description: "The company's own profile: name, ABN, contact, state and time zone.",
  operations: companyOperations,
})
