// Schema pieces shared by the planned-tool catalogue (inputs only; outputs come with each domain).
import Type from 'typebox'
import { Dollars, StringEnum } from '../core/schema-helpers.js'

/** Options for every tool input: unknown fields are rejected. */
export const closed = { additionalProperties: false } as const

/** A record identifier. */
export const Id = (description: string) => Type.String({ minLength: 1, description })

/** Cursor pagination properties for list tools; spread into a Type.Object. */
export const Paging = {
  cursor: Type.Optional(Type.String({ description: "Opaque cursor from a previous page's nextCursor" })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size' })),
}

/** A calendar date; validation bounds it to 2000-01-01..2099-12-31 (core/date-bounds.ts). */
export const DateOnly = (description: string) => Type.String({ format: 'date', description })

/**
 * A quantity of a line: 0.001 or more (the database keeps three decimals, so less is stored as 0 and
 * breaks its quantity > 0 check), at most 100000. The services refuse more than three decimals.
 */
export const MIN_QUANTITY = 0.001
export const Quantity = (description: string) => Type.Number({ minimum: MIN_QUANTITY, maximum: 100_000, description })

export const AU_STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'] as const
export const AuState = (description = 'Australian state or territory') => StringEnum(AU_STATES, { description })

export const Trade = (description = 'Trade, free text, e.g. plumbing, electrical, carpentry, air conditioning and refrigeration') =>
  Type.String({ minLength: 1, maxLength: 100, description })

export const QUOTE_STATUSES = ['Draft', 'Sent', 'Viewed', 'Accepted', 'Declined', 'Expired'] as const
export const JOB_STATUSES = ['Quoted', 'Scheduled', 'In Progress', 'Completed', 'Cancelled'] as const

export const LineItem = Type.Object(
  {
    description: Type.String({ minLength: 1, description: 'What is supplied or done, e.g. "Replace 250L hot water system"' }),
    quantity: Quantity('Quantity (0.001 to 100000, at most three decimals), e.g. hours or units'),
    unitPrice: Dollars('ex', { minimum: 0, description: 'Price per unit (0 or more); GST 10% is added on the subtotal' }),
    service_id: Type.Optional(Id('Service catalog item this line comes from (see services.list)')),
  },
  closed,
)

export const LineItems = (description: string) => Type.Array(LineItem, { minItems: 1, maxItems: 200, description })

export const REVIEW_PLATFORMS = ['google', 'facebook', 'hipages', 'productreview', 'wordofmouth', 'trustpilot', 'yelp', 'truelocal', 'serviceseeking'] as const

export const BUSINESS_STRUCTURES = ['sole_trader', 'partnership', 'company', 'trust'] as const

/** How a notice reaches the client. */
export const Channel = StringEnum(['sms', 'email', 'both'] as const, { default: 'sms', description: 'How to send it' })

/** The dry_run argument of every tool that messages a customer (test/dry-run-coverage.test.ts holds every sending tool to it). */
export const DryRun = Type.Optional(Type.Boolean({
  default: false,
  description: 'true: send, record, count and start nothing; answer with the exact messages a real call would send first.',
}))

/** One message to a customer as it goes out (or, on a dry run, would go out). */
export const SentMessage = Type.Object({
  channel: StringEnum(['sms', 'email'] as const),
  to: Type.String({ description: 'Mobile number or email address' }),
  subject: Type.Union([Type.String(), Type.Null()], { description: 'Email subject; null for an SMS' }),
  text: Type.String({ description: "The SMS text, or the email's plain-text part" }),
  html: Type.Union([Type.String(), Type.Null()], { description: "The email's HTML part; null for an SMS" }),
})

/** Output fields of a tool that messages a customer: whether it was a dry run, and what was (or would be) sent. */
export const MessageOutputFields = {
  dry_run: Type.Boolean({ description: 'true: nothing was changed or sent; messages shows what a real call would send' }),
  messages: Type.Array(SentMessage, { description: 'The messages exactly as sent (queued for delivery), or on a dry run as they would be' }),
}

/**
 * Output fields of a tool that starts a workflow which messages a customer later (or approves one
 * that does): a dry run shows what would go first; the real call sends nothing itself.
 */
export const RunMessageFields = {
  dry_run: MessageOutputFields.dry_run,
  messages: Type.Array(SentMessage, { description: 'Dry run: exactly what would be sent first (a run: its first step); [] on a real call, whose run sends later (see workflows.list)' }),
}
