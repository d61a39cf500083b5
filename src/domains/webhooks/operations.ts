import { defineOperation, AGENT_PARITY } from '../../core/operation.js'
import { READ, WRITE } from '../../core/annotations.js'
import { listDeliveries, listSubscriptions, recover, redeliver, rotateSecret, subscribe, unsubscribe } from './service.js'
import {
  ListDeliveriesInput, ListDeliveriesResponse, ListSubscriptionsInput, ListSubscriptionsResponse, RecoverInput, RecoverResponse, RedeliverInput,
  RedeliverResponse, RotateResponse, SubscribeInput, SubscribeResponse, SubscriptionIdInput, UnsubscribeInput, UnsubscribeResponse,
} from './schema.js'
import { afterRecover, afterRedeliver, afterRotate, afterSubscribe } from './next-steps.js'

const admin = { permission: 'admin' as const, feature: 'webhookInbound' as const }
const reader = { permission: 'read' as const, feature: 'webhookInbound' as const }

export const webhookOperations = [
  defineOperation({
    name: 'webhooks.subscribe', domain: 'webhooks', title: 'Subscribe a webhook',
    description: `Subscribe an https URL to events. Each event is POSTed as JSON {id, type, created_at, company_id, data} with the full resource, signed per Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature) and in X-Webhook-Signature (t=<unix>,v1=<hex HMAC-SHA256 of "t.body">), with the secret returned once here. Retried immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h; 410 disables the subscription.`,
    input: SubscribeInput, output: SubscribeResponse, access: admin, cost: 'write', annotations: WRITE,
    rest: { method: 'POST', path: '/webhooks', status: 201 },
    run: (ctx, input) => subscribe(ctx.deps, ctx.principal!, input),
    nextSteps: afterSubscribe,
  }),
  defineOperation({
    name: 'webhooks.unsubscribe', domain: 'webhooks', title: 'Remove a webhook',
    description: 'Remove a webhook subscription by its id; nothing more is delivered to its URL. Its deliveries stay listed.',
    input: UnsubscribeInput, output: UnsubscribeResponse, access: admin, cost: 'write', annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    rest: { method: 'DELETE', path: '/webhooks/:subscription_id' },
    run: (ctx, input) => unsubscribe(ctx.deps, ctx.principal!, input.subscription_id),
  }),
  defineOperation({
    name: 'webhooks.list', domain: 'webhooks', title: 'List webhooks',
    description: "The company's webhook subscriptions: id, URL, events, status (active or disabled, with why) and whether it is failing.",
    input: ListSubscriptionsInput, output: ListSubscriptionsResponse, access: reader, cost: 'read', annotations: READ,
    rest: { method: 'GET', path: '/webhooks' },
    run: (ctx, input) => listSubscriptions(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'webhooks.rotate_secret', domain: 'webhooks', title: 'Rotate a webhook secret', beyondSpec: AGENT_PARITY,
    description: 'A new signing secret, shown once; for 24 hours deliveries carry signatures with both the new and the old secret.',
    input: SubscriptionIdInput, output: RotateResponse, access: admin, cost: 'write', annotations: WRITE,
    rest: { method: 'POST', path: '/webhooks/:id/rotate-secret', status: 200 },
    run: (ctx, input) => rotateSecret(ctx.deps, ctx.principal!, input.id),
    nextSteps: afterRotate,
  }),
  defineOperation({
    name: 'webhooks.deliveries', domain: 'webhooks', title: 'Webhook deliveries', beyondSpec: AGENT_PARITY,
    description: "A subscription's deliveries, newest first, each with every attempt (status code, latency, first 1 KB of the answer, error).",
    input: ListDeliveriesInput, output: ListDeliveriesResponse, access: reader, cost: 'read', annotations: READ,
    rest: { method: 'GET', path: '/webhooks/:id/deliveries' },
    run: (ctx, input) => listDeliveries(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'webhooks.redeliver', domain: 'webhooks', title: 'Redeliver a webhook', beyondSpec: AGENT_PARITY,
    description: 'Send one delivery again (same webhook-id, so receivers can tell), with the retry schedule.',
    input: RedeliverInput, output: RedeliverResponse, access: admin, cost: 'write', annotations: WRITE,
    rest: { method: 'POST', path: '/webhooks/deliveries/:id/redeliver', status: 202 },
    run: (ctx, input) => redeliver(ctx.deps, ctx.principal!, input.id),
    nextSteps: afterRedeliver,
  }),
  defineOperation({
    name: 'webhooks.recover', domain: 'webhooks', title: 'Recover failed webhooks', beyondSpec: AGENT_PARITY,
    description: 'Redeliver every failed delivery of a subscription created since a time (up to 1,000).',
    input: RecoverInput, output: RecoverResponse, access: admin, cost: 'write', annotations: WRITE,
    rest: { method: 'POST', path: '/webhooks/:id/recover', status: 202 },
    run: (ctx, input) => recover(ctx.deps, ctx.principal!, input),
    nextSteps: afterRecover,
  }),
]
