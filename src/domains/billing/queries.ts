// Billing SQL: plans (global reference data, read through the app role or a tenant transaction),
// subscriptions, checkout and portal sessions, and the monthly usage counters. Tenant functions take
// the transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { Sql, Tx } from '../../db/sql.js'
import type { FeatureFlags, PlanSlug } from '../../core/access.js'
import type { SubscriptionState } from '../../providers/payments/provider.js'

export interface PlanRow {
  slug: PlanSlug
  name: string
  description: string
  price_monthly_cents: number
  price_yearly_cents: number
  api_calls_per_month: number
  sms_per_month: number
  emails_per_month: number
  llm_calls_per_month: number
  max_users: number
  features: FeatureFlags
}

const columns = (sql: Sql) => sql`
  slug, name, description, price_monthly_cents, price_yearly_cents, api_calls_per_month,
  sms_per_month, emails_per_month, llm_calls_per_month, max_users, features`

export async function activePlans(sql: Tx): Promise<PlanRow[]> {
  return sql<PlanRow[]>`select ${columns(sql as Sql)} from plans where active order by sort_order`
}

export async function findPlan(sql: Sql, slug: string): Promise<PlanRow | null> {
  const [row] = await sql<PlanRow[]>`select ${columns(sql)} from plans where slug = ${slug} and active`
  return row ?? null
}

/** A plan by slug, retired ones included: a company may still be on one. */
export async function planBySlug(sql: Tx, slug: string): Promise<PlanRow | null> {
  const [row] = await sql<PlanRow[]>`select ${columns(sql as Sql)} from plans where slug = ${slug}`
  return row ?? null
}

// Usage counters (message-quota.ts, service.ts).

export interface UsageReservation { allowed: boolean; used: number; usage_limit: number; effective_plan_slug: string }

/** Counts `count` against the period's limit, atomically, unless it would pass the limit (reserve_usage, migration 007). */
export async function reserveUsage(tx: postgres.TransactionSql, r: { companyId: string; periodKey: string; metric: string; count: number; now: Date }): Promise<UsageReservation> {
  const [row] = await tx<UsageReservation[]>`
    select * from reserve_usage(${r.companyId}, ${r.periodKey}, ${r.metric}, ${r.count}, ${r.now})`
  return row!
}

export async function releaseUsage(tx: postgres.TransactionSql, r: { periodKey: string; metric: string; count: number }): Promise<void> {
  await tx`
    update usage_counters set count = greatest(count - ${r.count}, 0)
    where period = ${r.periodKey} and metric = ${r.metric}`
}

export async function listUsageCounters(tx: postgres.TransactionSql, periodKey: string) {
  return tx<{ metric: string; count: number }[]>`select metric, count from usage_counters where period = ${periodKey}`
}

export async function findApiCallLimitOverride(tx: postgres.TransactionSql) {
  return tx<{ api_call_limit_override: number | null }[]>`select api_call_limit_override from companies`
}

// Subscriptions and sessions (subscription.ts, service.ts).

export interface SubscriptionRow {
  company_id: string
  plan_slug: PlanSlug
  billing_cycle: 'monthly' | 'yearly'
  status: SubscriptionStatus
  trial_ends_at: Date | null
  current_period_start: Date
  current_period_end: Date
  provider: string
  provider_customer_id: string | null
  provider_subscription_id: string | null
  cancel_at_period_end: boolean
  /** A downgrade waiting for current_period_end. */
  scheduled_plan_slug: PlanSlug | null
  first_paid_at: Date | null
}

/** The processor's states (provider.ts SUBSCRIPTION_STATES) and trial_expired, our own trial's end (migration 029). */
export type SubscriptionStatus = SubscriptionState | 'trial_expired'

export async function findSubscriptionRow(tx: postgres.TransactionSql): Promise<SubscriptionRow | undefined> {
  const [row] = await tx<SubscriptionRow[]>`
    select company_id, plan_slug, billing_cycle, status, trial_ends_at, current_period_start,
           current_period_end, provider, provider_customer_id, provider_subscription_id,
           cancel_at_period_end, scheduled_plan_slug, first_paid_at
    from subscriptions`
  return row
}

/** The row locked for a processor event: concurrent events about one company apply one after another. */
export async function lockSubscriptionRow(tx: postgres.TransactionSql): Promise<SubscriptionRow | undefined> {
  const [row] = await tx<SubscriptionRow[]>`
    select company_id, plan_slug, billing_cycle, status, trial_ends_at, current_period_start,
           current_period_end, provider, provider_customer_id, provider_subscription_id,
           cancel_at_period_end, scheduled_plan_slug, first_paid_at
    from subscriptions for no key update`
  return row
}

export interface ProcessorState {
  status: SubscriptionStatus
  planSlug: string
  scheduledPlanSlug: string | null
  billingCycle: 'monthly' | 'yearly'
  periodStart: Date
  periodEnd: Date
  cancelAtPeriodEnd: boolean
  trialEndsAt: Date | null
  provider: string
  providerCustomerId: string
  providerSubscriptionId: string
}

