// Stripe's plan-subscription events and subscriptions, read into the provider's own shapes. Kept
// apart from stripe.ts (invoice payments and Connect) so each kind of event has its own parser.
// Field locations differ across API versions (periods moved from the subscription to its items,
// an invoice's subscription moved under parent.subscription_details), so both places are read.
import type Stripe from 'stripe'
import type { ProcessorSubscription, SubscriptionEvent } from './provider.js'

/** The events that move a plan subscription; anything else is not ours to read here. */
export const SUBSCRIPTION_EVENT_TYPES = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
])

/** Our products are tradie_plan_<slug> (StripePayments.planProduct). */
const PLAN_PRODUCT_PREFIX = 'tradie_plan_'

const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : value?.id ?? null)

/**
 * A subscription event, or null when the event is not one (or is not about a plan subscription:
 * a Checkout Session in payment mode is an invoice payment, stripe.ts reads it).
 */
export function toSubscriptionEvent(event: Stripe.Event): SubscriptionEvent | null {
  if (!SUBSCRIPTION_EVENT_TYPES.has(event.type)) return null
  const base = { kind: 'subscription' as const, eventId: event.id, type: event.type, occurredAt: new Date(event.created * 1000), paidInvoice: null }
  const object = event.data.object as unknown as Record<string, any>
  if (event.type === 'checkout.session.completed') {
    if (object.mode !== 'subscription') return null
    const subscriptionId = idOf(object.subscription)
    if (!subscriptionId) return null
    return { ...base, subscriptionId, companyId: object.metadata?.company_id ?? object.client_reference_id ?? null, checkoutSessionId: object.id }
  }
  if (event.type.startsWith('customer.subscription.')) {
    return { ...base, subscriptionId: object.id, companyId: object.metadata?.company_id ?? null }
  }
  // invoice.paid / invoice.payment_failed: only invoices of a subscription.
  const details = object.parent?.subscription_details ?? object.subscription_details ?? null
  const subscriptionId = idOf(object.subscription) ?? idOf(details?.subscription)
  if (!subscriptionId) return null
  const paidInvoice = event.type === 'invoice.paid' ? { invoiceId: String(object.id), amountPaidCents: Number(object.amount_paid ?? 0) } : null
  return { ...base, subscriptionId, companyId: details?.metadata?.company_id ?? null, paidInvoice }
}

export function toProcessorSubscription(sub: Stripe.Subscription): ProcessorSubscription {
  const raw = sub as unknown as Record<string, any>
  const item = raw.items?.data?.[0] as Record<string, any> | undefined
  const price = item?.price as Record<string, any> | undefined
  const product = idOf(price?.product)
  const fromProduct = product?.startsWith(PLAN_PRODUCT_PREFIX) ? product.slice(PLAN_PRODUCT_PREFIX.length) : null
  const seconds = (value: unknown) => new Date(Number(value) * 1000)
  const start = item?.current_period_start ?? raw.current_period_start ?? raw.start_date
  const end = item?.current_period_end ?? raw.current_period_end ?? start
  return {
    id: sub.id,
    customerId: idOf(raw.customer) ?? '',
    status: sub.status,
    planSlug: fromProduct ?? sub.metadata?.plan_slug ?? null,
    // The price says the cycle; the metadata (written at checkout) only when there is no price.
    billingCycle: (price ? price.recurring?.interval === 'year' : sub.metadata?.billing_cycle === 'yearly') ? 'yearly' : 'monthly',
    currentPeriodStart: seconds(start),
    currentPeriodEnd: seconds(end),
    cancelAtPeriodEnd: !!raw.cancel_at_period_end,
    trialEnd: raw.trial_end ? seconds(raw.trial_end) : null,
    companyId: sub.metadata?.company_id ?? null,
  }
}
