import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { FEATURES, PLAN_SLUGS } from '../../core/access.js'
import { SUBSCRIPTION_STATES } from '../../providers/payments/provider.js'

export const BillingCycle = StringEnum(['monthly', 'yearly'] as const, { description: 'Billing cycle', default: 'monthly' })

const FeatureFlagsSchema = Type.Object(
  Object.fromEntries(FEATURES.map((f) => [f, Type.Boolean()])) as Record<(typeof FEATURES)[number], ReturnType<typeof Type.Boolean>>,
)

export const PlanSchema = Type.Object({
  slug: StringEnum(PLAN_SLUGS),
  name: Type.String(),
  description: Type.String(),
  currency: Type.Literal('AUD'),
  pricing: Type.Object({ monthly: Dollars('none', { description: 'Price a month' }), yearly: Dollars('none', { description: 'Price a year' }) }, { description: 'Prices in AUD dollars' }),
  limits: Type.Object({
    api_calls_per_month: Type.Integer(),
    sms_per_month: Type.Integer(),
    emails_per_month: Type.Integer(),
    llm_calls_per_month: Type.Integer(),
    users: Type.Integer(),
  }),
  features: FeatureFlagsSchema,
})

export const PlansResponse = Type.Object({ plans: Type.Array(PlanSchema), currency: Type.Literal('AUD') })

export const SubscriptionSchema = Type.Object({
  status: StringEnum([...SUBSCRIPTION_STATES, 'trial_expired'] as const, { description: 'Paid features while active, past_due or trialing; free otherwise' }),
  plan_slug: StringEnum(PLAN_SLUGS),
  cancel_at_period_end: Type.Boolean(),
  scheduled_plan_slug: Nullable(StringEnum(PLAN_SLUGS, { description: 'Downgrade taking effect at current_period_end' })),
  effective_plan_slug: StringEnum(PLAN_SLUGS, { description: 'The plan whose features and limits apply now' }),
  billing_cycle: BillingCycle,
  current_period_start: DateTime(),
  current_period_end: DateTime(),
  provider: Type.String({ description: 'Payments provider handling this subscription (sandbox when no real processor is configured)' }),
  has_payment_method: Type.Boolean(),
})

export const TrialSchema = Type.Object({
  plan_slug: StringEnum(PLAN_SLUGS),
  active: Type.Boolean(),
  ends_at: DateTime(),
  days_remaining: Type.Integer(),
})

const Action = Type.Object({ method: Type.String(), url: Type.String(), description: Type.String(), available: Type.Boolean() })

export const BillingResponse = Type.Object({
  company_id: Type.String(),
  plan: PlanSchema,
  subscription: SubscriptionSchema,
  trial: Nullable(TrialSchema),
  actions: Type.Object({ portal: Action, checkout: Action, plans: Action }),
})

const Metered = Type.Object({ used: Type.Integer(), limit: Type.Integer(), remaining: Type.Integer() })

export const UsageResponse = Type.Object({
  company_id: Type.String(),
  plan: StringEnum(PLAN_SLUGS, { description: 'Effective plan slug' }),
  period: Type.Object({ key: Type.String({ description: 'YYYY-MM' }), start: DateTime(), end: DateTime(), timezone: Type.String() }),
  usage: Type.Object({ api_calls: Metered, sms: Metered, emails: Metered, llm_calls: Metered, users: Metered }),
  resources: Type.Record(Type.String(), Type.Integer(), { description: 'Record counts by resource' }),
})

/** The plans a checkout can buy: every plan but free. */
export const PAID_PLAN_SLUGS = PLAN_SLUGS.filter((slug) => slug !== 'free')

export const CheckoutInput = Type.Object(
  {
    plan_slug: StringEnum(PAID_PLAN_SLUGS, { description: 'Paid plan to subscribe to (see billing.list_plans)' }),
    billing_cycle: Type.Optional(BillingCycle),
  },
  { additionalProperties: false },
)

export const CheckoutResponse = Type.Object({
  checkout_url: Type.String({ description: 'Page where the human operator pays' }),
  session_id: Type.String(),
  plan_slug: StringEnum(PLAN_SLUGS),
  billing_cycle: BillingCycle,
  amount: Dollars('none', { description: 'Amount of the checkout' }),
  currency: Type.Literal('AUD'),
  expires_at: DateTime(),
  provider: Type.String(),
})

export const PortalResponse = Type.Object({
  portal_url: Type.String(),
  session_id: Type.String(),
  expires_at: DateTime(),
  provider: Type.String(),
})
