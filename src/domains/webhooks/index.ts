import { defineDomain } from '../../core/domain.js'
import { webhookOperations } from './operations.js'
import { attemptWebhookDelivery, webhookDeliveryDefinition } from './delivery.js'
import { deliverWebhookBatch, webhookDeliveriesDefinition } from './delivery-batch.js'
import type { WebhookDeliveryActivities } from './workflows/webhook-delivery.js'
import type { WebhookDeliveriesActivities } from './workflows/webhook-deliveries.js'

export const webhooksDomain = defineDomain({
  name: 'webhooks',
  description: 'Signed outbound webhooks: subscriptions, durable delivery with retries, every attempt listed and redeliverable.',
  operations: webhookOperations,
  activities: (deps) => ({
    // The per-delivery workflow's activity, kept while runs started before the batch design drain.
    attemptWebhookDelivery: (input) => attemptWebhookDelivery(deps, input),
    deliverWebhookBatch: (input) => deliverWebhookBatch(deps, input),
  }) satisfies WebhookDeliveryActivities & WebhookDeliveriesActivities,
  // webhookDelivery: one workflow per delivery, no longer started; registered until its runs end.
  workflows: [webhookDeliveriesDefinition, webhookDeliveryDefinition],
  usageCounts: { webhooks: 'select count(*)::int from webhook_subscriptions where deleted_at is null' },
})
