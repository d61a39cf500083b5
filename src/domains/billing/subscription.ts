// Subscription state: trials, activation from a checkout, cancellation from the portal.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { forgetCompanyKeys } from '../../core/key-cache.js'
import type { PlanSlug } from '../../core/access.js'

export interface SubscriptionRow {
  company_id: string
  plan_slug: PlanSlug
  billing_cycle: 'monthly' | 'yearly'
  status: 'active' | 'trialing' | 'trial_expired' | 'past_due' | 'canceled'
  trial_ends_at: Date | null
  current_period_start: Date
  current_period_end: Date
  provider: string
  provider_customer_id: string | null
  provider_subscription_id: string | null
}

export async function readSubscription(tx: postgres.TransactionSql): Promise<SubscriptionRow> {
  const [row] = await tx<SubscriptionRow[]>`
    select company_id, plan_slug, billing_cycle, status, trial_ends_at, current_period_start,
           current_period_end, provider, provider_customer_id, provider_subscription_id
    from subscriptions`
  if (!row) throw new AppError('internal_error', 'The company has no subscription record.')
  return row
}

/** The plan whose features apply now: a lapsed trial or subscription falls back to free. Mirrors resolve_api_key() and count_api_calls(). */
export function effectivePlanSlug(sub: SubscriptionRow, now: Date): PlanSlug {
  if (sub.status === 'active') return sub.plan_slug
  if (sub.status === 'trialing' && sub.trial_ends_at && sub.trial_ends_at > now) return sub.plan_slug
  return 'free'
}

export function addBillingPeriod(start: Date, cycle: 'monthly' | 'yearly'): Date {
  const end = new Date(start)
  if (cycle === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1)
  else end.setUTCMonth(end.getUTCMonth() + 1)
  return end
}

/** Activity: at the end of a trial, mark it expired unless the company has paid. */
export async function expireTrialIfUnpaid(deps: Deps, companyId: string): Promise<boolean> {
  const expired = await withTenant(deps.db, companyId, async (tx) => {
    const rows = await tx`
      update subscriptions set status = 'trial_expired', updated_at = now()
      where status = 'trialing' and trial_ends_at <= ${deps.clock.now()}
      returning company_id`
    if (rows.length) deps.logger.info({ companyId }, 'trial ended unpaid; company falls back to free features')
    return rows.length > 0
  })
  if (expired) forgetCompanyKeys(deps, companyId)
  return expired
}

/** Sandbox checkout page: the operator paid, so the chosen plan becomes active. */
export async function completeCheckout(deps: Deps, sessionId: string): Promise<{ companyId: string; planSlug: string }> {
  const companyId = await sessionCompany(deps, sessionId)
  const result = await withTenant(deps.db, companyId, async (tx) => {
    const now = deps.clock.now()
    const [session] = await tx<{ plan_slug: PlanSlug; billing_cycle: 'monthly' | 'yearly'; status: string; expires_at: Date }[]>`
      select plan_slug, billing_cycle, status, expires_at from checkout_sessions
      where id = ${sessionId} and kind = 'checkout' for update`
    if (!session) throw new AppError('not_found', 'Checkout session was not found.')
    if (session.status === 'complete') return { companyId, planSlug: session.plan_slug }
    if (session.status !== 'open' || session.expires_at < now) throw new AppError('conflict', 'This checkout session has expired; start a new one.')
    const sub = await readSubscription(tx)
    await tx`
      update subscriptions set
        plan_slug = ${session.plan_slug}, billing_cycle = ${session.billing_cycle}, status = 'active',
        trial_ends_at = null, current_period_start = ${now},
        current_period_end = ${addBillingPeriod(now, session.billing_cycle)},
        provider = ${deps.payments.name},
        provider_customer_id = ${sub.provider_customer_id ?? `cus_${deps.payments.name}_${companyId.slice(0, 8)}`},
        provider_subscription_id = ${`sub_${deps.payments.name}_${sessionId.slice(-12)}`},
        updated_at = now()`
    await tx`update checkout_sessions set status = 'complete', completed_at = ${now} where id = ${sessionId}`
    deps.logger.info({ companyId, plan: session.plan_slug }, 'checkout completed')
    return { companyId, planSlug: session.plan_slug }
  })
  // The new plan applies on this instance from the next call (elsewhere within a second).
  forgetCompanyKeys(deps, result.companyId)
  return result
}

/** Sandbox portal page: cancel at once; the company keeps free features. */
export async function cancelSubscription(deps: Deps, portalSessionId: string): Promise<void> {
  const companyId = await sessionCompany(deps, portalSessionId)
  await withTenant(deps.db, companyId, async (tx) => {
    await tx`update subscriptions set status = 'canceled', updated_at = now() where status in ('active', 'past_due', 'trialing')`
  })
  forgetCompanyKeys(deps, companyId)
}

export async function sessionCompany(deps: Deps, sessionId: string): Promise<string> {
  const [row] = await deps.db.app<{ company_id: string | null }[]>`select checkout_session_company(${sessionId}) as company_id`
  if (!row?.company_id) throw new AppError('not_found', 'Session was not found.')
  return row.company_id
}
