import Type from 'typebox'
import { defineOperation } from '../../core/operation.js'
import { SEND } from '../../core/annotations.js'
import { notFound } from '../../core/errors.js'
import { withTenant } from '../../db/sql.js'
import { findLead } from '../leads/queries.js'
import { enqueueWorkflow } from '../../temporal/outbox.js'
import { instantResponseWorkflow } from './instant-response.js'

export const automationOperations = [
  defineOperation({
    name: 'workflows.instant_response',
    domain: 'workflows',
    title: 'Instant lead response',
    description: 'Send a lead the instant reply (SMS to an Australian mobile within 30 seconds, and an email when it has one) and mark it Contacted. Runs automatically for every new lead; call it to run it for a lead now. It never sends twice for the same lead, and does nothing once the lead has left New.',
    input: Type.Object({ lead_id: Type.String({ format: 'uuid', description: 'The lead to answer' }) }, { additionalProperties: false }),
    output: Type.Object({
      workflow_id: Type.String({ description: 'Temporal workflow id; inspect the run in the Temporal UI' }),
      started: Type.Boolean({ description: 'False when the start could not be confirmed yet; it will be retried automatically' }),
    }),
    access: { scope: 'leads', permission: 'write' },
    cost: 'write',
    annotations: { ...SEND, idempotentHint: true },
    async run(ctx, input) {
      const companyId = ctx.principal!.companyId
      const item = await withTenant(ctx.deps.db, companyId, async (tx) => {
        if (!(await findLead(tx, input.lead_id))) throw notFound('Lead')
        return enqueueWorkflow(tx, instantResponseWorkflow(companyId, input.lead_id))
      })
      return { workflow_id: item.workflow_id, started: await ctx.deps.workflows.dispatch(item) }
    },
  }),
]
