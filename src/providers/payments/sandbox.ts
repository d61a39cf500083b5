// Local sandbox payments: no money moves. Sessions point at pages this service renders itself
// (src/transports/pages/sandbox-payments.ts), where a person can complete a test checkout or
// manage the subscription. Records name the provider 'sandbox', so nothing claims a real charge.
import { randomBytes } from 'node:crypto'
import { AppError } from '../../core/errors.js'
import { WebhookSignatureError, type CheckoutRequest, type ConnectedAccount, type HostedSession, type InvoicePaymentRequest, type PaymentMethodActivation, type PaymentsProvider, type ProcessorEvent, type ProcessorSubscription, type WalletDepositRequest } from './provider.js'

const SESSION_TTL_MS = 24 * 60 * 60 * 1000
const id = (prefix: string) => `${prefix}_sandbox_${randomBytes(16).toString('base64url')}`

export class SandboxPayments implements PaymentsProvider {
  readonly name = 'sandbox'
  private readonly active = new Set<string>()
  /** Subscriptions as this pretend processor holds them, set by the sandbox portal's state change. */
  private readonly subscriptions = new Map<string, ProcessorSubscription>()
  constructor(private readonly urls: { siteRoot: string }, private readonly now: () => Date) {}

  async createCheckoutSession(_request: CheckoutRequest): Promise<HostedSession> {
    const sessionId = id('cs')
    return { id: sessionId, url: `${this.urls.siteRoot}/sandbox/checkout/${sessionId}`, expiresAt: new Date(this.now().getTime() + SESSION_TTL_MS) }
  }

  async createPortalSession(_request: { companyId: string; customerId: string }): Promise<HostedSession> {
    const sessionId = id('bps')
    return { id: sessionId, url: `${this.urls.siteRoot}/sandbox/portal/${sessionId}`, expiresAt: new Date(this.now().getTime() + SESSION_TTL_MS) }
  }

  async activateSubscription(request: CheckoutRequest & { paymentMethodId: string }): Promise<PaymentMethodActivation> {
    // Mirrors Stripe's test tokens: this one is always declined, so the failure path can be exercised.
    if (request.paymentMethodId === 'pm_card_chargeDeclined') {
      throw new AppError('payment_required', 'The payment method was declined (sandbox test token pm_card_chargeDeclined).')
    }
    const subscriptionId = id('sub')
    this.active.add(subscriptionId)
    return { customerId: id('cus'), subscriptionId }
  }

  async cancelSubscription(request: { companyId: string; subscriptionId: string }): Promise<void> {
    this.active.delete(request.subscriptionId)
  }

  /** The sandbox account can take (pretend) payments at once: there is no processor sign-up to finish. */
  async connectAccount(request: { existingAccountId: string | null }): Promise<ConnectedAccount> {
    return { accountId: request.existingAccountId ?? id('acct'), chargesEnabled: true, onboardingUrl: null }
  }

  /** The sandbox's own pay page for the invoice (src/transports/pages/invoice-page.ts), found by the invoice's public token. */
  async createInvoicePayment(request: InvoicePaymentRequest): Promise<HostedSession> {
    return { id: id('cs'), url: `${this.urls.siteRoot}/sandbox/invoices/${request.publicToken}`, expiresAt: new Date(this.now().getTime() + SESSION_TTL_MS) }
  }

  /** The sandbox's own card page for the deposit (src/transports/pages/wallet-pages.ts), which credits it when paid. */
  async createWalletDeposit(request: WalletDepositRequest): Promise<HostedSession> {
    return { id: id('cs'), url: `${this.urls.siteRoot}/sandbox/wallet/${request.payToken}`, expiresAt: new Date(this.now().getTime() + SESSION_TTL_MS) }
  }

  /** Payments on the sandbox page are recorded by the page itself; no processor sends webhooks here. */
  async verifyWebhook(): Promise<ProcessorEvent> {
    throw new WebhookSignatureError('The sandbox payments provider takes no processor webhooks.')
  }

  async retrieveSubscription(subscriptionId: string): Promise<ProcessorSubscription | null> {
    return this.subscriptions.get(subscriptionId) ?? null
  }

  /** The sandbox portal moves a subscription to a new state here, then applies it as a processor event would. */
  setSubscription(subscription: ProcessorSubscription): void {
    this.subscriptions.set(subscription.id, subscription)
  }

  /** Subscriptions activated and not cancelled (the sandbox keeps them in memory; no money moves). */
  activeSubscriptions(): string[] {
    return [...this.active]
  }
}
