// Activities the long-running automations (quote follow-ups, payment chases) use to keep their
// automation_runs record current: each step once (appendRunStep is idempotent per step name), where
// the run is now (progress, migration 019), and its close (the first close wins).
import type { Deps } from '../../../core/deps.js'
import { withTenant } from '../../../db/sql.js'
import { appendRunStep, lockRunStatus, markRunFinished, updateRunProgress } from './queries/runs.js'
import type { RunFinishRecord, RunStepRecord } from '../../../../workflows/automation-run.js'

export type { RunFinishRecord, RunStepRecord }

export async function recordAutomationStep(deps: Deps, input: RunStepRecord): Promise<void> {
  await withTenant(deps.db, input.companyId, async (tx) => {
    await appendRunStep(tx, input.workflowId, input.step, input.result, deps.clock.now())
    await updateRunProgress(tx, input.workflowId, input.progress)
  })
}

export async function finishAutomationRun(deps: Deps, input: RunFinishRecord): Promise<void> {
  await withTenant(deps.db, input.companyId, async (tx) => {
    const open = await lockRunStatus(tx, input.workflowId)
    if (open?.status !== 'running') return
    await updateRunProgress(tx, input.workflowId, input.progress)
    await markRunFinished(tx, input.workflowId, input.status, input.outcome, deps.clock.now())
  })
}
