import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PLAN_SLUGS } from '../../core/access.js'
import { AUSTRALIAN_TIME_ZONES } from '../../core/zoned-time.js'
import { BillingCycle, PlanSchema } from '../billing/schema.js'
import { AuState, REVIEW_PLATFORMS } from '../shared-schema.js'

export const OnboardInput = Type.Object(
  {
    business_name: Type.String({ minLength: 2, maxLength: 200, description: 'Trading name of the business (at least 2 characters)' }),
    email: Type.String({ format: 'email', maxLength: 254, description: 'Primary contact address; also the owner login' }),
    plan: StringEnum(PLAN_SLUGS, { description: 'Plan slug' }),
    contact_name: Type.Optional(Type.String({ maxLength: 200 })),
    trade_type: Type.Optional(Type.String({ maxLength: 100, description: 'Free text, e.g. plumber, electrician' })),
    phone: Type.Optional(Type.String({ maxLength: 30, description: 'Australian phone number, e.g. 0412 345 678 or +61 2 9876 5432; stored as E.164' })),
    abn: Type.Optional(Type.String({ maxLength: 20, description: 'Australian Business Number (11 digits, checksum verified)' })),
    password: Type.Optional(Type.String({ minLength: 8, maxLength: 200, description: 'Generated when omitted' })),
    referral_code: Type.Optional(Type.String({ maxLength: 100, description: "Another company's referral code (its ecosystem.referral_link); a code that matches no company is ignored, and the code of a company with the same ABN (the same business) is refused" })),
    api_key_name: Type.Optional(Type.String({ maxLength: 100, description: 'Label for the key' })),
    billing_cycle: Type.Optional(BillingCycle),
    stripe_payment_method_id: Type.Optional(Type.String({ pattern: '^pm_[A-Za-z0-9_]+$', description: 'Payment method token for immediate subscription activation' })),
    // Beyond the spec's fields: what later steps need, asked for once here rather than refused later.
    state: Type.Optional(AuState('State or territory the business works in: its public holidays are skipped when scheduling by business day (workflows.schedule_job), and it picks the small-claims forum; settable later with PATCH /api/v1/company')),
    time_zone: Type.Optional(StringEnum(AUSTRALIAN_TIME_ZONES, { description: "The business's time zone (IANA), e.g. Australia/Perth; Australia/Sydney when omitted. Every local date and reminder time is read in it" })),
    review_link: Type.Optional(Type.String({ maxLength: 500, pattern: '^https://\\S+$', description: "https URL of the business's review page, e.g. https://g.page/r/.../review: the default link reviews.request sends" })),
    review_platform: Type.Optional(StringEnum(REVIEW_PLATFORMS, { description: "Which platform review_link is on; optional, the link's site tells (g.page or google.com is google, and so on), and when given it must agree" })),
  },
  { additionalProperties: false },
)

export const OnboardResponse = Type.Object({
  company_id: Type.String(),
  user_id: Type.String(),
  email: Type.String(),
  api_key: Type.String({ description: 'Starts with ask_. Shown once only: store it now.' }),
  api_key_prefix: Type.String(),
  generated_password: Type.Optional(Type.String({ description: 'Present only when no password was given. Shown once only.' })),
  plan: Type.Intersect([
    PlanSchema,
    Type.Object({
      billing_cycle: BillingCycle,
      subscription: Type.Object({
        status: StringEnum(['active', 'trialing'] as const),
        trial_ends_at: Nullable(DateTime()),
        current_period_start: DateTime(),
        current_period_end: DateTime(),
        provider: Type.String(),
      }),
    }),
  ]),
  endpoints: Type.Record(Type.String(), Type.String()),
  wallet: Type.Object({
    balance: Dollars('none', { description: 'Credit the company starts with: MCP tool calls are paid from it (reads 0.01, writes 0.05; discovery, billing and wallet tools free)' }),
    deposit_with: Type.String({ description: 'The tool that adds credit' }),
  }),
  referral: Type.Object({
    code: Type.String({ description: "This company's own referral code, to share with other businesses (ecosystem.referral_link shows it later)" }),
    link: Type.String({ description: 'Page a referred business opens to sign up with the code' }),
    referred_by_code: Nullable(Type.String({ description: 'The referral_code given, when it named another company and the referral was recorded; null otherwise' })),
    note: Type.String({ description: 'What became of referral_code (an unknown code records nothing and does not stop the sign-up), and the reward' }),
  }),
  message: Type.String(),
})
