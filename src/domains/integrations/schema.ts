import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { ACCOUNTING_ENTITIES, ACCOUNTING_PROVIDERS } from '../../providers/accounting/provider.js'
import { closed, Id } from '../shared-schema.js'

export const CONNECTION_STATUSES = ['active', 'error', 'disconnected'] as const
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number]

export const CATEGORIES = ['accounting', 'payments', 'crm', 'job_management', 'calendar', 'marketing'] as const
export const Category = StringEnum(CATEGORIES, { description: 'Kind of system' })
export const ConnectionId = Id('Integration connection (see integrations.list_connections)')
const Provider = StringEnum(ACCOUNTING_PROVIDERS, { description: 'Accounting package' })
const Entity = StringEnum(ACCOUNTING_ENTITIES)

export const CapabilitiesSchema = Type.Object({
  pull: Type.Array(Entity, { description: 'Records read from the provider' }),
  push: Type.Array(Entity, { description: 'Records created or updated there' }),
  webhooks: Type.Boolean({ description: 'The provider tells us of changes' }),
  idempotent_writes: Type.Boolean({ description: 'A retried write never makes a second record there' }),
})

export const RateLimitsSchema = Type.Object({
  minute_remaining: Nullable(Type.Integer({ description: 'Calls left this minute, as the provider last said' })),
  day_remaining: Nullable(Type.Integer({ description: 'Calls left today, as the provider last said' })),
  seen_at: Nullable(DateTime()),
})

export const ConnectionSchema = Type.Object({
  id: Type.String(),
  provider: Provider,
  category: StringEnum(['accounting'] as const),
  tenant_id: Type.String({ description: "The provider's organisation id (Xero tenant)" }),
  tenant_name: Nullable(Type.String()),
  status: StringEnum(CONNECTION_STATUSES),
  capabilities: CapabilitiesSchema,
  scopes: Type.Array(Type.String()),
  access_token_expires_at: DateTime(),
  last_error: Nullable(Type.String()),
  last_error_at: Nullable(DateTime()),
  rate_limits: RateLimitsSchema,
  createdAt: DateTime(),
  updated_at: DateTime(),
})

export const AvailableProvidersInput = Type.Object({ category: Type.Optional(Category) }, closed)
export const AvailableProvidersResponse = Type.Object({
  providers: Type.Array(Type.Object({
    provider: Provider,
    name: Type.String(),
    category: StringEnum(['accounting'] as const),
    available: Type.Boolean({ description: 'Can be connected in this deployment' }),
    unavailable_reason: Nullable(Type.String({ description: 'Why not, when not available' })),
    connected: Type.Boolean({ description: 'The company has an active connection to it' }),
    capabilities: CapabilitiesSchema,
    limits: Type.String({ description: "The provider's own rate and token limits" }),
  })),
})

export const ConnectInput = Type.Object({
  provider: Provider,
}, closed)
export const ConnectResponse = Type.Object({
  provider: Provider,
  authorise_url: Type.String({ description: 'Open this as the owner, signed in to the provider, to grant access; valid for 30 minutes' }),
  redirect_uri: Type.String({ description: 'Where the provider sends the owner back (must be registered in the provider app)' }),
  expires_at: DateTime(),
})

export const ListConnectionsInput = Type.Object(
  {
    status: Type.Optional(StringEnum(CONNECTION_STATUSES, { description: 'Only connections in this status' })),
    category: Type.Optional(Category),
    ...PagingInput,
  },
  closed,
)
export const ConnectionListResponse = Type.Object({ connections: Type.Array(ConnectionSchema), ...PageFields })

export const ConnectionStatusInput = Type.Object({ connection_id: ConnectionId }, closed)
export const ConnectionStatusResponse = Type.Object({
  connection: ConnectionSchema,
  entities: Type.Array(Type.Object({
    entity_type: Entity,
    direction: StringEnum(['pull', 'push'] as const),
    last_synced_at: Nullable(DateTime()),
    last_result: Nullable(StringEnum(['ok', 'error'] as const)),
    last_error: Nullable(Type.String()),
    records_done: Type.Integer(),
  }), { description: 'Last sync per entity type and direction' }),
  linked_records: Type.Integer({ description: 'Our records linked to records there' }),
  webhook_events_waiting: Type.Integer({ description: 'Webhook events received and not yet synced' }),
  sync_workflow_id: Type.String({ description: "The connection's sync workflow (integrations.sync starts it or asks it for a round)" }),
})

export const PUSHABLE = ['lead', 'job', 'invoice'] as const
export const PushEntityInput = Type.Object(
  {
    connection_id: ConnectionId,
    entity_type: StringEnum(PUSHABLE, { description: 'Kind of record to push: a lead or client (a contact there) or an invoice or credit note (its client goes first); a job is refused (accounting packages keep none)' }),
    entity_id: Id('Id of the lead or invoice'),
  },
  closed,
)
export const PushEntityResponse = Type.Object({
  entity_type: StringEnum(PUSHABLE),
  entity_id: Type.String(),
  provider_id: Type.String({ description: "The record's id at the provider" }),
  provider_number: Nullable(Type.String()),
  outcome: StringEnum(['created', 'matched', 'already_linked'] as const, {
    description: 'created there; matched to a record already there (contacts: by ABN, then email, then name); or linked by an earlier push',
  }),
  matched_by: Nullable(StringEnum(['abn', 'email', 'name'] as const)),
  contact: Nullable(Type.Object({ provider_id: Type.String(), outcome: StringEnum(['created', 'matched', 'already_linked'] as const) })),
  rate_limits: RateLimitsSchema,
})

export const SyncInput = Type.Object({ connection_id: ConnectionId }, closed)
export const SyncResponse = Type.Object({
  connection_id: Type.String(),
  workflow_id: Type.String({ description: "The connection's sync workflow (one per connection); integrations.connection_status shows what each round did" }),
  requested: Type.Boolean({ description: 'true: a round was asked for now (the workflow was started if it was not running)' }),
})
