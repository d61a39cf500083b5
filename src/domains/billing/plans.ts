// Plans are global reference data (seeded by migration 001): their prices and how they are shown.
import type { PlanRow } from './queries.js'
import { centsToDollars, CURRENCY } from '../../core/money.js'

// The plan lookups live with the billing SQL; onboarding and the sandbox payment pages read them here.
export { activePlans, findPlan, planBySlug, type PlanRow } from './queries.js'

export function priceCents(plan: PlanRow, cycle: 'monthly' | 'yearly'): number {
  return cycle === 'yearly' ? plan.price_yearly_cents : plan.price_monthly_cents
}

export function presentPlan(plan: PlanRow) {
  return {
    slug: plan.slug,
    name: plan.name,
    description: plan.description,
    currency: CURRENCY,
    pricing: {
      monthly: centsToDollars(plan.price_monthly_cents),
      yearly: centsToDollars(plan.price_yearly_cents),
    },
    limits: {
      api_calls_per_month: plan.api_calls_per_month,
      sms_per_month: plan.sms_per_month,
      emails_per_month: plan.emails_per_month,
      llm_calls_per_month: plan.llm_calls_per_month,
      users: plan.max_users,
    },
    features: plan.features,
  }
}
