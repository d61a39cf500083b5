// What follows an integrations call (core/next-steps.ts): an available provider is connected, a
// connection in error is connected again, an active one gets its records pushed.
import { steps, type NextStep } from '../../core/next-steps.js'

interface ProvidersResult { providers: { provider: string; name: string; available: boolean; connected: boolean }[] }

export function afterAvailableProviders(output: ProvidersResult): NextStep[] {
  const connectable = output.providers.find((p) => p.available && !p.connected)
  return steps(connectable && { tool: 'integrations.connect', why: `Connect ${connectable.name} (provider ${connectable.provider}): the owner opens the link it returns.` })
}

export function afterConnect(output: { provider: string }): NextStep[] {
  return steps({ tool: 'integrations.list_connections', why: `After the owner grants access at the link, the ${output.provider} connection is listed as active.` })
}

interface StatusResult { connection: { id: string; provider: string; status: string } }

export function afterConnectionStatus(output: StatusResult): NextStep[] {
  const c = output.connection
  return steps(
    c.status === 'error' && { tool: 'integrations.connect', why: `Connection ${c.id} needs a new grant (provider ${c.provider}).` },
    c.status === 'active' && { tool: 'integrations.push_entity', why: `Send an invoice or client now (connection_id ${c.id}).` },
  )
}

export function afterPush(output: { entity_type: string; provider_id: string }): NextStep[] {
  return steps(output.entity_type === 'lead' && { tool: 'invoicing.list', why: 'Push the client\'s invoices too (entity_type invoice).' })
}

export function afterSync(output: { connection_id: string; requested: boolean }): NextStep[] {
  return steps(output.requested && { tool: 'integrations.connection_status', why: `See what the round did per record type, and any errors (connection_id ${output.connection_id}).` })
}
