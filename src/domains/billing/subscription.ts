// Subscription state: trials, activation from a checkout, cancellation from the portal.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { forgetCompanyKeys } from '../../core/key-cache.js'
import type { PlanSlug } from '../../core/access.js'
import { onFirstPaidPeriod } from './first-paid.js'
import {
  activateSubscription, cancelActiveSubscription, expireEndedTrial, findSessionCompany, findSubscriptionRow, lockCheckoutSession, markCheckoutComplete,
  type SubscriptionRow,
} from './queries.js'

export async function readSubscription(tx: postgres.TransactionSql): Promise<SubscriptionRow> {
  const row = await findSubscriptionRow(tx)
  if (!row) throw new AppError('internal_error', 'The company has no subscription record.')
  return row
}

/** States that keep the paid plan's features (past_due: while the processor retries the card; docs/decisions.md). */
export const PAID_STATES: readonly string[] = ['active', 'past_due']

/**
 * The plan whose features apply now: a lapsed trial or a canceled, unpaid or incomplete subscription
 * falls back to free; a scheduled downgrade counts from the period's end. Mirrors effective_plan()
 * (migration 029), which resolve_api_key(), count_api_calls() and reserve_usage() use.
 */
export function effectivePlanSlug(sub: SubscriptionRow, now: Date): PlanSlug {
  const paid = PAID_STATES.includes(sub.status) || (sub.status === 'trialing' && !!sub.trial_ends_at && sub.trial_ends_at > now)
  if (!paid) return 'free'
  return sub.scheduled_plan_slug && sub.current_period_end <= now ? sub.scheduled_plan_slug : sub.plan_slug
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
    const ended = await expireEndedTrial(tx, deps.clock.now())
    if (ended) deps.logger.info({ companyId }, 'trial ended unpaid; company falls back to free features')
    return ended
  })
  if (expired) forgetCompanyKeys(deps, companyId)
  return expired
}

/** Sandbox checkout page: the operator paid, so the chosen plan becomes active. */
export async function completeCheckout(deps: Deps, sessionId: string): Promise<{ companyId: string; planSlug: string }> {
  const companyId = await sessionCompany(deps, sessionId)
  const result = await withTenant(deps.db, companyId, async (tx) => {
    const now = deps.clock.now()
    const session = await lockCheckoutSession(tx, sessionId)
    if (!session) throw new AppError('not_found', 'Checkout session was not found.')
    if (session.status === 'complete') return { companyId, planSlug: session.plan_slug }
    if (session.status !== 'open' || session.expires_at < now) throw new AppError('conflict', 'This checkout session has expired; start a new one.')
    const sub = await readSubscription(tx)
    await activateSubscription(tx, {
      planSlug: session.plan_slug, billingCycle: session.billing_cycle, periodStart: now,
      periodEnd: addBillingPeriod(now, session.billing_cycle),
      provider: deps.payments.name,
      providerCustomerId: sub.provider_customer_id ?? `cus_${deps.payments.name}_${companyId.slice(0, 8)}`,
      providerSubscriptionId: `sub_${deps.payments.name}_${sessionId.slice(-12)}`,
    })
    await markCheckoutComplete(tx, sessionId, now)
    // The sandbox page is the payment: the first period is settled now (a referral's reward, once).
    await onFirstPaidPeriod(tx, companyId, `checkout:${sessionId}`, now)
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
  await withTenant(deps.db, companyId, cancelActiveSubscription)
  forgetCompanyKeys(deps, companyId)
}

export async function sessionCompany(deps: Deps, sessionId: string): Promise<string> {
  const companyId = await findSessionCompany(deps.db.app, sessionId)
  if (!companyId) throw new AppError('not_found', 'Session was not found.')
  return companyId
}
