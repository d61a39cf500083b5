import { afterQuoteChange, afterQuoteSend } from './next-steps.js'
import { defineOperation } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { CreateQuoteInput, ListQuotesInput, QuoteListResponse, QuoteResponse, SendQuoteInput, SendQuoteResponse, UpdateQuoteInput } from './schema.js'
import { createQuote, listQuotes, sendQuote, updateQuote } from './service.js'

export const quoteOperations = [
  defineOperation({
    name: 'quotes.list',
    domain: 'quotes',
    title: 'List quotes',
    description: 'List quotes newest first: number, status, line items, subtotal, GST, total (AUD), client name, linked lead, validity and public link. Filter by status (Draft, Sent, Viewed, Accepted, Declined, Expired) or lead_id. Paged with cursor/nextCursor (REST: limit and offset).',
    input: ListQuotesInput,
    output: QuoteListResponse,
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/quotes' },
    run: (ctx, input) => listQuotes(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'quotes.create',
    domain: 'quotes',
    title: 'Create a quote',
    description: 'Create a Draft quote for a lead (lead_id and at least one line item required). Line items: description, quantity, unitPrice in AUD ex GST (or a service_id from the catalogue). Subtotal, 10% GST and total are computed. Numbered Q-00001 onwards per company. Send it with quotes.send.',
    input: CreateQuoteInput,
    output: QuoteResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/quotes', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createQuote(ctx.deps, ctx.principal!, input),
    nextSteps: afterQuoteChange,
  }),
  defineOperation({
    name: 'quotes.update',
    domain: 'quotes',
    title: 'Update a quote',
    description: "Change a quote's status, line items (replacing them all), notes or validity; only what you provide changes. Totals are always computed from the line items: a total that disagrees is a validation_error. An Accepted quote cannot be moved back, and Accepted or Declined quotes keep their line items.",
    input: UpdateQuoteInput,
    output: QuoteResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'PATCH', path: '/quotes/:quote_id', feature: 'restWrite' },
    run: (ctx, input) => updateQuote(ctx.deps, ctx.principal!, input),
    nextSteps: afterQuoteChange,
  }),
  defineOperation({
    name: 'quotes.send',
    domain: 'quotes',
    title: 'Send a quote',
    description: "Send a quote: sets Sent, creates its public page (the client views, accepts with their typed name, or declines there; viewing sets Viewed), and optionally texts (send_sms) and/or emails (send_email) the link. The lead moves to Quoted. A Sent or Viewed quote can be sent again.",
    input: SendQuoteInput,
    output: SendQuoteResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/quotes/:quote_id/send', feature: 'restWrite' },
    run: (ctx, input) => sendQuote(ctx.deps, ctx.principal!, input),
    nextSteps: afterQuoteSend,
  }),
]
