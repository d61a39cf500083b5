// quotes.ai_price_suggestion's input (the spec's fields), its output, and the answer a language model
// may give: a choice among the computed candidate lines, worded, with each line's figures repeated
// exactly as the candidate has them.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Id } from '../shared-schema.js'

export const URGENCIES = ['standard', 'urgent', 'emergency'] as const
export const COMPLEXITIES = ['simple', 'standard', 'complex'] as const

export const PriceSuggestionInput = Type.Object(
  {
    lead_id: Type.Optional(Id("Lead whose service type, message and suburb describe the job (give this or job_description)")),
    job_description: Type.Optional(Type.String({ minLength: 3, maxLength: 5000, description: 'What the client needs done (give this or lead_id)' })),
    service_type: Type.Optional(Type.String({ maxLength: 200, description: 'Service type, e.g. "blocked drain", "switchboard upgrade"' })),
    suburb: Type.Optional(Type.String({ maxLength: 100, description: "Suburb of the job site (default the lead's)" })),
    state: Type.Optional(AuState('State or territory of the job site')),
    urgency: Type.Optional(StringEnum(URGENCIES, { default: 'standard', description: 'How soon the work is needed; emergency means after-hours call-out' })),
    complexity: Type.Optional(StringEnum(COMPLEXITIES, { default: 'standard', description: 'Expected difficulty of the work' })),
  },
  closed,
)

export const LINE_SOURCES = ['past_quotes', 'price_book', 'labour_rate', 'service'] as const
const RANGE_GST = 'incl. GST as prices advertised to consumers are (the source does not say)'

const Evidence = Type.Object({
  past_jobs: Type.Integer({ description: "How many of the company's past accepted quotes for this kind of job have this line" }),
  quote_ids: Type.Array(Type.String(), { description: 'Those accepted quotes (quotes.list)' }),
  quote_numbers: Type.Array(Type.String()),
  median_unit_price: Nullable(Dollars('ex', { description: 'Median unit price of the line in those quotes; null without past quotes' })),
  lowest_unit_price: Nullable(Dollars('ex', { description: 'Lowest unit price among them' })),
  highest_unit_price: Nullable(Dollars('ex', { description: 'Highest unit price among them' })),
  price_book_item_id: Nullable(Type.String({ description: "The company's own price-book item the price comes from (pricebook.search)" })),
  service_id: Nullable(Type.String({ description: "The company's service the price comes from (services.list)" })),
  price_basis: Type.String({ description: 'Where the unit price and quantity come from, in words' }),
})

export const SuggestedLine = Type.Object({
  candidate_id: Type.String({ description: 'Which computed candidate this line is (c1, c2, ...)' }),
  description: Type.String(),
  quantity: Type.Number({ description: 'Suggested quantity (the median of past quotes, or 1 when none says)' }),
  unit_price: Dollars('ex', { description: 'Suggested price per unit' }),
  total: Dollars('ex', { description: 'quantity x unit_price, rounded to the cent' }),
  source: StringEnum(LINE_SOURCES, { description: "past_quotes: the company's accepted quotes; price_book: its own price book; labour_rate: its hourly service; service: another of its services" }),
  purpose: StringEnum(['work', 'urgency', 'location'] as const, { description: 'work: the job itself; urgency or location: a charge the adjustment added' }),
  evidence: Evidence,
  confidence: Type.Object({
    level: StringEnum(['high', 'medium', 'low'] as const),
    score: Type.Number({ minimum: 0, maximum: 1, description: '0 to 1, from how many past jobs support the line and how far their prices spread' }),
    reason: Type.String({ description: 'Why this confidence, from the evidence' }),
  }),
})

export const Adjustment = Type.Object({
  kind: StringEnum(['urgency', 'complexity', 'location'] as const),
  requested: Nullable(Type.String({ description: 'What was asked: the urgency, complexity or suburb/state' })),
  applied: Type.Boolean({ description: "False when the company's own data gives nothing to apply (no multiplier is ever guessed)" }),
  effect: Type.String({ description: 'What changed in the lines, or "none"' }),
  reason: Type.String({ description: "Why, from the company's own data, or why not and what would let it apply" }),
})

const MarketRange = Type.Object({
  sku: Type.String({ description: 'Catalogue item (pricebook.search)' }),
  description: Type.String(),
  low: Dollars('incl', { description: `Low end as the source states it; AUD, ${RANGE_GST}` }),
  high: Dollars('incl', { description: `High end as the source states it; AUD, ${RANGE_GST}` }),
  basis: Type.String({ description: 'What the range is a range of' }),
  text: Type.String({ description: 'The figure in the words of the source' }),
  source: Type.String(),
  as_of: Type.String({ description: 'When the source says it applied' }),
})

export const PriceSuggestionResponse = Type.Object({
  job: Type.Object({
    description: Type.String({ description: 'The text the suggestion was matched on' }),
    lead_id: Nullable(Type.String()),
    suburb: Nullable(Type.String()),
    state: Nullable(Type.String()),
    trade: Nullable(Type.String({ description: "The catalogue trade used for market context: the company's trade, else the one the description matches" })),
    urgency: StringEnum(URGENCIES),
    complexity: StringEnum(COMPLEXITIES),
  }),
  past_jobs: Type.Object({
    matched: Type.Integer({ description: 'Past accepted quotes whose lines, service type or message match the description' }),
    quote_ids: Type.Array(Type.String()),
    basis: Type.String({ description: 'How they were matched' }),
  }),
  lines: Type.Array(SuggestedLine, { description: 'Suggested line items, ex GST; quote_input carries them ready for quotes.create' }),
  other_candidates: Type.Array(SuggestedLine, { description: 'Lines computed but not suggested (weaker evidence), to add if they apply' }),
  subtotal: Dollars('ex', { description: 'Sum of the suggested line totals' }),
  adjustments: Type.Array(Adjustment, { description: 'Urgency, complexity and location, each with its reason' }),
  market_context: Type.Array(MarketRange, { description: "Sourced, dated market ranges of the shipped catalogue for the job's trade; empty when none is held" }),
  not_shown: Type.Array(Type.String({ description: 'A figure that is absent, and why' })),
  summary: Type.String(),
  quote_input: Nullable(Type.Object({
    lead_id: Nullable(Type.String({ description: 'The lead to quote; null when none was given (create one with leads.create first)' })),
    line_items: Type.Array(Type.Object({
      description: Type.String(),
      quantity: Type.Number(),
      unitPrice: Dollars('ex', { description: 'Price per unit' }),
      service_id: Type.Optional(Type.String()),
    })),
  }, { description: 'The suggested lines as quotes.create takes them; null when there is nothing to suggest' })),
  produced_by: Type.String({ description: "'model:<name>' when a language model chose and worded the lines, 'local-default' for the deterministic ranking" }),
  provider_note: Nullable(Type.String({ description: 'Why the local default answered though a model is configured; null otherwise' })),
})

/** What a model may answer: which candidates to suggest, in its wording, with their figures unchanged. */
export const ModelChoice = Type.Object({
  lines: Type.Array(Type.Object({
    candidate_id: Type.String(),
    description: Type.String({ minLength: 1, maxLength: 500 }),
    quantity: Type.Number(),
    unit_price: Type.Number(),
  }, closed), { maxItems: 50 }),
  summary: Type.String({ minLength: 1, maxLength: 1000 }),
}, closed)
