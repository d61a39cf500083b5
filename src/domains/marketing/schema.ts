// Marketing tools' inputs (the spec's fields, unchanged from the planned tools) and outputs. Every
// number in an output is the company's own (lead counts, win rates, won value), derived from them by a
// rule that is stated (a budget share), or absent with a sentence saying so.
import Type from 'typebox'
import { Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Trade } from '../shared-schema.js'

export const GOALS = ['more_leads', 'higher_value_jobs', 'more_reviews', 'repeat_business', 'commercial_work'] as const
export const CHANNELS = [
  'google_business_profile', 'reviews', 'referrals', 'local_search_ads', 'marketplaces', 'social_media', 'past_clients', 'commercial_outreach',
] as const
export type MarketingChannel = (typeof CHANNELS)[number]
export const CONTENT_TYPES = [
  'social_post', 'google_business_post', 'email_newsletter', 'sms_promo', 'website_copy', 'ad_copy', 'review_request', 'review_reply',
] as const
export type ContentType = (typeof CONTENT_TYPES)[number]

export const StrategyInput = Type.Object(
  {
    trade: Type.Optional(Trade("The business's trade; defaults to the company's trade type")),
    service_area: Type.Optional(Type.String({ maxLength: 200, description: 'Suburbs or region served, e.g. "Inner West Sydney"' })),
    state: Type.Optional(AuState()),
    monthly_budget: Type.Optional(Dollars('none', { minimum: 0, maximum: 1_000_000, description: 'Monthly marketing budget' })),
    goals: Type.Optional(
      Type.Array(StringEnum(GOALS), { uniqueItems: true, description: 'What the marketing should achieve (default more_leads)' }),
    ),
  },
  closed,
)

export const ContentInput = Type.Object(
  {
    content_type: Type.Optional(StringEnum(CONTENT_TYPES, {
      default: 'social_post',
      description: 'Kind of content to write; review_request asks past clients for reviews, review_reply answers one review',
    })),
    topic: Type.Optional(Type.String({ maxLength: 500, description: 'What it is about, e.g. "winter hot water system check special"' })),
    service: Type.Optional(Type.String({ maxLength: 200, description: 'Service to promote' })),
    suburb: Type.Optional(Type.String({ maxLength: 100, description: 'Area to mention for local relevance' })),
    tone: Type.Optional(StringEnum(['friendly', 'professional', 'urgent', 'casual'] as const, { default: 'friendly', description: 'Voice of the copy' })),
    variants: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 1, description: 'How many alternative drafts to return' })),
    offer: Type.Optional(Type.String({ maxLength: 300, description: 'A promotion to include, in your words, e.g. "10% off hot water system services booked before 30 June"; it is quoted as given, never invented' })),
    incentive: Type.Optional(Type.String({ maxLength: 300, description: 'review_request only: what is given for a review, e.g. "a $20 voucher"; it is disclosed, offered for any review whatever it says (ACCC)' })),
    review_text: Type.Optional(Type.String({ maxLength: 4000, description: 'review_reply only: the review being answered' })),
    review_rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: 'review_reply only: its star rating' })),
    reviewer_name: Type.Optional(Type.String({ maxLength: 100, description: 'review_reply only: the reviewer\'s name as shown' })),
  },
  closed,
)

const ProducedBy = {
  produced_by: Type.String({ description: "Who wrote it: 'model:<name>' (the configured language model) or 'local-default' (rules and templates, no model)" }),
  provider_note: Nullable(Type.String({ description: 'Why the local default answered although a model is configured (a timeout, a malformed answer); null otherwise' })),
}

const Figure = Type.Object({
  name: Type.String({ description: 'What the figure is' }),
  value: Type.String({ description: 'The figure as shown' }),
  source: Type.String({ description: 'Where it came from: the company\'s own records (which, over which dates) or a dated public source' }),
  as_of: Type.String({ description: 'When it was true: the records\' window end, or the source\'s date' }),
}, closed)

export const SourcedRule = Type.Object({
  rule: Type.String(),
  source: Type.String(),
  as_of: Type.String(),
}, closed)

