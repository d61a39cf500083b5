// Stripe for wallet deposits: a one-off Checkout Session in payment mode on the platform's own
// account (credit is bought from this service, not from the trade business), marked with
// wallet_deposit_id in its metadata, and the completed session read back into a 'wallet_deposit'
// event. Kept apart from stripe.ts, which only calls these two functions.
import type Stripe from 'stripe'
import type { ProcessorEvent, WalletDepositRequest } from './provider.js'

export function walletDepositSession(request: WalletDepositRequest): Stripe.Checkout.SessionCreateParams {
  // Strings only (Stripe metadata); the webhook reads these back to credit the deposit.
  const metadata = { company_id: request.companyId, wallet_deposit_id: request.depositId }
  return {
    mode: 'payment',
    submit_type: 'pay',
    client_reference_id: request.companyId,
    line_items: [{ quantity: 1, price_data: { currency: 'aud', unit_amount: request.amountCents, product_data: { name: 'Wallet credit' } } }],
    metadata,
    payment_intent_data: { metadata, description: 'Wallet credit' },
    ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
    success_url: request.successUrl,
    cancel_url: request.cancelUrl,
  }
}

/** The paid deposit a checkout event reports, or null when the event is not a wallet deposit's. */
export function walletDepositEvent(event: Stripe.Event): ProcessorEvent | null {
  if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') return null
  const session = event.data.object
  const { company_id: companyId, wallet_deposit_id: depositId } = session.metadata ?? {}
  if (!companyId || !depositId || session.mode !== 'payment') return null
  // A delayed method completes unpaid; its money comes with async_payment_succeeded.
  if (session.payment_status !== 'paid' || session.amount_total == null) return { kind: 'ignored', eventId: event.id, type: event.type }
  const intent = session.payment_intent
  const paymentId = (typeof intent === 'string' ? intent : intent?.id) ?? session.id
  return {
    kind: 'wallet_deposit', eventId: event.id, companyId, depositId, amountCents: session.amount_total, paymentId,
    occurredAt: new Date(event.created * 1000), accountId: event.account ?? null,
  }
}
