// workflows.sync_contact: push a lead or client to the company's connected accounting packages,
// through the same path as integrations.push_entity and the sync workflow (matched by email, then
// name, before anything is created; an Idempotency-Key from the connection and the lead, so a
// retried call makes no second contact). Without a connection it pushes nothing and says so. Either
// way it checks the lead (not_found across companies) and records the run with its outcome
// (workflows.list shows it).
import { randomUUID } from 'node:crypto'
import Type, { type Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound } from '../../../core/errors.js'
import { StringEnum } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun, markRunFinished } from '../engine/queries/runs.js'
import { syncContactAutomation } from './automation.js'
import { findContact } from './queries.js'
import { activeConnectionIds } from '../../integrations/queries.js'
import { pushContactNow } from '../../integrations/push.js'
import { isUuid } from '../../../core/uuid.js'

export const SYNC_CONTACT = syncContactAutomation.key

/** Why nothing was pushed, and what to do: the same words in the answer and the run's outcome. */
export const NO_INTEGRATION =
  'No accounting integration is connected, so nothing was pushed. See integrations.available_providers for what can be connected, and connect one with integrations.connect; integrations.list_connections shows the connections there are.'

export const SyncContactOutput = Type.Object({
  synced: Type.Boolean({ description: 'true when the contact was pushed to at least one connection' }),
  leadId: Type.String(),
  contactType: StringEnum(['lead', 'client'] as const, { description: 'client: the lead has at least one job' }),
  name: Type.String(),
  results: Type.Array(
    Type.Object({
      connectionId: Type.String(), provider: Type.String(),
      status: StringEnum(['created', 'matched', 'already_linked', 'failed'] as const, {
        description: 'created there; matched to a contact already there (email, then name: not duplicated); already linked by an earlier push; or failed (error says why)',
      }),
      externalId: Type.Union([Type.String(), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'One per connection the contact was pushed to (empty: none is connected)' },
  ),
  message: Type.String({ description: 'What happened and what to do next' }),
  temporalWorkflowId: Type.String({ description: 'The run recorded for this call (workflows.list lastRuns)' }),
})

type Result = Static<typeof SyncContactOutput>['results'][number]

export async function syncContact(deps: Deps, principal: Principal, input: { lead_id: string; connection_id?: string }): Promise<Static<typeof SyncContactOutput>> {
  const companyId = principal.companyId
  if (!isUuid(input.lead_id)) throw notFound('Lead')
  const checked = await withTenant(deps.db, companyId, async (tx) => {
    const lead = await findContact(tx, input.lead_id)
    if (!lead) throw notFound('Lead')
    const connections = await activeConnectionIds(tx)
    if (input.connection_id !== undefined && !connections.some((c) => c.id === input.connection_id)) {
      throw new AppError('not_found', `Connection was not found. ${connections.length ? 'See integrations.list_connections for the active ones.' : NO_INTEGRATION}`)
    }
    if (!(await automationChoice(tx, syncContactAutomation)).enabled) {
      throw new AppError('conflict', 'Contact sync is turned off for this company; turn it on with workflows.toggle (workflow_id sync_contact). Nothing was pushed.')
    }
    return { lead, connections: connections.filter((c) => input.connection_id === undefined || c.id === input.connection_id) }
  })
  const { lead, connections } = checked
  const contactType = lead.jobs > 0 ? 'client' as const : 'lead' as const
  // Pushed here and now (one contact is a few calls), so the answer says what happened; the run is recorded opened and closed.
  const results: Result[] = []
  for (const c of connections) {
    const pushed = await pushContactNow(deps, companyId, c.id, input.lead_id)
    results.push({ connectionId: c.id, provider: c.provider, status: pushed.status, externalId: pushed.providerId, error: pushed.error })
  }
  const synced = results.some((r) => r.status !== 'failed')
  const message = !connections.length
    ? NO_INTEGRATION
    : results.map((r) => r.status === 'failed' ? `${r.provider}: failed (${r.error}); sync again later, nothing is duplicated` : `${r.provider}: ${r.status.replace('_', ' ')} (contact ${r.externalId})`).join('; ')
  const workflowId = `sync-contact:${companyId}:${input.lead_id}:${randomUUID()}`
  const now = deps.clock.now()
  await withTenant(deps.db, companyId, async (tx) => {
    await insertRun(tx, { companyId, automation: SYNC_CONTACT, workflowId, subjectType: 'lead', subjectId: input.lead_id }, now)
    await markRunFinished(tx, workflowId, synced ? 'completed' : 'stopped', connections.length ? message : 'nothing pushed: no accounting integration is connected', now)
  })
  return { synced, leadId: input.lead_id, contactType, name: lead.name, results, message, temporalWorkflowId: workflowId }
}
