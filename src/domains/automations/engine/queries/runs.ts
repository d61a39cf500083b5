// Automation run SQL (automation_runs): a run's start, its steps once each, where it is now
// (progress) and its close, and the latest runs workflows.list shows. Every function takes the
// tenant transaction from withTenant().
import type postgres from 'postgres'

export interface RunStart {
  companyId: string
  automation: string
  workflowId: string
  subjectType?: string
  subjectId?: string
}

/** Records that a run began; a second call for the same workflow id (a retried activity) changes nothing. */
export async function insertRun(tx: postgres.TransactionSql, run: RunStart, now: Date): Promise<void> {
  await tx`
    insert into automation_runs (company_id, automation, workflow_id, subject_type, subject_id, started_at)
    values (${run.companyId}, ${run.automation}, ${run.workflowId}, ${run.subjectType ?? null}, ${run.subjectId ?? null}, ${now})
    on conflict (company_id, workflow_id) do nothing`
}

/**
 * Appends a step ({at, step, result}) to the run once: a step already recorded under the same name
 * (a retried activity) is not added again.
 */
export async function appendRunStep(tx: postgres.TransactionSql, workflowId: string, step: string, result: string, now: Date): Promise<void> {
  await tx`
    update automation_runs
    set details = details || ${tx.json([{ at: now.toISOString(), step, result }])}::jsonb
    where workflow_id = ${workflowId}
      and not exists (select 1 from jsonb_array_elements(details) d where d->>'step' = ${step})`
}

/** Closes the run with its outcome (completed, stopped or failed); the first close wins. */
export async function markRunFinished(
  tx: postgres.TransactionSql, workflowId: string, status: 'completed' | 'stopped' | 'failed', outcome: string, now: Date,
): Promise<void> {
  await tx`
    update automation_runs set status = ${status}, outcome = ${outcome}, finished_at = ${now}
    where workflow_id = ${workflowId} and status = 'running'`
}

/** Where the run is now (migration 019); nothing without a progress. */
export async function updateRunProgress(tx: postgres.TransactionSql, workflowId: string, progress: Record<string, unknown> | undefined): Promise<void> {
  if (progress) await tx`update automation_runs set progress = ${tx.json(progress as postgres.JSONValue)} where workflow_id = ${workflowId}`
}

/** The run's status, its row locked until the transaction ends. */
export async function lockRunStatus(tx: postgres.TransactionSql, workflowId: string): Promise<{ status: string } | undefined> {
  const [open] = await tx<{ status: string }[]>`select status from automation_runs where workflow_id = ${workflowId} for no key update`
  return open
}

export interface RunRow {
  automation: string
  workflow_id: string
  status: 'running' | 'completed' | 'stopped' | 'failed'
  outcome: string | null
  subject_type: string | null
  subject_id: string | null
  started_at: Date
  finished_at: Date | null
}

/** The latest `perAutomation` runs of each automation, newest first. */
export async function listLatestRuns(tx: postgres.TransactionSql, automations: string[], perAutomation: number): Promise<RunRow[]> {
  return tx<RunRow[]>`
    select r.automation, r.workflow_id, r.status, r.outcome, r.subject_type, r.subject_id::text, r.started_at, r.finished_at
    from unnest(${automations}::text[]) as a(key)
    cross join lateral (
      select * from automation_runs where automation = a.key order by started_at desc, id desc limit ${perAutomation}
    ) r`
}
