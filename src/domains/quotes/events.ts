// Events quotes emits for reactions only (core/reactions.ts): never written, not webhooks. The
// public ones (quote.created, quote.sent, quote.accepted) are in index.ts `events`.
export const QUOTE_INTERNAL_EVENTS = ['quote.changed', 'quote.delivery_queued'] as const

/** quote.changed: its status or validity changed, or it is being sent again; what follows send `sendNumber` looks again. */
export interface QuoteChanged { quoteId: string; sendNumber: number }

/**
 * quote.delivery_queued: quotes.send queued send number `sendNumber` of the quote to the client.
 * timeZone: the company's, read by the send already, so a reaction need not ask again.
 */
export interface QuoteDeliveryQueued { quoteId: string; sendNumber: number; validUntil: string; timeZone: string }

/** What a reaction to quote.delivery_queued answers: the follow-up run it started (quotes.send's follow_ups), null when off. */
export interface QuoteDeliveryAnswer { followUps?: { workflowId: string; followUpsAt: string[] } | null }
