// Billing and usage reads, and the checkout and portal sessions (through the payments provider).
import type { Deps } from '../../core/deps.js'
import type { Principal, PlanSlug } from '../../core/access.js'
import { AppError } from '../../core/errors.js'
import { centsToDollars } from '../../core/money.js'
import { usagePeriod } from '../../core/period.js'
import { withTenant } from '../../db/sql.js'
import { activePlans, findPlan, planBySlug, presentPlan, priceCents } from './plans.js'
import { effectivePlanSlug, readSubscription } from './subscription.js'
import { findApiCallLimitOverride, findContactEmail, insertCheckoutSession, insertPortalSession, listUsageCounters } from './queries.js'

const DAY_MS = 86_400_000

export async function getBilling(deps: Deps, principal: Principal) {
  const now = deps.clock.now()
  const sub = await withTenant(deps.db, principal.companyId, (tx) => readSubscription(tx))
  const plan = await findPlan(deps.db.app, sub.plan_slug)
  if (!plan) throw new AppError('internal_error', 'Subscription names an unknown plan.')
  const onTrial = sub.status === 'trialing' || sub.status === 'trial_expired'
  const api = deps.urls.apiBase
  return {
    company_id: principal.companyId,
    plan: presentPlan(plan),
    subscription: {
      status: sub.status,
      plan_slug: sub.plan_slug,
      cancel_at_period_end: sub.cancel_at_period_end,
      scheduled_plan_slug: sub.scheduled_plan_slug,
      effective_plan_slug: effectivePlanSlug(sub, now),
      billing_cycle: sub.billing_cycle,
      current_period_start: sub.current_period_start.toISOString(),
      current_period_end: sub.current_period_end.toISOString(),
      provider: sub.provider,
      has_payment_method: sub.provider_customer_id !== null,
    },
    trial: onTrial && sub.trial_ends_at
      ? {
          plan_slug: sub.plan_slug,
          active: sub.status === 'trialing' && sub.trial_ends_at > now,
          ends_at: sub.trial_ends_at.toISOString(),
          days_remaining: Math.max(0, Math.ceil((sub.trial_ends_at.getTime() - now.getTime()) / DAY_MS)),
        }
      : null,
    actions: {
      portal: {
        method: 'POST', url: `${api}/billing/portal`, available: sub.provider_customer_id !== null,
        description: 'Open the payment portal: manage the subscription, payment methods and invoices.',
      },
      checkout: {
        method: 'POST', url: `${api}/billing/checkout`, available: true,
        description: 'Start a checkout for a plan ({"plan_slug": "...", "billing_cycle": "monthly"}); a person pays at the returned URL.',
      },
      plans: { method: 'GET', url: `${api}/plans`, available: true, description: 'List plans with prices, limits and features.' },
    },
  }
}

export async function getUsage(deps: Deps, principal: Principal) {
  const now = deps.clock.now()
  const period = usagePeriod(now)
  // Read here rather than taken from the principal, which may be up to a second old: the limits
  // shown are the ones the next counted call is held to.
  const { counters, resources, plan, apiCallLimit } = await withTenant(deps.db, principal.companyId, async (tx) => {
    // Issued together: postgres.js pipelines them on the transaction's connection.
    const [rows, resources, sub, [company]] = await Promise.all([
      listUsageCounters(tx, period.key),
      deps.countResources(tx),
      readSubscription(tx),
      findApiCallLimitOverride(tx),
    ])
    const plan = await planBySlug(tx, effectivePlanSlug(sub, now))
    if (!plan) throw new AppError('internal_error', 'Subscription names an unknown plan.')
    return {
      counters: new Map(rows.map((r) => [r.metric, r.count])),
      resources,
      plan,
      apiCallLimit: company?.api_call_limit_override ?? plan.api_calls_per_month,
    }
  })
  const metered = (used: number, limit: number) => ({ used, limit, remaining: Math.max(0, limit - used) })
  return {
    company_id: principal.companyId,
    plan: plan.slug,
    period: { key: period.key, start: period.start.toISOString(), end: period.end.toISOString(), timezone: period.timezone },
    usage: {
      // Every call counted so far this period (GET /usage itself is not counted: it is a way out of a used-up quota).
      api_calls: metered(counters.get('api_calls') ?? 0, apiCallLimit),
      sms: metered(counters.get('sms') ?? 0, plan.sms_per_month),
      emails: metered(counters.get('emails') ?? 0, plan.emails_per_month),
      llm_calls: metered(counters.get('llm_calls') ?? 0, plan.llm_calls_per_month),
      users: metered(resources.users ?? 0, plan.max_users),
    },
    resources,
  }
}

