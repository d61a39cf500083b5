import { afterPriceSuggestion, afterQuoteChange, afterQuoteSend } from './next-steps.js'
import { aiPriceSuggestion } from './ai-price-suggestion.js'
import { PriceSuggestionInput, PriceSuggestionResponse } from './ai-price-suggestion-schema.js'
import { defineOperation } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import { CreateQuoteInput, ListQuotesInput, QuoteListResponse, QuoteResponse, SendQuoteInput, SendQuoteResponse, UpdateQuoteInput } from './schema.js'
import { createQuote, listQuotes, sendQuote, updateQuote } from './service.js'

export const quoteOperations = [
  defineOperation({
    name: 'quotes.list',
    domain: 'quotes',
    title: 'List quotes',
    description: 'List quotes newest first: number, status, line items, subtotal, GST, total, client name, lead, validity and public link; filter by status or lead_id.',
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
    description: 'Create a Draft quote for a lead, numbered Q-00001 on. Lines are priced ex GST (unitPrice, or a service_id from the catalogue); subtotal, 10% GST and total are computed. Send it with quotes.send.',
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
    description: "Change a quote's status, line items (replacing them all), notes, validity or deposit; only what you give changes, and totals are computed from the lines. Side effects: status Accepted opens the quote's job (company setting create_job_on_acceptance, default on; company.update_profile); Accepted, Declined or Expired stops its follow-ups.",
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
    description: "Send a quote: status Sent, lead Quoted, and its public page, where the client views it (Viewed), accepts with a typed name or declines; send_sms and send_email text or email the link. A Sent or Viewed quote can be sent again. Side effects: books up to 3 follow-ups of this send (automation follow_up_quote, default on, without approval unless set; workflows.toggle). Accepted on its page, the quote's deposit (if any) is invoiced and its job opened (company setting create_job_on_acceptance, default on).",
    input: SendQuoteInput,
    output: SendQuoteResponse,
    access: { scope: 'quotes', permission: 'write' },
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/quotes/:quote_id/send', feature: 'restWrite' },
    run: (ctx, input) => sendQuote(ctx.deps, ctx.principal!, input),
    nextSteps: afterQuoteSend,
  }),
  defineOperation({
    name: 'quotes.ai_price_suggestion',
    domain: 'quotes',
    title: 'Suggest quote pricing',
    description:
      "Suggest line items and AUD prices (ex GST) for a job from the company's own data: past accepted quotes for the same kind of job (cited: count, ids, median and range), its price book and its hourly labour rate. " +
      'Urgency, complexity and location adjustments are shown with their reason and applied only where the company has a charge or enough past prices; market context is sourced, dated ranges; each line has a confidence with its evidence. ' +
      "A configured language model may only choose and word the computed lines (produced_by; counts toward the monthly LLM limit). Nothing is saved: pass quote_input to quotes.create.",
    input: PriceSuggestionInput,
    output: PriceSuggestionResponse,
    access: { scope: 'quotes', permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/quotes/price-suggestion' },
    run: (ctx, input) => aiPriceSuggestion(ctx.deps, ctx.principal!, input),
    nextSteps: afterPriceSuggestion,
  }),
]
