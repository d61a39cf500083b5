import Type from 'typebox'
import { afterInstantResponse } from '../engine/next-steps.js'
import { defineOperation } from '../../../core/operation.js'
import { SEND } from '../../../core/annotations.js'
import { notFound } from '../../../core/errors.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { withTenant } from '../../../db/sql.js'
import { findLead } from '../../leads/queries.js'
import { messageViews } from '../../comms/preview.js'
import { DryRun, RunMessageFields } from '../../shared-schema.js'
import { enqueueWorkflow } from '../../../temporal/outbox.js'
import { instantResponseStart, previewInstantResponse } from './instant-response.js'
import { instantResponseWorkflowId } from './workflows/instant-response.js'

export const automationOperations = [
  defineOperation({
    name: 'workflows.instant_response',
    domain: 'workflows',
    title: 'Instant lead response',
    description: 'Send a lead the instant reply (SMS to an Australian mobile within 30 seconds, and an email when it has one) and mark it Contacted. Runs by itself for every new lead (automation instant_response, default on); call it to run it for a lead now. It never sends a message twice for the same lead, does nothing once the lead has left New, and runs again on request only after a run that could send nothing.',
    input: Type.Object({ lead_id: Type.String({ format: 'uuid', description: 'The lead to answer' }), dry_run: DryRun }, { additionalProperties: false }),
    output: Type.Object({
      workflow_id: Type.String({ description: 'Temporal workflow id; inspect the run in the Temporal UI' }),
      started: Type.Boolean({ description: 'False when the start could not be confirmed yet (it will be retried automatically), or on a dry run' }),
      skipped: Nullable(Type.String({ description: 'Dry run: why the run would send nothing (the lead left New, instant response off, no contact); otherwise null' })),
      ...RunMessageFields,
    }),
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...SEND, idempotentHint: true },
    nextSteps: afterInstantResponse,
    async run(ctx, input) {
      const companyId = ctx.principal!.companyId
      if (input.dry_run) {
        return withTenant(ctx.deps.db, companyId, async (tx) => {
          if (!(await findLead(tx, input.lead_id))) throw notFound('Lead')
          const { skipped, messages } = await previewInstantResponse(tx, input.lead_id)
          return { workflow_id: instantResponseWorkflowId({ companyId, leadId: input.lead_id }), started: false, skipped, dry_run: true, messages: await messageViews(tx, messages) }
        })
      }
      const item = await withTenant(ctx.deps.db, companyId, async (tx) => {
        if (!(await findLead(tx, input.lead_id))) throw notFound('Lead')
        // On request the promise runs from now; a run that failed may run again (the id's reuse policy).
        return enqueueWorkflow(tx, instantResponseStart(companyId, input.lead_id, ctx.deps.clock.now()))
      })
      return { workflow_id: item.workflow_id, started: await ctx.deps.workflows.dispatch(item), skipped: null, dry_run: false, messages: [] }
    },
  }),
]
