// Quote follow-ups: a run per quote send (reaction to quote.delivery_queued), told to look again
// whenever the quote changes (quote.changed).
import type { QuoteChanged, QuoteDeliveryAnswer, QuoteDeliveryQueued } from '../../quotes/events.js'
import { defineFeature } from '../engine/catalogue.js'
import { followUpQuoteAutomation } from './automation.js'
import { followUpQuoteOperation } from './follow-up-quote-tool.js'
import { checkQuoteFollowUp, nudgeQuoteFollowUp, planQuoteFollowUp, quoteFollowUpDefinition, startQuoteFollowUp } from './follow-up-quote.js'

export const quoteFollowUpFeature = defineFeature({
  name: 'quote-follow-up',
  automations: [followUpQuoteAutomation],
  operations: [followUpQuoteOperation],
  activities: (deps) => ({
    checkQuoteFollowUp: (input: Parameters<typeof checkQuoteFollowUp>[1]) => checkQuoteFollowUp(deps, input),
    planQuoteFollowUp: (input: Parameters<typeof planQuoteFollowUp>[1]) => planQuoteFollowUp(deps, input),
  }),
  workflows: [quoteFollowUpDefinition],
  reactions: [
    {
      name: 'quote-follow-up: start for the send',
      on: ['quote.delivery_queued'],
      async inTransaction({ deps, tx, start, event }) {
        const q = event.payload as QuoteDeliveryQueued
        const followUps = await startQuoteFollowUp(deps, tx, start, { companyId: event.companyId, quoteId: q.quoteId, sendNumber: q.sendNumber, sentAt: null, validUntil: q.validUntil, timeZone: q.timeZone })
        return { followUps } satisfies QuoteDeliveryAnswer
      },
    },
    {
      name: 'quote-follow-up: look again',
      on: ['quote.changed'],
      afterCommit(deps, event) {
        const q = event.payload as QuoteChanged
        nudgeQuoteFollowUp(deps, event.companyId, q.quoteId, q.sendNumber)
      },
    },
  ],
})
