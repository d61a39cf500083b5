// Stripe: Billing (Checkout, customer portal, subscriptions) for the plan a company pays us, and
// Connect for the money its own customers pay it. Invoice payments are DIRECT charges on the
// company's connected account (the Stripe-Account header), so the trade business is the merchant
// of record: its name on the card statement, its Stripe fees, its refunds and disputes.
import type Stripe from 'stripe'
import { AppError } from '../../core/errors.js'
import { WebhookSignatureError, type CheckoutRequest, type ConnectedAccount, type HostedSession, type InvoicePaymentRequest, type PaymentMethodActivation, type PaymentsProvider, type ProcessorEvent, type ProcessorSubscription, type WalletDepositRequest } from './provider.js'
import { toProcessorSubscription, toSubscriptionEvent } from './stripe-subscription-events.js'
import { walletDepositEvent, walletDepositSession } from './stripe-wallet.js'
import { loadOnce } from '../../core/load-once.js'

export interface StripePaymentsConfig {
  secretKey: string
  /** Signing secret (whsec_...) of the webhook endpoint. */
  webhookSecret: string
  /** Another API address, e.g. http://127.0.0.1:12111 for stripe-mock. */
  apiUrl?: string
  /** Read at call time: the site root is only final once the server listens. */
  urls: { siteRoot: string }
  now: () => Date
}

const INTERVAL = { monthly: 'month', yearly: 'year' } as const
// Stripe reports no expiry for portal sessions, only that they are short-lived: treat them as minutes.
const PORTAL_TTL_MS = 5 * 60 * 1000

// The SDK is large: loaded on the first call that needs it (not when this module is imported), then cached.
const loadStripe = loadOnce(() => import('stripe'))

export class StripePayments implements PaymentsProvider {
  readonly name = 'stripe'
  private readonly options: Stripe.StripeConfig
  /** The client, made on first use. */
  private readonly stripe = loadOnce(async () => new (await loadStripe()).default(this.config.secretKey, this.options))

