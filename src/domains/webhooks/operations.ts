import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, WRITE } from '../../core/planned.js'
import { StringEnum } from '../../core/schema-helpers.js'
import { closed, Id, Paging } from '../shared-schema.js'

const capability = 'Webhooks'

/** MCP event names first, then the REST endpoint's dotted names (spec section 6). */
export const WEBHOOK_EVENTS = [
  'lead_created',
  'lead_updated',
  'quote_created',
  'quote_accepted',
  'job_created',
  'job_completed',
  'invoice_sent',
  'payment_received',
  'lead.created',
  'lead.updated',
  'quote.sent',
  'quote.accepted',
  'job.completed',
  'job.scheduled',
  'payment.received',
  'invoice.sent',
] as const

export const webhooksPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'webhooks.subscribe',
    title: 'Subscribe a webhook',
    description:
      'Subscribe a URL to events. Each event is delivered as an HTTP POST with a JSON body, signed with HMAC-SHA256 in the X-Webhook-Signature header; failed deliveries are retried. Accepts the MCP event names (lead_created, ...) and the REST names (lead.created, ...).',
    input: Type.Object(
      {
        url: Type.String({ format: 'uri', pattern: '^https?://', description: 'Endpoint that receives the POSTs (https recommended)' }),
        events: Type.Array(StringEnum(WEBHOOK_EVENTS), { minItems: 1, uniqueItems: true, description: 'Events to receive' }),
        description: Type.Optional(Type.String({ maxLength: 200, description: 'Label for the subscription' })),
      },
      closed,
    ),
    access: { permission: 'admin', feature: 'webhookInbound' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'webhooks.unsubscribe',
    title: 'Remove a webhook',
    description: 'Delete a webhook subscription by its id; no further events are delivered to its URL.',
    input: Type.Object({ subscription_id: Id('Webhook subscription to remove (see webhooks.list)') }, closed),
    access: { permission: 'admin', feature: 'webhookInbound' },
    cost: 'write',
    annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    capability,
  }),
  plannedTool({
    name: 'webhooks.list',
    title: 'List webhooks',
    description: "List the company's webhook subscriptions: id, URL and subscribed events. Cursor-paginated.",
    input: Type.Object({ ...Paging }, closed),
    access: { permission: 'read', feature: 'webhookInbound' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
