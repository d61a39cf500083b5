// What follows a webhook change (core/next-steps.ts): each delivery, its attempts and answers, is
// in webhooks.deliveries, the one place to see whether a receiver is getting and accepting events.
import { type NextStep } from '../../core/next-steps.js'

interface Subscription { id: string; secretRotatedUntil: string | null }

export function afterSubscribe(output: { subscription: Subscription }): NextStep[] {
  const sub = output.subscription
  return [{
    tool: 'webhooks.deliveries',
    why: `Store secret now (shown once): every delivery is signed with it. Events are POSTed as they happen; this lists each delivery with its attempts (id ${sub.id}).`,
  }]
}

export function afterRotate(output: { subscription: Subscription }): NextStep[] {
  const sub = output.subscription
  return [{
    tool: 'webhooks.deliveries',
    why: `Put the new secret in the receiver before ${sub.secretRotatedUntil} (until then the old one signs too); this shows whether deliveries are still accepted (id ${sub.id}).`,
  }]
}

export function afterRedeliver(output: { delivery: { subscriptionId: string } }): NextStep[] {
  return [{ tool: 'webhooks.deliveries', why: `See the new attempts and the receiver's answers (id ${output.delivery.subscriptionId}).` }]
}

export function afterRecover(output: { redelivered: number }, input: { id: string }): NextStep[] {
  if (!output.redelivered) return []
  return [{ tool: 'webhooks.deliveries', why: `See how the ${output.redelivered} redelivered event(s) fare: status failed lists any still refused (id ${input.id}).` }]
}
