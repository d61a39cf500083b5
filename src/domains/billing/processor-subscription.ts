// Plan subscriptions follow the payment processor. A verified event only says which subscription
// changed; the subscription is re-read from the processor and written as it stands, so events
// delivered late, twice or out of order all leave the current state. Each event is recorded in
// processor_events in the same transaction as its effect: a replay changes nothing.
import type { Deps } from '../../core/deps.js'
import { forgetCompanyKeys } from '../../core/key-cache.js'
import { isUuid } from '../../core/uuid.js'
import { withTenant } from '../../db/sql.js'
import { SUBSCRIPTION_STATES, type ProcessorSubscription, type SubscriptionEvent, type SubscriptionState } from '../../providers/payments/provider.js'
import { findLiveCompany, insertProcessorEvent } from '../payments/queries.js'
import { onFirstPaidPeriod } from './first-paid.js'
import { PAID_STATES } from './subscription.js'
import {
  completeCheckoutSession, findSubscriptionCompany, lockSubscriptionRow, markFirstPaid, planBySlug, writeProcessorState,
  type PlanRow, type SubscriptionRow,
} from './queries.js'

export interface SubscriptionOutcome { status: 'recorded' | 'duplicate' | 'ignored'; event_id: string; detail?: string }

/** Applies the subscription as the processor holds it now. Throws on a processor or database failure (the processor retries). */
export async function applySubscriptionEvent(deps: Deps, event: SubscriptionEvent): Promise<SubscriptionOutcome> {
  const provider = deps.payments.name
  const ignored = (detail: string): SubscriptionOutcome => ({ status: 'ignored', event_id: event.eventId, detail })
  // Read outside any transaction: no lock is held while the processor answers.
  const current = await deps.payments.retrieveSubscription(event.subscriptionId)
  if (!current) return ignored('unknown subscription')
  if (!(SUBSCRIPTION_STATES as readonly string[]).includes(current.status)) return ignored(`unknown subscription state ${current.status}`)
  const companyId = current.companyId ?? event.companyId ?? (await findSubscriptionCompany(deps.db.app, provider, current.id))
  if (!companyId || !isUuid(companyId)) return ignored('subscription is not ours')
  const plan = current.planSlug ? await planBySlug(deps.db.app, current.planSlug) : null
  if (!plan || plan.slug === 'free') return ignored('not one of our paid plans')

  const outcome = await withTenant(deps.db, companyId, async (tx): Promise<SubscriptionOutcome> => {
    if (!(await findLiveCompany(tx))) return ignored('unknown company')
    if (!(await insertProcessorEvent(tx, provider, event.eventId, companyId, event.type))) return { status: 'duplicate', event_id: event.eventId }
    const stored = (await lockSubscriptionRow(tx))!
    // An old subscription ending (the company has since bought a new one) does not take the new one's plan away.
    if (stored.provider_subscription_id && stored.provider_subscription_id !== current.id
        && PAID_STATES.includes(stored.status) && !PAID_STATES.includes(current.status) && current.status !== 'trialing') {
      return ignored('an earlier subscription of this company')
    }
    const planned = await planFor(tx, stored, current, plan)
    await writeProcessorState(tx, {
      status: current.status as SubscriptionState, ...planned, billingCycle: current.billingCycle,
      periodStart: current.currentPeriodStart, periodEnd: current.currentPeriodEnd, cancelAtPeriodEnd: current.cancelAtPeriodEnd,
      trialEndsAt: current.status === 'trialing' ? current.trialEnd : null,
      provider, providerCustomerId: current.customerId, providerSubscriptionId: current.id,
    })
    if (event.checkoutSessionId) await completeCheckoutSession(tx, event.checkoutSessionId, deps.clock.now())
    // The first settled invoice with money in it: the company's first paid period.
    if (event.paidInvoice && event.paidInvoice.amountPaidCents > 0 && (await markFirstPaid(tx, event.occurredAt))) {
      await onFirstPaidPeriod(tx, companyId, `${provider}:${event.paidInvoice.invoiceId}`)
    }
    deps.logger.info({ companyId, event: event.type, status: current.status, plan: planned.planSlug, scheduled: planned.scheduledPlanSlug }, 'subscription follows the processor')
    return { status: 'recorded', event_id: event.eventId }
  })
  // The new plan's features and limits apply from the next call on this instance (elsewhere within a second).
  if (outcome.status === 'recorded') forgetCompanyKeys(deps, companyId)
  return outcome
}

/**
 * A move to a cheaper plan within the same paid period keeps the plan paid for until the period
 * ends (then effective_plan() switches to the scheduled one); an upgrade or a new period applies at once.
 */
async function planFor(tx: Parameters<typeof planBySlug>[0], stored: SubscriptionRow, current: ProcessorSubscription, plan: PlanRow) {
  const samePeriod = stored.provider_subscription_id === current.id && stored.current_period_end.getTime() === current.currentPeriodEnd.getTime()
  if (samePeriod && PAID_STATES.includes(stored.status) && stored.plan_slug !== plan.slug) {
    const paidFor = await planBySlug(tx, stored.plan_slug)
    if (paidFor && plan.price_monthly_cents < paidFor.price_monthly_cents) return { planSlug: stored.plan_slug, scheduledPlanSlug: plan.slug }
  }
  // Same period, same plan as already scheduled: keep waiting for the period's end.
  if (samePeriod && stored.scheduled_plan_slug === plan.slug) return { planSlug: stored.plan_slug, scheduledPlanSlug: plan.slug }
  return { planSlug: plan.slug, scheduledPlanSlug: null }
}
