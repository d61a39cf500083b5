import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ } from '../../core/planned.js'
import { Dollars, StringEnum } from '../../core/schema-helpers.js'
import { AuState, closed, Trade } from '../shared-schema.js'

const capability = 'Pricebook and marketing'
const access = { scope: 'leads', permission: 'read' } as const

export const marketingPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'marketing.strategy',
    title: 'Marketing strategy',
    description:
      "Marketing plan for the business from its trade, service area, budget and lead history: which channels to use (Google Business Profile, reviews, local search ads, marketplaces such as hipages, referrals), budget split, and the first actions. Advice only; nothing is published.",
    input: Type.Object(
      {
        trade: Type.Optional(Trade("The business's trade; defaults to the company's trade type")),
        service_area: Type.Optional(Type.String({ description: 'Suburbs or region served, e.g. "Inner West Sydney"' })),
        state: Type.Optional(AuState()),
        monthly_budget: Type.Optional(Dollars('none', { minimum: 0, description: 'Monthly marketing budget' })),
        goals: Type.Optional(
          Type.Array(StringEnum(['more_leads', 'higher_value_jobs', 'more_reviews', 'repeat_business', 'commercial_work'] as const), {
            uniqueItems: true,
            description: 'What the marketing should achieve',
          }),
        ),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'marketing.generate_content',
    title: 'Generate marketing content',
    description:
      'Write marketing copy for the business: social posts, Google Business Profile posts, email newsletters, SMS promotions, website copy or ad text. Returns drafts only; nothing is published or sent. Incentivised reviews or testimonials must be disclosed (ACCC).',
    input: Type.Object(
      {
        content_type: Type.Optional(
          StringEnum(['social_post', 'google_business_post', 'email_newsletter', 'sms_promo', 'website_copy', 'ad_copy'] as const, {
            default: 'social_post',
            description: 'Kind of content to write',
          }),
        ),
        topic: Type.Optional(Type.String({ maxLength: 500, description: 'What it is about, e.g. "winter hot water system check special"' })),
        service: Type.Optional(Type.String({ description: 'Service to promote' })),
        suburb: Type.Optional(Type.String({ description: 'Area to mention for local relevance' })),
        tone: Type.Optional(StringEnum(['friendly', 'professional', 'urgent', 'casual'] as const, { default: 'friendly', description: 'Voice of the copy' })),
        variants: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 1, description: 'How many alternative drafts to return' })),
      },
      closed,
    ),
    access,
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
