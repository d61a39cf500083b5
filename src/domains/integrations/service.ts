// Integrations: the providers this deployment can connect, the company's connections, and each
// connection's health. Connecting is connect.ts; pushing a record, push.ts; tokens, tokens.ts.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError } from '../../core/errors.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import { activeProviders, connectionActivity, findConnection, listConnectionRows, presentConnection } from './queries.js'
import { integrationSyncWorkflowId } from './workflows/integration-sync.js'
import type { AvailableProvidersInput, ConnectionStatusInput, ListConnectionsInput } from './schema.js'

export async function availableProviders(deps: Deps, principal: Principal, input: Static<typeof AvailableProvidersInput>) {
  // Only accounting packages have adapters so far; other categories list nothing rather than pretend.
  if (input.category && input.category !== 'accounting') return { providers: [] }
  const connected = await withTenant(deps.db, principal.companyId, (tx) => activeProviders(tx))
  return { providers: deps.accounting.listings().map((l) => ({ ...l, connected: connected.has(l.provider) })) }
}

export async function listConnections(deps: Deps, principal: Principal, input: Static<typeof ListConnectionsInput>) {
  const page = pageFrom(input)
  if (input.category && input.category !== 'accounting') return { connections: [], ...pageEnvelope([], 0, page) }
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => listConnectionRows(tx, { status: input.status }, page))
  const connections = rows.map((r) => presentConnection(deps.config, r))
  return { connections, ...pageEnvelope(connections, total, page) }
}

export async function connectionStatus(deps: Deps, principal: Principal, input: Static<typeof ConnectionStatusInput>) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const row = await findConnection(tx, input.connection_id)
    if (!row) throw new AppError('not_found', `No integration connection ${input.connection_id}; see integrations.list_connections.`)
    const sync_workflow_id = integrationSyncWorkflowId({ companyId: principal.companyId, connectionId: row.id })
    return { connection: presentConnection(deps.config, row), ...(await connectionActivity(tx, row.id)), sync_workflow_id }
  })
}
