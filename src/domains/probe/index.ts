// Probe (temporary): a tool, a table and a workflow, added in this folder alone.
import Type from 'typebox'
import { WRITE } from '../../core/annotations.js'
import { defineDomain } from '../../core/domain.js'
import { defineOperation } from '../../core/operation.js'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../temporal/contract.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { probePing, probePingWorkflowId, type ProbePingActivities, type ProbePingInput } from './workflows/probe-ping.js'

export const probePingDefinition = defineWorkflow<ProbePingActivities>()({
  workflow: probePing, id: probePingWorkflowId, idConflictPolicy: 'USE_EXISTING', idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Probe: answers one ping.',
})

async function answerPing(deps: Deps, input: ProbePingInput) {
  const rows = await withTenant(deps.db, input.companyId, (tx) => tx`update probe_pings set answered_at = now() where id = ${input.pingId} returning id`)
  return { answered: rows.length === 1 }
}

const ping = defineOperation({
  name: 'probe.ping', domain: 'probe', title: 'Ping', description: 'Record a ping; a workflow answers it.',
  beyondSpec: 'A probe that shows what adding a tool, a table and a workflow touches.',
  access: { scope: 'leads', permission: 'write' }, cost: 'write', annotations: WRITE,
  input: Type.Object({ word: Type.String({ maxLength: 50 }) }),
  output: Type.Object({ ping_id: Type.String(), workflow_id: Type.String() }),
  run: (ctx, input) => withTenantThenStart(ctx.deps, ctx.principal!.companyId, async (tx, start) => {
    const [row] = await tx<{ id: string }[]>`insert into probe_pings (company_id, word) values (${ctx.principal!.companyId}, ${input.word}) returning id`
    const spec = workflowStart(probePingDefinition, { companyId: ctx.principal!.companyId, pingId: row!.id })
    await start(spec)
    return { ping_id: row!.id, workflow_id: spec.workflowId }
  }),
})

export const probeDomain = defineDomain({
  name: 'probe',
  description: 'Probe: one tool, one table, one workflow.',
  operations: [ping],
  activities: (deps) => ({ answerPing: (input: ProbePingInput) => answerPing(deps, input) }) satisfies ProbePingActivities,
  workflows: [probePingDefinition],
})
