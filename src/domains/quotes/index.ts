import { defineDomain } from '../../core/domain.js'
import { quoteOperations } from './operations.js'
import { listQuotes } from './service.js'
import { QUOTE_INTERNAL_EVENTS } from './events.js'

export const quotesDomain = defineDomain({
  name: 'quotes',
  description: 'Quotes with line items priced ex GST (10% GST added on the subtotal; the total includes it): create, update, send (public accept page) and list.',
  operations: quoteOperations,
  resources: [{
    uri: 'service://quotes', name: 'Quotes', scope: 'quotes', description: 'Quotes with line items, totals and the linked lead (newest 100, with the total).',
    read: (deps, principal) => listQuotes(deps, principal, { limit: 100 }),
  }],
  events: ['quote.created', 'quote.sent', 'quote.accepted'],
  internalEvents: QUOTE_INTERNAL_EVENTS,
  usageCounts: { quotes: 'select count(*)::int from quotes' },
})
