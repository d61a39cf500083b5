// The sandbox's stand-in for a processor moving a subscription: the sandbox portal page sets the
// subscription's new state on the sandbox provider and delivers an event about it, which is applied
// exactly as a Stripe event is (processor-subscription.ts: dedup by event id, re-read, write). So the
// whole lifecycle (a failed renewal, unpaid, a portal cancellation, a plan change, a renewal) can be
// exercised locally, and by tests, with no processor.
import { randomBytes } from 'node:crypto'
import type { Deps } from '../../core/deps.js'
import { AppError, validationError } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { SUBSCRIPTION_STATES, type SubscriptionEvent } from '../../providers/payments/provider.js'
import type { SandboxPayments } from '../../providers/payments/sandbox.js'
import { applySubscriptionEvent, type SubscriptionOutcome } from './processor-subscription.js'
import { addBillingPeriod, readSubscription, sessionCompany } from './subscription.js'
import { planBySlug } from './queries.js'
import { priceCents } from './plans.js'

export const SANDBOX_EVENTS = ['customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid', 'invoice.payment_failed'] as const

export interface SandboxChange {
  status?: string
  plan_slug?: string
  /** Which processor event announces the change. */
  event?: string
  /** 'true': the subscription renews into its next period. */
  renew?: string
}

export async function simulateSubscriptionChange(deps: Deps, portalSessionId: string, change: SandboxChange): Promise<SubscriptionOutcome & { subscription_id: string }> {
  if (deps.payments.name !== 'sandbox') throw new AppError('not_found', 'Subscription state changes are a sandbox feature; the processor moves real subscriptions.')
  const sandbox = deps.payments as SandboxPayments
  // An empty form field means "unchanged".
  change = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== '')) as SandboxChange
  const problems: string[] = []
  if (change.status !== undefined && !(SUBSCRIPTION_STATES as readonly string[]).includes(change.status)) problems.push(`status: one of ${SUBSCRIPTION_STATES.join(', ')}`)
  const type = change.event ?? 'customer.subscription.updated'
  if (!(SANDBOX_EVENTS as readonly string[]).includes(type)) problems.push(`event: one of ${SANDBOX_EVENTS.join(', ')}`)
  if (change.plan_slug !== undefined && !(await planBySlug(deps.db.app, change.plan_slug))) problems.push('plan_slug: a plan slug from billing.list_plans')
  if (problems.length) throw validationError(problems, 'The sandbox subscription change was not applied.')

  const companyId = await sessionCompany(deps, portalSessionId)
  const sub = await withTenant(deps.db, companyId, (tx) => readSubscription(tx))
  if (!sub.provider_subscription_id || !sub.provider_customer_id) throw new AppError('conflict', 'The company has no paid subscription yet. Start one with billing.create_checkout.')
  const known = await sandbox.retrieveSubscription(sub.provider_subscription_id)
  // The first change starts from the subscription as stored (the sandbox checkout wrote it).
  const base = known ?? {
    id: sub.provider_subscription_id, customerId: sub.provider_customer_id, status: sub.status === 'trial_expired' ? 'canceled' : sub.status,
    planSlug: sub.plan_slug, billingCycle: sub.billing_cycle, currentPeriodStart: sub.current_period_start, currentPeriodEnd: sub.current_period_end,
    cancelAtPeriodEnd: sub.cancel_at_period_end, trialEnd: sub.trial_ends_at, companyId,
  }
  const renew = change.renew === 'true'
  const next = {
    ...base,
    status: change.status ?? (type === 'customer.subscription.deleted' ? 'canceled' : base.status),
    planSlug: change.plan_slug ?? base.planSlug,
    currentPeriodStart: renew ? base.currentPeriodEnd : base.currentPeriodStart,
    currentPeriodEnd: renew ? addBillingPeriod(base.currentPeriodEnd, base.billingCycle) : base.currentPeriodEnd,
  }
  sandbox.setSubscription(next)
  const plan = await planBySlug(deps.db.app, next.planSlug ?? 'free')
  const eventId = `evt_sandbox_${randomBytes(12).toString('base64url')}`
  const event: SubscriptionEvent = {
    kind: 'subscription', eventId, type, subscriptionId: next.id, companyId, occurredAt: deps.clock.now(),
    paidInvoice: type === 'invoice.paid' ? { invoiceId: `in_sandbox_${eventId.slice(-12)}`, amountPaidCents: plan ? priceCents(plan, next.billingCycle) : 0 } : null,
  }
  return { ...(await applySubscriptionEvent(deps, event)), subscription_id: next.id }
}
