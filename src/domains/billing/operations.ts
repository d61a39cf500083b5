import { defineOperation } from '../../core/operation.js'
import { READ, SEND } from '../../core/annotations.js'
import { EmptyInput } from '../../core/schema-helpers.js'
import { activePlans, presentPlan } from './plans.js'
import { afterCheckout, afterPortal } from './next-steps.js'
import { BillingResponse, CheckoutInput, CheckoutResponse, PlansResponse, PortalResponse, UsageResponse } from './schema.js'
import { assertActivePlan, createCheckout, createPortal, getBilling, getUsage } from './service.js'
import { validationError } from '../../core/errors.js'

// Billing status, usage, checkout and portal are the way out of a used-up monthly quota (the 429
// names them), so they are not counted toward it and still answer at the limit, on every transport.
export const billingOperations = [
  defineOperation({
    name: 'billing.list_plans',
    domain: 'billing',
    title: 'List plans',
    description: 'List the active plans with AUD pricing (monthly and yearly), monthly limits and feature flags (restRead, restWrite, mcpAccess, webhookInbound).',
    input: EmptyInput,
    output: PlansResponse,
    access: 'public',
    cost: 'free',
    annotations: READ,
    rest: { method: 'GET', path: '/plans' },
    async run(ctx) {
      return { plans: (await activePlans(ctx.deps.db.app)).map(presentPlan), currency: 'AUD' as const }
    },
  }),
  defineOperation({
    name: 'billing.status',
    domain: 'billing',
    title: 'Billing status',
    description: 'Show the company\'s plan, subscription state, trial (if any) and billing actions, including the link to open the payment portal.',
    input: EmptyInput,
    output: BillingResponse,
    access: { permission: 'read' },
    cost: 'free',
    annotations: READ,
    rest: { method: 'GET', path: '/billing', countsTowardQuota: false },
    run: (ctx) => getBilling(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'billing.usage',
    domain: 'billing',
    title: 'Usage this period',
    description: 'Show this month\'s usage against the plan\'s limits (API calls, SMS, emails, LLM calls, users) and record counts. Periods are calendar months in Sydney time.',
    input: EmptyInput,
    output: UsageResponse,
    access: { permission: 'read' },
    cost: 'free',
    annotations: READ,
    rest: { method: 'GET', path: '/usage', countsTowardQuota: false },
    run: (ctx) => getUsage(ctx.deps, ctx.principal!),
  }),
  defineOperation({
    name: 'billing.create_checkout',
    domain: 'billing',
    title: 'Start a plan checkout',
    description: 'Create a checkout session for a paid plan and billing cycle. Returns a URL for the human operator to pay; the plan activates when payment completes.',
    input: CheckoutInput,
    output: CheckoutResponse,
    access: { permission: 'admin' },
    cost: 'free',
    annotations: SEND,
    rest: { method: 'POST', path: '/billing/checkout', status: 200, countsTowardQuota: false },
    async precheck(ctx, raw) {
      // The spec's own code for an unknown plan (invalid_plan, with the list) and a clear word for free.
      await assertActivePlan(ctx.deps, raw.plan_slug, (slug) => slug !== 'free')
      if (raw.plan_slug === 'free') {
        throw validationError(['plan_slug: choose a paid plan (starter, professional or business)'], 'The free plan needs no checkout; cancel the paid subscription from the portal instead.')
      }
    },
    run: (ctx, input) => createCheckout(ctx.deps, ctx.principal!, input),
    nextSteps: afterCheckout,
  }),
  defineOperation({
    name: 'billing.get_portal',
    domain: 'billing',
    title: 'Open the payment portal',
    description: 'Create a payment-portal session where the human operator manages the subscription, payment methods and invoices. Needs an existing paid subscription.',
    input: EmptyInput,
    output: PortalResponse,
    access: { permission: 'admin' },
    cost: 'free',
    annotations: SEND,
    rest: { method: 'POST', path: '/billing/portal', status: 200, countsTowardQuota: false },
    run: (ctx) => createPortal(ctx.deps, ctx.principal!),
    nextSteps: afterPortal,
  }),
]