const LeadSource = Type.Object({
  source: Type.String({ description: "The lead's source as recorded (lower case; referral:<code> counted as referral; unknown when blank)" }),
  channel: Nullable(StringEnum(CHANNELS, { description: 'The marketing channel that source belongs to, when it is one' })),
  leads: Type.Integer({ minimum: 0 }),
  won: Type.Integer({ minimum: 0, description: 'Leads won (status Won, or a quote accepted)' }),
  win_rate_percent: Nullable(Type.Number({ minimum: 0, maximum: 100, description: 'won / leads x 100, one decimal; null with no leads' })),
  won_value: Dollars('incl', { minimum: 0, description: 'Total of the accepted quotes of those leads' }),
}, closed)

export const StrategyAdvice = Type.Object({
  channels: Type.Array(Type.Object({
    channel: StringEnum(CHANNELS),
    priority: StringEnum(['primary', 'secondary', 'test'] as const),
    why: Type.String({ minLength: 1, maxLength: 1000 }),
  }, closed), { minItems: 1, maxItems: 8 }),
  plan_90_days: Type.Array(Type.Object({
    phase: StringEnum(['days_1_30', 'days_31_60', 'days_61_90'] as const),
    focus: Type.String({ minLength: 1, maxLength: 300 }),
    actions: Type.Array(Type.String({ minLength: 1, maxLength: 800 }), { minItems: 1, maxItems: 8 }),
  }, closed), { minItems: 3, maxItems: 3 }),
  reasoning: Type.Array(Type.String({ minLength: 1, maxLength: 1000 }), { minItems: 1, maxItems: 10 }),
}, closed)

export const StrategyResponse = Type.Object({
  business_name: Type.String(),
  trade: Nullable(Type.String()),
  service_area: Nullable(Type.String()),
  state: Nullable(Type.String()),
  goals: Type.Array(StringEnum(GOALS)),
  lead_history: Type.Object({
    from: Type.String({ format: 'date', description: 'First day of the window read (12 months)' }),
    to: Type.String({ format: 'date' }),
    leads: Type.Integer({ minimum: 0 }),
    sources: Type.Array(LeadSource),
  }, closed),
  channels: StrategyAdvice.properties.channels,
  budget_split: Type.Object({
    monthly_budget: Nullable(Dollars('none', { description: 'The budget given; null when none was' })),
    basis: Type.String({ description: 'The rule the split follows, and the data behind it' }),
    allocations: Type.Array(Type.Object({
      channel: StringEnum(CHANNELS),
      share_percent: Type.Number({ minimum: 0, maximum: 100 }),
      monthly_amount: Nullable(Dollars('none', { description: 'share x budget; null without a budget' })),
      basis: Type.String(),
    }, closed)),
  }, closed),
  plan_90_days: StrategyAdvice.properties.plan_90_days,
  reasoning: StrategyAdvice.properties.reasoning,
  figures: Type.Array(Figure, { description: 'Every number above, with where it came from' }),
  not_shown: Type.Array(Type.String(), { description: 'Figures deliberately absent, and why (no sourced market figure is invented)' }),
  rules: Type.Array(SourcedRule, { description: 'Rules and public facts the advice relies on, with source and date' }),
  ...ProducedBy,
}, { ...closed, description: 'Advice only: nothing is published, sent or spent.' })

export const Draft = Type.Object({
  subject: Nullable(Type.String({ maxLength: 200, description: 'Email subject; null for other content' })),
  body: Type.String({ minLength: 1, maxLength: 5000 }),
}, closed)

export const ContentResponse = Type.Object({
  content_type: StringEnum(CONTENT_TYPES),
  drafts: Type.Array(Type.Object({
    subject: Nullable(Type.String()),
    copy: Type.String({ description: 'The copy alone: what to pass to comms.send_sms / comms.send_email (message_type marketing), which add the sender and opt-out lines themselves' }),
    body: Type.String({ description: 'The copy as it would reach the recipient, with the sender and opt-out lines the Spam Act needs on an SMS or email' }),
    characters: Type.Integer({ minimum: 0 }),
    sms_segments: Nullable(Type.Integer({ minimum: 1, description: 'SMS only: 160 GSM-7 characters per segment, 153 when split (70/67 for other text)' })),
    checks: Type.Array(Type.String(), { description: 'The rules checked or applied to this draft' }),
  }, closed)),
  sender: Type.Object({ business_name: Type.String(), abn: Nullable(Type.String()) }, closed),
  rules: Type.Array(SourcedRule),
  not_sent: Type.String({ description: 'These are drafts: nothing was published or sent; how to send them' }),
  ...ProducedBy,
}, closed)
