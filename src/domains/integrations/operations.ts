import { defineOperation, type AnyOperation } from '../../core/operation.js'
import { READ, SEND } from '../../core/planned.js'
import { connectLink } from './connect.js'
import { afterAvailableProviders, afterConnect, afterConnectionStatus, afterPush, afterSync } from './next-steps.js'
import { pushEntity } from './push.js'
import {
  AvailableProvidersInput, AvailableProvidersResponse, ConnectInput, ConnectionListResponse, ConnectionStatusInput, ConnectionStatusResponse,
  ConnectResponse, ListConnectionsInput, PushEntityInput, PushEntityResponse, SyncInput, SyncResponse,
} from './schema.js'
import { syncConnection } from './sync.js'
import { availableProviders, connectionStatus, listConnections } from './service.js'


export const integrationsOperations = [
  defineOperation({
    name: 'integrations.available_providers',
    domain: 'integrations',
    title: 'Available providers',
    description: 'Providers the company can connect (Xero, MYOB, QuickBooks Online), with capabilities (pull, push), limits, whether this deployment can connect each (and why not), and whether already connected.',
    input: AvailableProvidersInput,
    output: AvailableProvidersResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/integrations/providers' },
    run: (ctx, input) => availableProviders(ctx.deps, ctx.principal!, input),
    nextSteps: afterAvailableProviders,
  }),
  defineOperation({
    name: 'integrations.connect',
    domain: 'integrations',
    title: 'Connect a provider',
    description: "A link for the owner to grant access to their accounting package (OAuth); valid 30 minutes. Once granted, the connection appears in integrations.list_connections. Nothing changes until the owner grants access.",
    input: ConnectInput,
    output: ConnectResponse,
    access: { permission: 'admin' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'POST', path: '/integrations/connect', feature: 'restWrite' },
    beyondSpec: 'The spec lists connections but no way to make one: OAuth needs the owner to open a link, and this tool gives an agent that link.',
    run: async (ctx, input) => connectLink(ctx.deps, ctx.principal!, input),
    nextSteps: afterConnect,
  }),
  defineOperation({
    name: 'integrations.list_connections',
    domain: 'integrations',
    title: 'List integration connections',
    description: "The company's connections to outside systems with provider, organisation, status, capabilities (pull, push), token expiry, last error and rate limits left.",
    input: ListConnectionsInput,
    output: ConnectionListResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/integrations/connections' },
    run: (ctx, input) => listConnections(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'integrations.connection_status',
    domain: 'integrations',
    title: 'Connection status',
    description: 'Health of one connection: status, capabilities, last sync per record type and its result, errors to fix (such as expired authorisation), rate limits left as the provider last said, and webhook events waiting.',
    input: ConnectionStatusInput,
    output: ConnectionStatusResponse,
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/integrations/connections/:connection_id' },
    run: (ctx, input) => connectionStatus(ctx.deps, ctx.principal!, input),
    nextSteps: afterConnectionStatus,
  }),
  defineOperation({
    name: 'integrations.push_entity',
    domain: 'integrations',
    title: 'Push a record',
    description:
      'Send one lead (as a contact) or invoice (its client first) to the accounting package now. A contact already there is matched (ABN, then email, then name), never duplicated; a retried push reuses the first record. Needs an active connection.',
    input: PushEntityInput,
    output: PushEntityResponse,
    access: { permission: 'write' },
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/integrations/connections/:connection_id/push', feature: 'restWrite' },
    run: (ctx, input) => pushEntity(ctx.deps, ctx.principal!, input),
    nextSteps: afterPush,
  }),
]

export const integrationsSyncOperation = defineOperation({
  name: 'integrations.sync',
  domain: 'integrations',
  title: 'Sync a connection',
  description:
    "Ask the connection's sync workflow for a round now (starting it if it is not running): contacts both ways (matched by email, then name, never duplicated), invoices and credit notes out with our numbers, payments both ways. Returns the workflow id at once; integrations.connection_status shows each record type's last sync and errors. Needs an active connection (else connect with integrations.connect).",
  input: SyncInput,
  output: SyncResponse,
  access: { permission: 'admin' },
  cost: 'write',
  annotations: SEND,
  rest: { method: 'POST', path: '/integrations/connections/:connection_id/sync', feature: 'restWrite' },
  run: (ctx, input) => syncConnection(ctx.deps, ctx.principal!, input),
  nextSteps: afterSync,
})

export const integrationsPlannedTools: AnyOperation[] = []
