// What follows a checkout or portal session (core/next-steps.ts): a person acts on the page it
// returns, and billing.status shows the outcome.
import type { NextStep } from '../../core/next-steps.js'

export function afterCheckout(output: { plan_slug: string; expires_at: string }): NextStep[] {
  return [{ tool: 'billing.status', why: `The owner pays at checkout_url before ${output.expires_at}; this shows the ${output.plan_slug} plan once it is active.` }]
}

export function afterPortal(output: { expires_at: string }): NextStep[] {
  return [{ tool: 'billing.status', why: `The owner manages the subscription at portal_url before ${output.expires_at}; this shows the subscription after any change they make.` }]
}
