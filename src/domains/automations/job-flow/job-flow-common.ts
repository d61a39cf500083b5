// Pieces the job-flow automations (schedule_job, trigger_invoice, quote_to_invoice, process_lead)
// share: acting for a company from a worker, the run number that keys a repeatable run, waiting
// briefly for a short run's result, and turning a domain refusal into a stopped run.
import type postgres from 'postgres'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound } from '../../../core/errors.js'
import { StringEnum } from '../../../core/schema-helpers.js'
import { isUuid } from '../../../core/uuid.js'
import { countRuns } from './queries.js'

/** An id that is not a uuid names nothing: not_found, as another company's id does. */
export function assertId(id: string, what: string): void {
  if (!isUuid(id)) throw notFound(what)
}

/**
 * The principal an activity acts as. The domain services these automations reuse (jobs, invoicing,
 * leads, reminders) read only the company id from it; the tool call that started the run was
 * authorised already.
 */
export const actingFor = (companyId: string): Principal => ({ companyId }) as Principal

/** How long a tool waits for its short run before answering 'running' (the run carries on). */
export const SHORT_RUN_WAIT_MS = 15_000

export const RunStatus = StringEnum(['completed', 'stopped', 'running', 'failed'] as const, {
  description: 'completed: done; stopped: refused or nothing to do (outcome says why); running: not finished yet, see workflows.list; failed: see outcome',
})

/** 1 + the runs this automation had on this subject: a repeatable run's id (schedule a job again next week). */
export async function nextRunNumber(tx: postgres.TransactionSql, automation: string, subjectId: string): Promise<number> {
  return (await countRuns(tx, automation, subjectId)) + 1
}

/** A domain refusal (the job moved on meanwhile, say) stops the run with the refusal's message; anything else is retried. */
export async function orStopped<T>(work: () => Promise<T>): Promise<{ ok: T; stop: null } | { ok: null; stop: string }> {
  try {
    return { ok: await work(), stop: null }
  } catch (error) {
    if (error instanceof AppError && error.code !== 'internal_error' && error.code !== 'worker_unavailable') return { ok: null, stop: error.message }
    throw error
  }
}

export interface ShortRunAnswer<R> { status: 'completed' | 'stopped' | 'running' | 'failed'; result: R | null; outcome: string | null }

/** Waits for a short run (SHORT_RUN_WAIT_MS at most) and says where it is. */
export async function awaitShortRun<R extends { outcome: string; stopped: boolean }>(deps: Deps, workflowId: string): Promise<ShortRunAnswer<R>> {
  const answer = await deps.workflows.result<R>(workflowId, SHORT_RUN_WAIT_MS)
  if (answer.outcome === 'done') return { status: answer.result.stopped ? 'stopped' : 'completed', result: answer.result, outcome: answer.result.outcome }
  if (answer.outcome === 'failed') return { status: 'failed', result: null, outcome: answer.message }
  return { status: 'running', result: null, outcome: null }
}