/** Writes the subscription as the processor holds it (processor-subscription.ts decided the plan). */
export async function writeProcessorState(tx: postgres.TransactionSql, s: ProcessorState): Promise<void> {
  await tx`
    update subscriptions set
      status = ${s.status}, plan_slug = ${s.planSlug}, scheduled_plan_slug = ${s.scheduledPlanSlug},
      billing_cycle = ${s.billingCycle}, current_period_start = ${s.periodStart}, current_period_end = ${s.periodEnd},
      cancel_at_period_end = ${s.cancelAtPeriodEnd}, trial_ends_at = ${s.trialEndsAt},
      provider = ${s.provider}, provider_customer_id = ${s.providerCustomerId},
      provider_subscription_id = ${s.providerSubscriptionId}, updated_at = now()`
}

export async function markFirstPaid(tx: postgres.TransactionSql, at: Date): Promise<boolean> {
  const rows = await tx`update subscriptions set first_paid_at = ${at} where first_paid_at is null returning company_id`
  return rows.length > 0
}

/** Whose subscription this is, when its metadata does not say (SECURITY DEFINER, migration 029). */
export async function findSubscriptionCompany(sql: Sql, provider: string, subscriptionId: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select subscription_company(${provider}, ${subscriptionId}) as company_id`
  return row?.company_id ?? null
}

export async function completeCheckoutSession(tx: postgres.TransactionSql, sessionId: string, now: Date): Promise<void> {
  await tx`update checkout_sessions set status = 'complete', completed_at = ${now} where id = ${sessionId} and kind = 'checkout' and status = 'open'`
}

/** Whether a trial that ended by `now` was marked expired by this call. */
export async function expireEndedTrial(tx: postgres.TransactionSql, now: Date): Promise<boolean> {
  const rows = await tx`
      update subscriptions set status = 'trial_expired', updated_at = now()
      where status = 'trialing' and trial_ends_at <= ${now}
      returning company_id`
  return rows.length > 0
}

export interface ActivePlan {
  planSlug: PlanSlug
  billingCycle: 'monthly' | 'yearly'
  periodStart: Date
  periodEnd: Date
  provider: string
  providerCustomerId: string
  providerSubscriptionId: string
}

/** A paid plan takes over from now (the trial, if any, ends). */
export async function activateSubscription(tx: postgres.TransactionSql, a: ActivePlan): Promise<void> {
  await tx`
      update subscriptions set
        plan_slug = ${a.planSlug}, billing_cycle = ${a.billingCycle}, status = 'active',
        trial_ends_at = null, current_period_start = ${a.periodStart},
        current_period_end = ${a.periodEnd},
        provider = ${a.provider},
        provider_customer_id = ${a.providerCustomerId},
        provider_subscription_id = ${a.providerSubscriptionId},
        updated_at = now()`
}

export async function cancelActiveSubscription(tx: postgres.TransactionSql): Promise<void> {
  await tx`update subscriptions set status = 'canceled', updated_at = now() where status in ('active', 'past_due', 'trialing')`
}

export interface CheckoutSessionRow { plan_slug: PlanSlug; billing_cycle: 'monthly' | 'yearly'; status: string; expires_at: Date }

export async function lockCheckoutSession(tx: postgres.TransactionSql, sessionId: string): Promise<CheckoutSessionRow | undefined> {
  const [session] = await tx<CheckoutSessionRow[]>`
      select plan_slug, billing_cycle, status, expires_at from checkout_sessions
      where id = ${sessionId} and kind = 'checkout' for no key update`
  return session
}

export async function markCheckoutComplete(tx: postgres.TransactionSql, sessionId: string, now: Date): Promise<void> {
  await tx`update checkout_sessions set status = 'complete', completed_at = ${now} where id = ${sessionId}`
}

/** The company a checkout or portal session belongs to (SECURITY DEFINER: the sandbox page knows only the session). */
export async function findSessionCompany(sql: Sql, sessionId: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select checkout_session_company(${sessionId}) as company_id`
  return row?.company_id ?? null
}

export async function findContactEmail(tx: postgres.TransactionSql): Promise<string> {
  const [company] = await tx<{ contact_email: string }[]>`select contact_email from companies`
  return company!.contact_email
}

export interface NewSession { id: string; url: string; expiresAt: Date; provider: string }

export async function insertCheckoutSession(tx: postgres.TransactionSql, companyId: string, session: NewSession, plan: { slug: string; cycle: 'monthly' | 'yearly' }): Promise<void> {
  await tx`
    insert into checkout_sessions (id, company_id, kind, plan_slug, billing_cycle, status, provider, url, expires_at)
    values (${session.id}, ${companyId}, 'checkout', ${plan.slug}, ${plan.cycle}, 'open', ${session.provider}, ${session.url}, ${session.expiresAt})`
}

export async function insertPortalSession(tx: postgres.TransactionSql, companyId: string, session: NewSession): Promise<void> {
  await tx`
    insert into checkout_sessions (id, company_id, kind, status, provider, url, expires_at)
    values (${session.id}, ${companyId}, 'portal', 'open', ${session.provider}, ${session.url}, ${session.expiresAt})`
}
