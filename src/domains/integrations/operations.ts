import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND } from '../../core/planned.js'
import { DateTime, StringEnum } from '../../core/schema-helpers.js'
import { closed, Id, Paging } from '../shared-schema.js'

const capability = 'Operator and integrations'
const Category = StringEnum(['accounting', 'payments', 'crm', 'job_management', 'calendar', 'marketing'] as const, { description: 'Kind of system' })
const ConnectionId = Id('Integration connection (see integrations.list_connections)')

export const integrationsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'integrations.list_connections',
    title: 'List integration connections',
    description:
      "List the company's connections to outside systems (accounting, payments, CRM and others) with provider, status, capabilities (pull, push) and last sync.",
    input: Type.Object(
      {
        status: Type.Optional(StringEnum(['active', 'pending', 'error', 'disconnected'] as const, { description: 'Only connections in this status' })),
        category: Type.Optional(Category),
        ...Paging,
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'integrations.connection_status',
    title: 'Connection status',
    description: 'Health of one connection: status, capabilities, when it last synced and with what result, and any error to fix (such as expired authorisation).',
    input: Type.Object({ connection_id: ConnectionId }, closed),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'integrations.available_providers',
    title: 'Available providers',
    description: 'Providers the company can connect (accounting packages, payment processors and others), with category, capabilities (pull, push) and whether already connected.',
    input: Type.Object({ category: Type.Optional(Category) }, closed),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'integrations.sync',
    title: 'Sync a connection',
    description:
      'Run a sync on a connection now, exchanging records with the outside system. Needs an active connection. Returns counts of records pulled, pushed and failed.',
    input: Type.Object(
      {
        connection_id: ConnectionId,
        direction: Type.Optional(StringEnum(['pull', 'push', 'both'] as const, { default: 'both', description: 'Which way to sync, as far as the connection can' })),
        entity_types: Type.Optional(
          Type.Array(StringEnum(['lead', 'client', 'job', 'invoice', 'payment'] as const), { uniqueItems: true, description: 'Only these record types; all supported types when omitted' }),
        ),
        since: Type.Optional(DateTime({ description: 'Only records changed since this time; default since the last sync' })),
      },
      closed,
    ),
    access: { permission: 'admin' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'integrations.push_entity',
    title: 'Push a record',
    description:
      'Send one lead, job or invoice to an outside system now, creating or updating it there. Needs an active connection with push capability.',
    input: Type.Object(
      {
        connection_id: ConnectionId,
        entity_type: StringEnum(['lead', 'job', 'invoice'] as const, { description: 'Kind of record to push' }),
        entity_id: Id('Id of the lead, job or invoice'),
      },
      closed,
    ),
    access: { permission: 'write' },
    cost: 'write',
    annotations: SEND,
    capability,
  }),
]
