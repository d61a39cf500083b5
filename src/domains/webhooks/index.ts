import { defineDomain } from '../../core/domain.js'
import { webhookOperations } from './operations.js'
import { attemptWebhookDelivery, webhookDeliveryDefinition } from './delivery.js'
import type { WebhookDeliveryActivities } from './workflows/webhook-delivery.js'

export const webhooksDomain = defineDomain({
  name: 'webhooks',
  description: 'Signed outbound webhooks: subscriptions, durable delivery with retries, every attempt listed and redeliverable.',
  operations: webhookOperations,
  activities: (deps) => ({
    attemptWebhookDelivery: (input) => attemptWebhookDelivery(deps, input),
  }) satisfies WebhookDeliveryActivities,
  workflows: [webhookDeliveryDefinition],
  usageCounts: { webhooks: 'select count(*)::int from webhook_subscriptions where deleted_at is null' },
})
