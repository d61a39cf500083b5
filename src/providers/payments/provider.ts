// Payments provider interface. The local sandbox default serves its own checkout and portal pages;
// a Stripe adapter implements the same interface in a later issue.

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

export interface PaymentsProvider {
  readonly name: string
  createCheckoutSession(request: CheckoutRequest): Promise<HostedSession>
  createPortalSession(request: { companyId: string; customerId: string }): Promise<HostedSession>
  /** Starts a paid subscription at once from a payment method token given at onboarding. */
  activateSubscription(request: CheckoutRequest & { paymentMethodId: string }): Promise<PaymentMethodActivation>
  /** Undoes an activation whose sign-up then failed (say, the email was taken meanwhile): nothing stays charged. */
  cancelSubscription(request: { companyId: string; subscriptionId: string }): Promise<void>
}