export async function availablePlanSlugs(deps: Deps): Promise<string[]> {
  return (await activePlans(deps.db.app)).map((p) => p.slug)
}

/**
 * An unknown plan slug gets the spec's invalid_plan with every active plan, before general
 * validation (onboarding's plan, checkout's plan_slug); the message offers those `offered` allows.
 */
export async function assertActivePlan(deps: Deps, slug: unknown, offered: (slug: string) => boolean = () => true): Promise<void> {
  if (typeof slug !== 'string') return
  const plans = await availablePlanSlugs(deps)
  if (!plans.includes(slug)) {
    throw new AppError('invalid_plan', `Unknown plan '${slug}'. Choose one of: ${plans.filter(offered).join(', ')}.`, { available_plans: plans })
  }
}

export async function createCheckout(deps: Deps, principal: Principal, input: { plan_slug: string; billing_cycle?: 'monthly' | 'yearly' }) {
  const plan = await findPlan(deps.db.app, input.plan_slug)
  // The operation's precheck and enum refused unknown and free plans; this covers a plan retired meanwhile.
  if (!plan) {
    throw new AppError('invalid_plan', `Unknown plan '${input.plan_slug}'.`, { available_plans: await availablePlanSlugs(deps) })
  }
  const cycle = input.billing_cycle ?? 'monthly'
  const amountCents = priceCents(plan, cycle)
  // The provider is called outside any transaction; only the session it returns is written.
  const contactEmail = await withTenant(deps.db, principal.companyId, findContactEmail)
  const session = await deps.payments.createCheckoutSession({
    companyId: principal.companyId, planSlug: plan.slug, planName: plan.name, billingCycle: cycle, amountCents,
    customerEmail: contactEmail,
  })
  await withTenant(deps.db, principal.companyId, (tx) => insertCheckoutSession(tx, principal.companyId, { ...session, provider: deps.payments.name }, { slug: plan.slug, cycle }))
  return {
    checkout_url: session.url,
    session_id: session.id,
    plan_slug: plan.slug as PlanSlug,
    billing_cycle: cycle,
    amount: centsToDollars(amountCents),
    currency: 'AUD' as const,
    expires_at: session.expiresAt.toISOString(),
    provider: deps.payments.name,
  }
}

export async function createPortal(deps: Deps, principal: Principal) {
  const sub = await withTenant(deps.db, principal.companyId, (tx) => readSubscription(tx))
  if (!sub.provider_customer_id) {
    // The way forward is the checkout: named as the tool (or, over REST, its route) with what it needs.
    throw new AppError('conflict', 'There is no paid subscription to manage yet. Start one with billing.create_checkout ({"plan_slug": "starter", "billing_cycle": "monthly"}); the owner pays at its checkout_url.', { next_step: 'billing.create_checkout' })
  }
  const session = await deps.payments.createPortalSession({ companyId: principal.companyId, customerId: sub.provider_customer_id })
  await withTenant(deps.db, principal.companyId, (tx) => insertPortalSession(tx, principal.companyId, { ...session, provider: deps.payments.name }))
  return { portal_url: session.url, session_id: session.id, expires_at: session.expiresAt.toISOString(), provider: deps.payments.name }
}
