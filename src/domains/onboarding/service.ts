// Programmatic sign-up: one unauthenticated call creates the company, its owner, its subscription
// and an admin API key, in one transaction.
import { findBalanceCents, postEntry } from '../wallet/queries.js'
import { formatCents } from '../../core/money.js'
import { PRICES_IN_WORDS } from '../../core/cost.js'
import { randomUUID } from 'node:crypto'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import { SCOPES } from '../../core/access.js'
import { AppError } from '../../core/errors.js'
import { generateApiKey, generatePassword, hashPassword } from '../../core/credentials.js'
import { isUniqueViolation } from '../../db/sql.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { findPlan, presentPlan, priceCents } from '../billing/plans.js'
import { addBillingPeriod } from '../billing/subscription.js'
import { trialStart } from '../billing/trial.js'
import { onFirstPaidPeriod } from '../billing/first-paid.js'
import { recordSignUpReferral, type ReferralLookup } from '../ecosystem/referrals.js'
import { storeDefaultReviewLink } from '../reviews/settings.js'
import type { ReviewPlatform } from '../reviews/schema.js'
import { DEFAULT_TIME_ZONE } from '../../core/zoned-time.js'
import { normaliseAbn } from './abn.js'
import type { OnboardInput } from './schema.js'
import { emailRegistered, insertAdminKey, insertCompany, insertOwner, insertSubscription } from './queries.js'

type Input = Static<typeof OnboardInput>

const emailTaken = () =>
  new AppError('email_taken', 'An account with this email already exists. Use its existing API key, or onboard with another address.')

/**
 * `review`: the checked review link and its platform, stored as the company's default. `referral`:
 * what the referral_code given names (looked up, and a same-business code refused, before this).
 */
