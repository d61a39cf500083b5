// Activities the long-running automations (quote follow-ups, payment chases) use to keep their
// automation_runs record current: each step once (recordRunStep is idempotent per step name), where
// the run is now (progress, migration 019), and its close (the first close wins).
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import { withTenant } from '../../../db/sql.js'
import { recordRunFinished, recordRunStep } from './settings.js'
import type { RunFinishRecord, RunStepRecord } from '../../../../workflows/automation-run.js'

export type { RunFinishRecord, RunStepRecord }

async function setProgress(tx: postgres.TransactionSql, workflowId: string, progress: Record<string, unknown> | undefined) {
  if (progress) await tx`update automation_runs set progress = ${tx.json(progress as postgres.JSONValue)} where workflow_id = ${workflowId}`
}

export async function recordAutomationStep(deps: Deps, input: RunStepRecord): Promise<void> {
  await withTenant(deps.db, input.companyId, async (tx) => {
    await recordRunStep(tx, input.workflowId, input.step, input.result, deps.clock.now())
    await setProgress(tx, input.workflowId, input.progress)
  })
}

export async function finishAutomationRun(deps: Deps, input: RunFinishRecord): Promise<void> {
  await withTenant(deps.db, input.companyId, async (tx) => {
    const [open] = await tx<{ status: string }[]>`select status from automation_runs where workflow_id = ${input.workflowId} for update`
    if (open?.status !== 'running') return
    await setProgress(tx, input.workflowId, input.progress)
    await recordRunFinished(tx, input.workflowId, input.status, input.outcome, deps.clock.now())
  })
}
