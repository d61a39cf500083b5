// Payments provider interface: plan billing for the company itself (checkout, portal, activation)
// and, for its customers' payments, a connected account per company, a hosted payment page per
// invoice and verified processor webhooks. The local sandbox is the default; Stripe (Connect +
// Checkout) is chosen with PAYMENTS_PROVIDER=stripe.

export interface CheckoutRequest {
  companyId: string
  planSlug: string
  planName: string
  billingCycle: 'monthly' | 'yearly'
  amountCents: number
  customerEmail: string
}

export interface HostedSession {
  /** Provider's session id (cs_... for checkout, bps_... for portal). */
  id: string
  url: string
  expiresAt: Date
}

export interface PaymentMethodActivation {
  customerId: string
  subscriptionId: string
}

/** The company's own account with the processor, which its customers' payments go to. */
export interface ConnectedAccount {
  /** Provider's account id (acct_...). */
  accountId: string
  /** True once the processor lets the account take card payments. */
  chargesEnabled: boolean
  /** Where the owner finishes the processor's own sign-up (identity, bank account); null when nothing is left to do. */
  onboardingUrl: string | null
}

export interface InvoicePaymentRequest {
  companyId: string
  accountId: string
  invoiceId: string
  invoiceNumber: string
  /** What the invoice still owes, in cents incl. GST. */
  amountCents: number
  /** Card surcharge, its own line (0 when the company charges none). */
  surchargeCents: number
  surchargeLabel: string
  customerEmail: string | null
  businessName: string
  successUrl: string
  cancelUrl: string
  /** The invoice's public page token (the sandbox's pay page is found by it; Stripe carries it in metadata). */
  publicToken: string
  /** A key so a retried call makes no second session (the invoice id and its balance). */
  idempotencyKey: string
}

/** A one-off payment that adds credit to the company's own wallet (wallet.deposit), paid to the platform. */
export interface WalletDepositRequest {
  companyId: string
  depositId: string
  amountCents: number
  customerEmail: string | null
  /** The sandbox's pay page is found by it. */
  payToken: string
  successUrl: string
  cancelUrl: string
}

/**
 * A processor event after its signature was checked. Only what the service acts on is parsed;
 * anything else comes back as kind 'ignored' (and is still acknowledged).
 */
export type ProcessorEvent =
  | {
    kind: 'payment'; eventId: string; companyId: string; invoiceId: string; amountCents: number; surchargeCents: number; paymentId: string; occurredAt: Date
    /** The connected account the money went to: it must be the named company's own (null when the processor names none). */
    accountId: string | null
  }
  | { kind: 'account'; eventId: string; accountId: string; chargesEnabled: boolean; occurredAt: Date }
  | SubscriptionEvent
  /** A wallet deposit paid (stripe-wallet.ts); accountId is set only when it was paid on a connected account, which is not ours to credit. */
  | { kind: 'wallet_deposit'; eventId: string; companyId: string; depositId: string; amountCents: number; paymentId: string; occurredAt: Date; accountId: string | null }
  | { kind: 'ignored'; eventId: string; type: string }

/**
 * A plan subscription's lifecycle event (checkout completed, subscription created/updated/deleted,
 * invoice paid or failed, trial ending). It only says WHICH subscription changed: the handler re-reads
 * the subscription from the processor, so events applied in any order leave the current state.
 */
export interface SubscriptionEvent {
  kind: 'subscription'
  eventId: string
  /** The processor's event type, e.g. customer.subscription.updated. */
  type: string
  subscriptionId: string
  /** Our company id from the event's metadata, when it carries one. */
  companyId: string | null
  /** invoice.paid: the invoice and what it settled (the first paid period triggers onFirstPaidPeriod). */
  paidInvoice: { invoiceId: string; amountPaidCents: number } | null
  /** checkout.session.completed: our checkout session, marked complete. */
  checkoutSessionId?: string
  occurredAt: Date
}

/** A plan subscription as the processor holds it now. */
export interface ProcessorSubscription {
  id: string
  customerId: string
  /** The processor's state: trialing, active, past_due, canceled, incomplete, incomplete_expired, unpaid, paused. */
  status: string
  /** Our plan slug (from the price's product, else the metadata); null when the subscription is not for one of our plans. */
  planSlug: string | null
  billingCycle: 'monthly' | 'yearly'
  currentPeriodStart: Date
  currentPeriodEnd: Date
  cancelAtPeriodEnd: boolean
  trialEnd: Date | null
  /** Our company id from the subscription's metadata (set at checkout and activation). */
  companyId: string | null
}

export const SUBSCRIPTION_STATES = ['trialing', 'active', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused'] as const
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number]

/** Thrown by verifyWebhook for a missing, malformed, stale or wrong signature. */
export class WebhookSignatureError extends Error {}

export interface PaymentsProvider {
  readonly name: string
  createCheckoutSession(request: CheckoutRequest): Promise<HostedSession>
  createPortalSession(request: { companyId: string; customerId: string }): Promise<HostedSession>
  /** Starts a paid subscription at once from a payment method token given at onboarding. */
  activateSubscription(request: CheckoutRequest & { paymentMethodId: string }): Promise<PaymentMethodActivation>
  /** Undoes an activation whose sign-up then failed (say, the email was taken meanwhile): nothing stays charged. */
  cancelSubscription(request: { companyId: string; subscriptionId: string }): Promise<void>

  /** Creates the company's connected account (or returns a fresh onboarding link for an existing one). */
  connectAccount(request: { companyId: string; email: string; businessName: string; existingAccountId: string | null; returnUrl: string }): Promise<ConnectedAccount>
  /** A hosted page where the invoice's client pays its balance (plus any surcharge) to the company's account. */
  createInvoicePayment(request: InvoicePaymentRequest): Promise<HostedSession>
  /** The plan subscription as the processor holds it now; null when the processor does not know it. */
  retrieveSubscription(subscriptionId: string): Promise<ProcessorSubscription | null>
  /** A hosted one-off payment (Stripe Checkout in payment mode) that credits the wallet when its event arrives. */
  createWalletDeposit(request: WalletDepositRequest): Promise<HostedSession>
  /** Checks the signature on the raw body and parses the event; rejects with WebhookSignatureError when it does not verify. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<ProcessorEvent>
}
