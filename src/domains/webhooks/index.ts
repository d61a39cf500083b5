import { defineDomain } from '../../core/domain.js'
import { webhookOperations } from './operations.js'
import { attemptWebhookDelivery, webhookDeliveryDefinition, type AttemptResult } from './delivery.js'

export const webhooksDomain = defineDomain({
  name: 'webhooks',
  description: 'Signed outbound webhooks: subscriptions, durable delivery with retries, every attempt listed and redeliverable.',
  operations: webhookOperations,
  activities: (deps) => ({
    attemptWebhookDelivery: (input: { companyId: string; deliveryId: string; run: number; attempt: number; last: boolean }): Promise<AttemptResult> => attemptWebhookDelivery(deps, input),
  }),
  workflows: [webhookDeliveryDefinition],
  usageCounts: { webhooks: 'select count(*)::int from webhook_subscriptions where deleted_at is null' },
})