  constructor(private readonly config: StripePaymentsConfig) {
    const api = config.apiUrl ? new URL(config.apiUrl) : null
    const https = api?.protocol !== 'http:'
    this.options = {
      // The library's default is 80 s; a user is waiting on most of these calls.
      timeout: 20_000,
      // The library retries connection errors, 409s and 5xx itself, under one idempotency key per call.
      maxNetworkRetries: 2,
      ...(api ? { host: api.hostname, port: api.port || (https ? 443 : 80), protocol: https ? 'https' : 'http' } : {}),
    }
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<HostedSession> {
    const stripe = await this.stripe()
    const site = this.config.urls.siteRoot
    const metadata = { company_id: request.companyId, plan_slug: request.planSlug, billing_cycle: request.billingCycle }
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: request.companyId,
      customer_email: request.customerEmail,
      line_items: [{ quantity: 1, price_data: this.planPrice(request, await this.planProduct(request)) }],
      metadata,
      // The subscription's own events then say which company and plan they belong to.
      subscription_data: { metadata },
      success_url: `${site}/billing/checkout/complete?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${site}/billing/checkout/cancelled`,
    })
    return hosted(session)
  }

  async createPortalSession(request: { companyId: string; customerId: string }): Promise<HostedSession> {
    const stripe = await this.stripe()
    const session = await stripe.billingPortal.sessions.create({ customer: request.customerId, return_url: `${this.config.urls.siteRoot}/billing` })
    return { id: session.id, url: session.url, expiresAt: new Date(this.config.now().getTime() + PORTAL_TTL_MS) }
  }

  async activateSubscription(request: CheckoutRequest & { paymentMethodId: string }): Promise<PaymentMethodActivation> {
    const stripe = await this.stripe()
    const product = await this.planProduct(request)
    let customerId: string | null = null
    try {
      const customer = await stripe.customers.create({
        email: request.customerEmail,
        payment_method: request.paymentMethodId,
        invoice_settings: { default_payment_method: request.paymentMethodId },
        metadata: { company_id: request.companyId },
      })
      customerId = customer.id
      const subscription = await stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price_data: this.planPrice(request, product) }],
        // Charge the first period now and fail the call when the card is declined (or needs 3-D Secure),
        // rather than leave an 'incomplete' subscription behind that looks activated.
        payment_behavior: 'error_if_incomplete',
        metadata: { company_id: request.companyId, plan_slug: request.planSlug, billing_cycle: request.billingCycle },
      })
      return { customerId: customer.id, subscriptionId: subscription.id }
    } catch (error) {
      if (!(await unusablePaymentMethod(error))) throw error
      // Nothing was charged; a declined sign-up should leave no customer behind either.
      if (customerId) await stripe.customers.del(customerId).catch(() => undefined)
      throw new AppError('payment_required', `The payment method was declined: ${(error as Error).message}`)
    }
  }

  async cancelSubscription(request: { companyId: string; subscriptionId: string }): Promise<void> {
    const stripe = await this.stripe()
    const subscription = await stripe.subscriptions.cancel(request.subscriptionId)
    // Activation charged the first period at once; the sign-up it paid for never happened, so refund it.
    const invoice = subscription.latest_invoice
    const invoiceId = typeof invoice === 'string' ? invoice : invoice?.id
    if (!invoiceId) return
    const payments = await stripe.invoicePayments.list({ invoice: invoiceId, status: 'paid' })
    for (const { payment } of payments.data) {
      const intentId = typeof payment.payment_intent === 'string' ? payment.payment_intent : payment.payment_intent?.id
      if (!intentId) continue
      await stripe.refunds.create(
        { payment_intent: intentId, reason: 'requested_by_customer', metadata: { company_id: request.companyId, subscription_id: request.subscriptionId } },
        { idempotencyKey: `refund-cancelled-signup:${intentId}` },
      )
    }
  }

  async connectAccount(request: { companyId: string; email: string; businessName: string; existingAccountId: string | null; returnUrl: string }): Promise<ConnectedAccount> {
    const stripe = await this.stripe()
    const account = request.existingAccountId
      ? await stripe.accounts.retrieve(request.existingAccountId)
      : await stripe.accounts.create(
          {
            country: 'AU',
            email: request.email,
            business_profile: { name: request.businessName },
            metadata: { company_id: request.companyId },
            // What Stripe recommends for direct charges (a "Standard" account): the business has the full
            // Stripe Dashboard, pays its own Stripe fees, and Stripe (not this platform) carries its losses
            // and collects its identity and bank details.
            controller: { stripe_dashboard: { type: 'full' }, fees: { payer: 'account' }, losses: { payments: 'stripe' }, requirement_collection: 'stripe' },
            capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
          },
          // A retried call (say, after a timeout) gets the same account instead of a second one.
          { idempotencyKey: `connect-account:${request.companyId}` },
        )
    const finished = account.charges_enabled && account.details_submitted && (account.requirements?.currently_due ?? []).length === 0
    if (finished) return { accountId: account.id, chargesEnabled: true, onboardingUrl: null }
    // Links are single-use and expire within minutes, so a new one is made on every call.
    const link = await stripe.accountLinks.create({ account: account.id, type: 'account_onboarding', refresh_url: request.returnUrl, return_url: request.returnUrl })
    return { accountId: account.id, chargesEnabled: !!account.charges_enabled, onboardingUrl: link.url }
  }

  async createInvoicePayment(request: InvoicePaymentRequest): Promise<HostedSession> {
    const stripe = await this.stripe()
    // Strings only (Stripe metadata); the webhook reads these back to book the payment.
    const metadata = {
      company_id: request.companyId,
      invoice_id: request.invoiceId,
      invoice_number: request.invoiceNumber,
      surcharge_cents: String(request.surchargeCents),
      public_token: request.publicToken,
    }
    const line = (name: string, cents: number) => ({ quantity: 1, price_data: { currency: 'aud', unit_amount: cents, product_data: { name } } })
    const lineItems = [line(`Invoice ${request.invoiceNumber}`, request.amountCents)]
    // The surcharge is its own line so the payer sees it and the webhook can split it off again.
    if (request.surchargeCents > 0) lineItems.push(line(request.surchargeLabel, request.surchargeCents))
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        submit_type: 'pay',
        client_reference_id: request.invoiceId,
        line_items: lineItems,
        metadata,
        // On the PaymentIntent too, so the charge in the business's own Dashboard says which invoice it paid.
        payment_intent_data: { metadata, description: `${request.businessName} invoice ${request.invoiceNumber}` },
        ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
      { stripeAccount: request.accountId, idempotencyKey: request.idempotencyKey },
    )
    return hosted(session)
  }

  async createWalletDeposit(request: WalletDepositRequest): Promise<HostedSession> {
    const stripe = await this.stripe()
    return hosted(await stripe.checkout.sessions.create(walletDepositSession(request), { idempotencyKey: `wallet-deposit:${request.depositId}` }))
  }

  async verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<ProcessorEvent> {
    if (!signatureHeader) throw new WebhookSignatureError('The Stripe-Signature header is missing.')
    const { webhooks } = (await loadStripe()).default
    let event: Stripe.Event
    try {
      // Default tolerance (5 minutes), with the age measured on the service's clock like everything else.
      event = webhooks.constructEvent(rawBody, signatureHeader, this.config.webhookSecret, undefined, undefined, this.config.now().getTime())
    } catch (error) {
      throw new WebhookSignatureError(`The Stripe webhook did not verify: ${(error as Error).message}`)
    }
    return toProcessorEvent(event)
  }

  async retrieveSubscription(subscriptionId: string): Promise<ProcessorSubscription | null> {
    const stripe = await this.stripe()
    try {
      return toProcessorSubscription(await stripe.subscriptions.retrieve(subscriptionId))
    } catch (error) {
      if ((await stripeCode(error)) === 'resource_missing') return null
      throw error
    }
  }

  /** One product per plan under a fixed id: subscription price_data must name a product, and reports group by it. */
  private async planProduct(request: CheckoutRequest): Promise<string> {
    const stripe = await this.stripe()
    const id = `tradie_plan_${request.planSlug}`
    try {
      return (await stripe.products.retrieve(id)).id
    } catch (error) {
      if ((await stripeCode(error)) !== 'resource_missing') throw error
    }
    try {
      await stripe.products.create({ id, name: `${request.planName} plan`, metadata: { plan_slug: request.planSlug } })
    } catch (error) {
      // Another sign-up created it meanwhile.
      if ((await stripeCode(error)) !== 'resource_already_exists') throw error
    }
    return id
  }

  private planPrice(request: CheckoutRequest, product: string) {
    // Plan prices are quoted incl. GST.
    return { currency: 'aud', product, unit_amount: request.amountCents, tax_behavior: 'inclusive' as const, recurring: { interval: INTERVAL[request.billingCycle] } }
  }
}

