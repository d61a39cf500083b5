// A company's choices for one automation (automation_settings; the catalogue's defaults where the
// company chose nothing), and the record of each run (automation_runs) that workflows.list shows.
import type postgres from 'postgres'
import { validatorFor } from '../../../core/validation.js'
import type { AutomationEntry, SettingsOf } from './catalogue.js'

export interface AutomationChoice<S = Record<string, unknown>> {
  enabled: boolean
  needsApproval: boolean
  /** The automation's settings with its schema's defaults filled in. */
  settings: S
}

/** The company's choice for an automation, or its entry's defaults. Run inside withTenant. */
export async function automationChoice<E extends AutomationEntry>(tx: postgres.TransactionSql, entry: E): Promise<AutomationChoice<SettingsOf<E>>> {
  const [row] = await tx<{ enabled: boolean; needs_approval: boolean; settings: Record<string, unknown> }[]>`
    select enabled, needs_approval, settings from automation_settings where automation = ${entry.key}`
  const settings = validatorFor(entry.settings).Default(structuredClone(row?.settings ?? {})) as SettingsOf<E>
  return { enabled: row?.enabled ?? entry.enabledByDefault, needsApproval: row?.needs_approval ?? false, settings }
}

export interface RunStart {
  companyId: string
  automation: string
  workflowId: string
  subjectType?: string
  subjectId?: string
}

/** Records that a run began; a second call for the same workflow id (a retried activity) changes nothing. */
export async function recordRunStarted(tx: postgres.TransactionSql, run: RunStart, now: Date): Promise<void> {
  await tx`
    insert into automation_runs (company_id, automation, workflow_id, subject_type, subject_id, started_at)
    values (${run.companyId}, ${run.automation}, ${run.workflowId}, ${run.subjectType ?? null}, ${run.subjectId ?? null}, ${now})
    on conflict (company_id, workflow_id) do nothing`
}

/**
 * Appends a step ({at, step, result}) to the run once: a step already recorded under the same name
 * (a retried activity) is not added again.
 */
export async function recordRunStep(tx: postgres.TransactionSql, workflowId: string, step: string, result: string, now: Date): Promise<void> {
  await tx`
    update automation_runs
    set details = details || ${tx.json([{ at: now.toISOString(), step, result }])}::jsonb
    where workflow_id = ${workflowId}
      and not exists (select 1 from jsonb_array_elements(details) d where d->>'step' = ${step})`
}

/** Closes the run with its outcome (completed, stopped or failed); the first close wins. */
export async function recordRunFinished(
  tx: postgres.TransactionSql, workflowId: string, status: 'completed' | 'stopped' | 'failed', outcome: string, now: Date,
): Promise<void> {
  await tx`
    update automation_runs set status = ${status}, outcome = ${outcome}, finished_at = ${now}
    where workflow_id = ${workflowId} and status = 'running'`
}
