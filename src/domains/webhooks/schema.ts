import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { EVENTS_TO_SUBSCRIBE } from './events.js'

const closed = { additionalProperties: false } as const
const Id = (description: string) => Type.String({ format: 'uuid', description })

export const SubscriptionSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String(), { description: 'Canonical (dotted) event names' }),
  description: Nullable(Type.String()),
  status: StringEnum(['active', 'disabled'] as const),
  disabledReason: Nullable(Type.String()),
  failingSince: Nullable(DateTime({ description: 'First failed attempt since the last success' })),
  secretRotatedUntil: Nullable(DateTime({ description: 'Until then deliveries also carry a signature with the previous secret' })),
  createdAt: DateTime(),
})

export const SubscribeInput = Type.Object(
  {
    url: Type.String({ minLength: 8, maxLength: 2048, description: 'https endpoint that receives the POSTs (no private or loopback addresses)' }),
    events: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 40, description: `Events to receive: ${EVENTS_TO_SUBSCRIBE}` }),
    description: Type.Optional(Type.String({ maxLength: 200, description: 'Label for the subscription' })),
  },
  closed,
)
export const SubscribeResponse = Type.Object({
  subscription: SubscriptionSchema,
  secret: Type.String({ description: 'Signing secret (whsec_...): shown once. Verify webhook-signature (Standard Webhooks) or X-Webhook-Signature with it' }),
})

export const UnsubscribeInput = Type.Object({ subscription_id: Id('Webhook subscription to remove (see webhooks.list)') }, closed)
export const UnsubscribeResponse = Type.Object({ removed: Type.Boolean(), subscription_id: Type.String() })

export const ListSubscriptionsInput = Type.Object({ ...PagingInput }, closed)
export const ListSubscriptionsResponse = Type.Object({ webhooks: Type.Array(SubscriptionSchema), ...PageFields })

export const SubscriptionIdInput = Type.Object({ id: Id('Webhook subscription') }, closed)
export const RotateResponse = Type.Object({ subscription: SubscriptionSchema, secret: Type.String({ description: 'The new secret, shown once; the old one keeps signing for 24 hours' }) })

export const AttemptSchema = Type.Object({
  attempt: Type.Integer(), run: Type.Integer(), ok: Type.Boolean(), responseStatus: Nullable(Type.Integer()), latencyMs: Type.Integer(),
  responseBody: Nullable(Type.String({ description: 'First 1 KB' })), error: Nullable(Type.String()), at: DateTime(),
})
export const DeliverySchema = Type.Object({
  id: Type.String(), subscriptionId: Type.String(), eventId: Type.String(), eventType: Type.String(),
  status: StringEnum(['pending', 'delivered', 'failed'] as const), attempts: Type.Array(AttemptSchema), createdAt: DateTime(), deliveredAt: Nullable(DateTime()),
})
export const ListDeliveriesInput = Type.Object(
  { id: Id('Webhook subscription'), status: Type.Optional(StringEnum(['pending', 'delivered', 'failed'] as const)), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) },
  closed,
)
export const ListDeliveriesResponse = Type.Object({ deliveries: Type.Array(DeliverySchema) })
export const RedeliverInput = Type.Object({ id: Id('Delivery to send again') }, closed)
export const RedeliverResponse = Type.Object({ delivery: DeliverySchema, workflow_id: Type.String() })
export const RecoverInput = Type.Object({ id: Id('Webhook subscription'), since: DateTime({ description: 'Redeliver every failed delivery created since this time' }) }, closed)
export const RecoverResponse = Type.Object({ redelivered: Type.Integer(), workflow_ids: Type.Array(Type.String()) })
