import { defineDomain } from '../../core/domain.js'
import { pricebookOperations } from './operations.js'

export const pricebookDomain = defineDomain({
  name: 'pricebook',
  description: "Price book: the company's own supplier prices and the shipped catalogue; search and import.",
  operations: pricebookOperations,
})
