// Programmatic sign-up: one unauthenticated call creates the company, its owner, its subscription
// and an admin API key, in one transaction.
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
import { normaliseAbn } from './abn.js'
import type { OnboardInput } from './schema.js'

type Input = Static<typeof OnboardInput>

const emailTaken = () =>
  new AppError('email_taken', 'An account with this email already exists. Use its existing API key, or onboard with another address.')

export async function onboard(deps: Deps, input: Input) {
  const plan = await findPlan(deps.db.app, input.plan)
  if (!plan) throw new AppError('internal_error', 'Plan disappeared during onboarding.')
  const [registered] = await deps.db.app<{ taken: boolean }[]>`select email_registered(${input.email}) as taken`
  if (registered?.taken) throw emailTaken()

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

  let userId: string
  try {
    userId = await withTenantThenStart(deps, companyId, async (tx, start) => {
      await tx`
        insert into companies (id, business_name, contact_name, contact_email, trade_type, phone, abn, referral_code, created_at)
        values (${companyId}, ${input.business_name.trim()}, ${input.contact_name ?? null}, ${input.email},
                ${input.trade_type ?? null}, ${input.phone ?? null}, ${input.abn ? normaliseAbn(input.abn) : null},
                ${input.referral_code ?? null}, ${now})`
      const [user] = await tx<{ id: string }[]>`
        insert into users (company_id, email, name, role, password_hash, created_at)
        values (${companyId}, ${input.email}, ${input.contact_name ?? null}, 'owner', ${passwordHash}, ${now})
        returning id`
      await tx`
        insert into api_keys (company_id, name, key_hash, prefix, scopes, permission, created_at)
        values (${companyId}, ${input.api_key_name ?? 'Onboarding key'}, ${key.hash}, ${key.prefix}, ${[...SCOPES]}, 'admin', ${now})`
      await tx`
        insert into subscriptions (company_id, plan_slug, billing_cycle, status, trial_ends_at, current_period_start,
                                   current_period_end, provider, provider_customer_id, provider_subscription_id, payment_method_id)
        values (${companyId}, ${plan.slug}, ${cycle}, ${status}, ${trialEndsAt}, ${now}, ${periodEnd}, ${deps.payments.name},
                ${activation?.customerId ?? null}, ${activation?.subscriptionId ?? null},
                ${activation ? input.stripe_payment_method_id! : null})`
      if (trialEndsAt) {
        await start(trialStart(companyId, trialEndsAt))
      }
      return user!.id
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
    user_id: userId,
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
    message: welcomeMessage(plan.name, status, trialEndsAt, declined),
  }
}

function welcomeMessage(planName: string, status: string, trialEndsAt: Date | null, declined: boolean): string {
  const keyNote = 'Store the api_key now: it is shown once only. Send it as "Authorization: Bearer <api_key>".'
  if (status === 'active') return `Welcome aboard. Your ${planName} plan is active. ${keyNote}`
  const reason = declined ? 'The payment method was declined, so your' : 'Your'
  return `Welcome aboard. ${reason} ${planName} plan runs as a free trial until ${trialEndsAt!.toISOString()}; ` +
    `activate it any time with POST /api/v1/billing/checkout, or the company falls back to free features. ${keyNote}`
}