function hosted(session: Stripe.Checkout.Session): HostedSession {
  // Only embedded sessions come without a url, and none are made here.
  if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a url.`)
  return { id: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) }
}

// The SDK is already loaded here: the error came from one of its calls.
async function stripeCode(error: unknown): Promise<string | undefined> {
  const { StripeError } = (await loadStripe()).default.errors
  return error instanceof StripeError ? error.code : undefined
}

/** A decline (402: card error, 3-D Secure needed) or a payment method Stripe cannot use at all. */
async function unusablePaymentMethod(error: unknown): Promise<boolean> {
  const { StripeError } = (await loadStripe()).default.errors
  if (!(error instanceof StripeError)) return false
  return error.statusCode === 402 || error.type === 'StripeCardError' || (error.code === 'resource_missing' && error.param === 'payment_method')
}

function toProcessorEvent(event: Stripe.Event): ProcessorEvent {
  const ignored: ProcessorEvent = { kind: 'ignored', eventId: event.id, type: event.type }
  const occurredAt = new Date(event.created * 1000)
  const deposit = walletDepositEvent(event)
  if (deposit) return deposit
  const subscription = toSubscriptionEvent(event) // plan subscriptions: stripe-subscription-events.ts
  if (subscription) return subscription
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object
      // Delayed methods (BECS direct debit) complete unpaid; their money comes with async_payment_succeeded.
      if (event.type === 'checkout.session.completed' && session.payment_status !== 'paid') return ignored
      const { company_id: companyId, invoice_id: invoiceId, surcharge_cents: surcharge } = session.metadata ?? {}
      // Plan checkouts (no invoice) and sessions made elsewhere on the account are not ours to book.
      if (!companyId || !invoiceId || session.amount_total == null) return ignored
      const surchargeCents = Number(surcharge || 0)
      if (!Number.isInteger(surchargeCents)) return ignored
      const intent = session.payment_intent
      const paymentId = (typeof intent === 'string' ? intent : intent?.id) ?? session.id
      return { kind: 'payment', eventId: event.id, companyId, invoiceId, amountCents: session.amount_total - surchargeCents, surchargeCents, paymentId, occurredAt, accountId: event.account ?? null }
    }
    case 'account.updated':
      return { kind: 'account', eventId: event.id, accountId: event.data.object.id, chargesEnabled: !!event.data.object.charges_enabled, occurredAt }
    default:
      return ignored
  }
}
