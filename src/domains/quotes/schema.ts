import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum, UPDATE_OPTIONS } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { DateOnly, DryRun, MessageOutputFields, Quantity } from '../shared-schema.js'

export const QUOTE_STATUSES = ['Draft', 'Sent', 'Viewed', 'Accepted', 'Declined', 'Expired'] as const
export type QuoteStatus = (typeof QUOTE_STATUSES)[number]

const closed = { additionalProperties: false } as const
const Id = (description: string) => Type.String({ format: 'uuid', description })

export const LineItemInput = Type.Object(
  {
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'What is supplied or done; defaults to the service name when service_id is given' })),
    quantity: Quantity('Quantity (0.001 to 100000, up to three decimals), e.g. hours or units'),
    unitPrice: Type.Optional(Dollars('ex', { minimum: 0, maximum: 1_000_000, description: 'Price per unit (at most two decimals); defaults to the service price when service_id is given' })),
    unit_cost: Type.Optional(Dollars('incl', { minimum: 0, maximum: 1_000_000, description: 'Your cost per unit (materials) as you pay it, for job profit; never shown to the client' })),
    service_id: Type.Optional(Id('Catalogue service this line comes from (see services.list)')),
  },
  closed,
)
const LineItems = (description: string) => Type.Array(LineItemInput, { minItems: 1, maxItems: 200, description })

export const LineItemSchema = Type.Object({
  description: Type.String(),
  quantity: Type.Number(),
  unitPrice: Dollars('ex', { description: 'Price per unit' }),
  total: Dollars('ex', { description: 'quantity x unitPrice, rounded to the cent' }),
  serviceId: Nullable(Type.String()),
})

export const QuoteSchema = Type.Object({
  id: Type.String(),
  quoteNumber: Type.String({ description: 'Per-company, gapless: Q-00001, Q-00002, ...' }),
  status: StringEnum(QUOTE_STATUSES),
  subtotal: Dollars('ex', { description: 'Sum of line totals' }),
  gst: Dollars('gst', { description: '10% of the subtotal, rounded half up to the cent' }),
  total: Dollars('incl', { description: 'subtotal + gst: what the client pays' }),
  clientName: Nullable(Type.String()),
  leadId: Type.String(),
  lineItems: Type.Array(LineItemSchema),
  validUntil: Type.String({ format: 'date', description: "Last day the quote can be accepted (the company's local date)" }),
  notes: Nullable(Type.String()),
  deposit: Nullable(Type.Object({
    percent: Nullable(Type.Number({ description: 'Share of the total asked as a deposit' })),
    amount: Dollars('incl', { description: 'Deposit' }),
    invoiceId: Nullable(Type.String({ description: 'The deposit invoice, issued when the client accepts' })),
  }, { description: 'The deposit the client pays on accepting; null when none is asked' })),
  job_id: Nullable(Type.String({ description: 'Its job: opened when the quote is accepted (company setting create_job_on_acceptance, on by default), else by jobs.create; null until then' })),
  publicUrl: Nullable(Type.String({ description: 'Page where the client views, accepts or declines; set once sent' })),
  sentAt: Nullable(DateTime()),
  viewedAt: Nullable(DateTime()),
  acceptedAt: Nullable(DateTime()),
  acceptedName: Nullable(Type.String({ description: 'Name the client typed as their signature' })),
  declinedAt: Nullable(DateTime()),
  declineReason: Nullable(Type.String()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
})

export const ListQuotesInput = Type.Object(
  {
    status: Type.Optional(StringEnum(QUOTE_STATUSES, { description: 'Only quotes in this status' })),
    lead_id: Type.Optional(Id('Only quotes for this lead')),
    ...PagingInput,
  },
  closed,
)

export const CreateQuoteInput = Type.Object(
  {
    lead_id: Id('Lead the quote is for (see leads.list)'),
    line_items: LineItems('Line items, at least one; totals and GST are computed from them'),
    notes: Type.Optional(Type.String({ maxLength: 5000, description: 'Notes, terms or exclusions shown on the quote' })),
    valid_until: Type.Optional(DateOnly('Last day (YYYY-MM-DD) the quote can be accepted; default 30 days from today')),
    deposit_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: "Deposit asked on acceptance, % of the total (0 for none); default the company's default deposit" })),
    deposit_amount: Type.Optional(Dollars('incl', { minimum: 0, maximum: 10_000_000, description: 'Deposit asked on acceptance, a fixed amount (0 for none)' })),
  },
  closed,
)

export const UpdateQuoteInput = Type.Object(
  {
    quote_id: Id('Quote to update'),
    status: Type.Optional(StringEnum(QUOTE_STATUSES, { description: 'New status; an Accepted quote cannot be moved back' })),
    line_items: Type.Optional(LineItems('Replacement line items (not once Accepted or Declined)')),
    total: Type.Optional(Dollars('incl', { minimum: 0, description: 'Expected total: must equal the total computed from the line items, else validation_error' })),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 5000, description: 'Notes; null clears them' }))),
    valid_until: Type.Optional(DateOnly('New last day (YYYY-MM-DD) the quote can be accepted')),
    deposit_percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: "Deposit asked on acceptance, % of the total (0 for none)" })),
    deposit_amount: Type.Optional(Dollars('incl', { minimum: 0, maximum: 10_000_000, description: 'Deposit asked on acceptance, a fixed amount (0 for none)' })),
  },
  UPDATE_OPTIONS,
)

export const SendQuoteInput = Type.Object(
  {
    quote_id: Id('Quote to send (Draft, or Sent/Viewed to send again)'),
    send_sms: Type.Optional(Type.Boolean({ default: false, description: "Text the link to the client's mobile" })),
    send_email: Type.Optional(Type.Boolean({ default: false, description: 'Email the link to the client' })),
    message: Type.Optional(Type.String({ maxLength: 1000, description: "The owner's note, sent as written after the greeting (a note with its own greeting replaces ours)" })),
    dry_run: DryRun,
  },
  closed,
)

export const QuoteResponse = Type.Object({ quote: QuoteSchema })
export const QuoteListResponse = Type.Object({ quotes: Type.Array(QuoteSchema), ...PageFields })
export const SendQuoteResponse = Type.Object({
  quote: QuoteSchema,
  public_url: Type.String(),
  ...MessageOutputFields,
  delivery: Type.Object({
    workflow_id: Nullable(Type.String({ description: 'Temporal workflow sending the messages' })),
    channels: Type.Array(StringEnum(['sms', 'email'] as const)),
    skipped: Type.Array(Type.String({ description: 'Why a requested channel was not used' })),
  }),
  follow_ups: Nullable(Type.Object({
    workflow_id: Type.String({ description: 'Temporal workflow following this send up (stops when the quote is answered, expires or is sent again)' }),
    at: Type.Array(Type.String({ description: 'ISO time' }), { description: 'When each follow-up is due' }),
  }, { description: 'The follow-ups of this send; null when quote follow-ups are turned off (workflows.toggle)' })),
})