export async function onboard(deps: Deps, input: Input, review: { platform: ReviewPlatform; url: string } | null = null, referral: ReferralLookup | null = null) {
  const plan = await findPlan(deps.db.app, input.plan)
  if (!plan) throw new AppError('internal_error', 'Plan disappeared during onboarding.')
  if (await emailRegistered(deps.db.app, input.email)) throw emailTaken()

  const now = deps.clock.now()
  const cycle = input.billing_cycle ?? 'monthly'
  const paid = plan.price_monthly_cents > 0
  const companyId = randomUUID()

  // A paid plan with a payment method activates now; without one (or if it is declined) it trials.
  let activation: { customerId: string; subscriptionId: string } | null = null
  let declined = false
  if (paid && input.stripe_payment_method_id) {
    try {
      activation = await deps.payments.activateSubscription({
        companyId, planSlug: plan.slug, planName: plan.name, billingCycle: cycle, amountCents: priceCents(plan, cycle),
        customerEmail: input.email, paymentMethodId: input.stripe_payment_method_id,
      })
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'payment_required')) throw error
      declined = true
    }
  }
  const status: 'active' | 'trialing' = !paid || activation ? 'active' : 'trialing'
  const trialEndsAt = status === 'trialing' ? new Date(now.getTime() + deps.config.TRIAL_DAYS * 86_400_000) : null
  const periodEnd = trialEndsAt ?? addBillingPeriod(now, cycle)

  const password = input.password ?? generatePassword()
  const passwordHash = await hashPassword(password)
  const key = generateApiKey()

  let created: { userId: string; own: { code: string; link: string }; rewarded: boolean; balanceCents: number }
  try {
    created = await withTenantThenStart(deps, companyId, async (tx, start) => {
      await insertCompany(tx, companyId, {
        business_name: input.business_name.trim(), contact_name: input.contact_name ?? null, contact_email: input.email,
        trade_type: input.trade_type ?? null, phone: input.phone ?? null, abn: input.abn ? normaliseAbn(input.abn) : null,
        referral_code: input.referral_code ?? null, state: input.state ?? null, time_zone: input.time_zone ?? DEFAULT_TIME_ZONE,
      }, now)
      const own = await recordSignUpReferral(deps, tx, companyId, referral, now)
      if (review) await storeDefaultReviewLink(tx, companyId, review.platform, review.url, now)
      const ownerId = await insertOwner(tx, companyId, { email: input.email, name: input.contact_name ?? null, passwordHash }, now)
      await insertAdminKey(tx, companyId, { name: input.api_key_name ?? 'Onboarding key', hash: key.hash, prefix: key.prefix, scopes: [...SCOPES] }, now)
      await insertSubscription(tx, companyId, {
        plan_slug: plan.slug, billing_cycle: cycle, status, trial_ends_at: trialEndsAt, current_period_end: periodEnd, provider: deps.payments.name,
        provider_customer_id: activation?.customerId ?? null, provider_subscription_id: activation?.subscriptionId ?? null,
        payment_method_id: activation ? input.stripe_payment_method_id! : null,
      }, now)
      if (trialEndsAt) {
        await start(trialStart(companyId, trialEndsAt))
      }
      // The starting credit, once per company (its reference), so the tools can be tried before a deposit.
      if (deps.config.WALLET_STARTING_CREDIT_CENTS > 0) {
        await postEntry(tx, { companyId, kind: 'grant', cents: deps.config.WALLET_STARTING_CREDIT_CENTS, reference: 'starting-credit', note: 'Starting credit', at: now })
      }
      // Paid now with the payment method: the first period is settled (a referral's reward, once).
      const rewarded = activation ? (await onFirstPaidPeriod(tx, companyId, `signup:${activation.subscriptionId}`, now)).referral === 'rewarded' : false
      return { userId: ownerId, own, rewarded, balanceCents: await findBalanceCents(tx) }
    })
  } catch (error) {
    // The sign-up did not happen, so a subscription activated for it must not stay charged.
    if (activation) {
      await deps.payments.cancelSubscription({ companyId, subscriptionId: activation.subscriptionId }).catch((cancelError) =>
        deps.logger.error({ err: cancelError, companyId, subscriptionId: activation!.subscriptionId }, 'could not cancel the subscription of a failed sign-up; cancel it by hand'))
    }
    if (isUniqueViolation(error, 'users_email_unique')) throw emailTaken()
    throw error
  }
  deps.logger.info({ companyId, plan: plan.slug, status }, 'company onboarded')

  const api = deps.urls.apiBase
  const site = deps.urls.siteRoot
  return {
    company_id: companyId,
    user_id: created.userId,
    email: input.email,
    api_key: key.key,
    api_key_prefix: key.prefix,
    ...(input.password ? {} : { generated_password: password }),
    plan: {
      ...presentPlan(plan),
      billing_cycle: cycle,
      subscription: {
        status,
        trial_ends_at: trialEndsAt?.toISOString() ?? null,
        current_period_start: now.toISOString(),
        current_period_end: periodEnd.toISOString(),
        provider: deps.payments.name,
      },
    },
    endpoints: {
      api_base: api,
      docs: `${api}/docs`,
      openapi: `${api}/openapi.json`,
      plans: `${api}/plans`,
      billing: `${api}/billing`,
      usage: `${api}/usage`,
      keys: `${api}/keys`,
      mcp: `${api}/mcp`,
      mcp_sse: `${api}/mcp/sse`,
      agent_card: `${site}/.well-known/agent-card.json`,
      mcp_server: `${site}/.well-known/mcp-server.json`,
    },
    wallet: { balance: created.balanceCents / 100, deposit_with: 'wallet.deposit' },
    referral: {
      code: created.own.code,
      link: created.own.link,
      referred_by_code: referral?.referrerId ? referral.code : null,
      note: referralNote(referral, created.rewarded, deps.config.REFERRAL_CREDIT_CENTS),
    },
    message: [welcomeMessage(plan.name, status, trialEndsAt, declined), creditNote(deps.config.WALLET_STARTING_CREDIT_CENTS), referral && referralNote(referral, created.rewarded, deps.config.REFERRAL_CREDIT_CENTS)]
      .filter(Boolean).join(' '),
  }
}

/** What became of the referral_code given (an unknown one does not stop the sign-up), or how to use the company's own. */
function referralNote(given: ReferralLookup | null, rewarded: boolean, cents: number): string {
  const credit = formatCents(cents)
  if (!given) return `Share referral.code (or referral.link) with other businesses: when one signs up with it and pays its first month, both wallets get ${credit} of credit.`
  if (!given.referrerId) return `Referral code ${given.code} matches no company, so no referral was recorded; the sign-up went ahead without one.`
  if (rewarded) return `Referral code ${given.code} recorded; this first paid month is settled, so this company and the referrer each got ${credit} of wallet credit.`
  return `Referral code ${given.code} recorded: this company and the referrer each get ${credit} of wallet credit once this company's first paid month is settled.`
}

/** The wallet's part of the welcome: what MCP calls cost and the credit they start from. */
export function creditNote(cents: number): string {
  return `MCP tool calls are paid from the wallet (${PRICES_IN_WORDS}); it starts with ${formatCents(cents)} of credit; add more with wallet.deposit.`
}

function welcomeMessage(planName: string, status: string, trialEndsAt: Date | null, declined: boolean): string {
  const keyNote = 'Store the api_key now: it is shown once only. Send it as "Authorization: Bearer <api_key>".'
  if (status === 'active') return `Welcome aboard. Your ${planName} plan is active. ${keyNote}`
  const reason = declined ? 'The payment method was declined, so your' : 'Your'
  return `Welcome aboard. ${reason} ${planName} plan runs as a free trial until ${trialEndsAt!.toISOString()}; ` +
    `activate it any time with POST /api/v1/billing/checkout, or the company falls back to free features. ${keyNote}`
}
