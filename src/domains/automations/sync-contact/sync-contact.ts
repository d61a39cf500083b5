// workflows.sync_contact: push a lead or client to the company's connected accounting (or CRM)
// integration. The integrations domain is not built in this deployment: there is no connections
// table and its tools answer not_implemented, so no company can have a connection. The tool says so
// honestly instead of pretending: it checks the lead (not_found across companies), records the run
// with its outcome (workflows.list shows it) and says what to do. When integrations land, the push
// goes here, as a workflow per lead and connection (the activity keyed on both).
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
import { isUuid } from '../../../core/uuid.js'

export const SYNC_CONTACT = syncContactAutomation.key

/** Why nothing was pushed, and what to do: the same words in the answer and the run's outcome. */
export const NO_INTEGRATION =
  'No accounting integration is connected, so nothing was pushed. Integrations (integrations.available_providers, integrations.list_connections) are not available in this deployment yet; until then, copy the contact into your accounting package by hand.'

export const SyncContactOutput = Type.Object({
  synced: Type.Boolean({ description: 'true when the contact was pushed to at least one connection' }),
  leadId: Type.String(),
  contactType: StringEnum(['lead', 'client'] as const, { description: 'client: the lead has at least one job' }),
  name: Type.String(),
  results: Type.Array(
    Type.Object({
      connectionId: Type.String(), provider: Type.String(),
      status: StringEnum(['created', 'updated', 'failed'] as const), externalId: Type.Union([Type.String(), Type.Null()]), error: Type.Union([Type.String(), Type.Null()]),
    }),
    { description: 'One per connection the contact was pushed to (empty: none is connected)' },
  ),
  message: Type.String({ description: 'What happened and what to do next' }),
  temporalWorkflowId: Type.String({ description: 'The run recorded for this call (workflows.list lastRuns)' }),
})

export async function syncContact(deps: Deps, principal: Principal, input: { lead_id: string; connection_id?: string }): Promise<Static<typeof SyncContactOutput>> {
  const companyId = principal.companyId
  if (!isUuid(input.lead_id)) throw notFound('Lead')
  const now = deps.clock.now()
  return withTenant(deps.db, companyId, async (tx) => {
    const lead = await findContact(tx, input.lead_id)
    if (!lead) throw notFound('Lead')
    // No connection exists in this deployment, so any connection_id names nothing.
    if (input.connection_id !== undefined) {
      throw new AppError('not_found', `Connection was not found. ${NO_INTEGRATION}`)
    }
    if (!(await automationChoice(tx, syncContactAutomation)).enabled) {
      throw new AppError('conflict', 'Contact sync is turned off for this company; turn it on with workflows.toggle (workflow_id sync_contact). Nothing was pushed.')
    }
    // Nothing runs (there is nothing to push to), so the record is the whole run: opened and closed here.
    const workflowId = `sync-contact:${companyId}:${input.lead_id}:${randomUUID()}`
    const contactType = lead.jobs > 0 ? 'client' as const : 'lead' as const
    await insertRun(tx, { companyId, automation: SYNC_CONTACT, workflowId, subjectType: 'lead', subjectId: input.lead_id }, now)
    await markRunFinished(tx, workflowId, 'stopped', 'nothing pushed: no accounting integration is connected', now)
    return { synced: false, leadId: input.lead_id, contactType, name: lead.name, results: [], message: NO_INTEGRATION, temporalWorkflowId: workflowId }
  })
}
