// Write-then-start. A domain change and an outbox row naming its workflow commit in one
// transaction; after commit the workflow is started, and a relay retries rows still unstarted
// (after a crash between commit and start). Starting twice is harmless: ids come from business
// keys and each workflow's definition (temporal/contract.ts) says what a second start does.
import type { Client } from '@temporalio/client'
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common'
import { isGrpcDeadlineError, ScheduleAlreadyRunning, ScheduleNotFoundError, ServiceError, WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client'
import type postgres from 'postgres'
import { withTenant, type Db } from '../db/sql.js'
import type { Logger } from '../logger.js'
import { currentTraceparent, inTraceOf } from '../tracing.js'
import { CompanyIdKey } from './search-attributes.js'
import { workflowType, type AnyWorkflowDefinition, type WorkflowSpec } from './contract.js'

export interface OutboxItem {
  id: string
  company_id: string
  workflow_type: string
  workflow_id: string
  input: unknown
  /** The W3C traceparent of the trace that queued it (migration 046); null outside a trace. */
  traceparent: string | null
}

export type { WorkflowSpec } from './contract.js'

export async function enqueueWorkflow(tx: postgres.TransactionSql, item: WorkflowSpec): Promise<OutboxItem> {
  const [row] = await tx<OutboxItem[]>`
    insert into workflow_outbox (company_id, workflow_type, workflow_id, input, traceparent)
    values (${item.companyId}, ${item.workflowType}, ${item.workflowId}, ${tx.json(item.input as postgres.JSONValue)}, ${currentTraceparent()})
    returning id::text, company_id, workflow_type, workflow_id, input, traceparent`
  return row!
}

export class WorkflowDispatcher {
  private timer: NodeJS.Timeout | null = null
  private relaying: Promise<void> | null = null
  private readonly definitions: Map<string, AnyWorkflowDefinition>
  private readonly failpoint: string | undefined
  private readonly eagerStart: boolean

  constructor(
    private readonly client: Client,
    private readonly db: Db,
    private readonly taskQueue: string,
    private readonly logger: Logger,
    definitions: AnyWorkflowDefinition[],
    options: {
      /** Crash-test failpoint: 'before-workflow-start' kills the process after commit, before the start. */
      failpoint?: string
      /** The client shares the in-process worker's connection: ask the server to hand the first task straight back. */
      eagerStart?: boolean
    } = {},
  ) {
    this.failpoint = options.failpoint
    this.eagerStart = options.eagerStart ?? false
    this.definitions = new Map(definitions.map((d) => [workflowType(d), d]))
  }

  /**
   * Starts a workflow now, with its definition's id policies. True when it runs (or already ran:
   * the id policy refused a second run, so the work is done); false, logged, when the start failed.
   */
  async start(spec: { companyId: string; workflowType: string; workflowId: string; input: unknown }): Promise<{ started: boolean; error?: string }> {
    const definition = this.definitions.get(spec.workflowType)
    if (!definition) {
      this.logger.error({ workflowType: spec.workflowType, workflowId: spec.workflowId }, 'a start names a workflow no domain defines')
      return { started: false, error: `no workflow definition for ${spec.workflowType}` }
    }
    try {
      await this.client.workflow.start(spec.workflowType, {
        taskQueue: this.taskQueue,
        workflowId: spec.workflowId,
        args: [spec.input],
        workflowIdConflictPolicy: definition.idConflictPolicy,
        workflowIdReusePolicy: definition.idReusePolicy,
        typedSearchAttributes: [{ key: CompanyIdKey, value: spec.companyId }],
        requestEagerStart: this.eagerStart,
      })
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
        this.logger.warn({ err: error, workflowId: spec.workflowId }, 'workflow start failed; it will be retried')
        return { started: false, error: String((error as Error).message ?? error) }
      }
      // The id's policy refuses another run (it already ran to completion): the work is done.
    }
    return { started: true }
  }

  /**
   * Signals the workflow, starting it first when no run with its id is open (one round trip, much
   * cheaper for the server than a start when the run is already there). For long-lived workflows
   * woken per batch of work. False, logged, when the call failed; never throws.
   */
  async signalWithStart(spec: WorkflowSpec, signal: SignalDefinition<[]>): Promise<{ started: boolean; error?: string }> {
    const definition = this.definitions.get(spec.workflowType)
    if (!definition) return { started: false, error: `no workflow definition for ${spec.workflowType}` }
    try {
      // A signal-with-start always signals an open run (the conflict policy is implied); the reuse
      // policy says whether a closed run's id may start again.
      await this.client.workflow.signalWithStart(spec.workflowType, {
        taskQueue: this.taskQueue,
        workflowId: spec.workflowId,
        args: [spec.input],
        signal,
        signalArgs: [],
        workflowIdReusePolicy: definition.idReusePolicy,
        typedSearchAttributes: [{ key: CompanyIdKey, value: spec.companyId }],
      })
      return { started: true }
    } catch (error) {
      this.logger.warn({ err: error, workflowId: spec.workflowId }, 'workflow signal-with-start failed; it will be retried')
      return { started: false, error: String((error as Error).message ?? error) }
    }
  }

  /**
   * Signals a workflow by id. Never throws: false when it is not running (finished, or never
   * started) or the signal could not be delivered (logged). Callers use signals to act sooner, never
   * as the only way: the workflow re-checks the database anyway.
   */
  async signal<A extends unknown[]>(workflowId: string, signal: SignalDefinition<A>, ...args: A): Promise<boolean> {
    try {
      await this.client.workflow.getHandle(workflowId).signal(signal, ...args)
      return true
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) this.logger.warn({ err: error, workflowId, signalName: signal.name }, 'workflow signal failed')
      return false
    }
  }

  /**
   * Sends a Temporal Update (the workflow's own definition, so its argument and answer are typed) to a running workflow and waits for its handler's answer. 'refused':
   * its validator (or handler) said no, with why; 'not_running': no open run has that id (it
   * finished, or has not started yet); 'no_answer': no worker answered within timeoutMs (none is
   * running, say), so the caller is not held indefinitely; 'unreachable': the server did not take the
   * Update (unreachable, or it dropped the Update when the worker holding the run died), with why.
   * Neither of the last two tells whether the Update will still be applied: the caller says so.
   */
  async update<R, A>(workflowId: string, update: UpdateDefinition<R, [A]>, arg: A, timeoutMs = 20_000): Promise<
    { outcome: 'done'; result: R } | { outcome: 'refused'; message: string } | { outcome: 'not_running' } | { outcome: 'no_answer' } | { outcome: 'unreachable'; message: string }
  > {
    try {
      const result = await this.client.withDeadline(Date.now() + timeoutMs, () =>
        this.client.workflow.getHandle(workflowId).executeUpdate(update, { args: [arg] }))
      return { outcome: 'done', result }
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) return { outcome: 'refused', message: error.cause?.message ?? error.message }
      if (error instanceof WorkflowNotFoundError) return { outcome: 'not_running' }
      // The SDK's own class for a deadline or a cancelled call, whichever phase (start, poll) it hit.
      if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError || isGrpcDeadlineError(error)) return { outcome: 'no_answer' }
      if (error instanceof ServiceError) {
        this.logger.warn({ err: error, workflowId, update: update.name }, 'workflow update not taken by the server')
        return { outcome: 'unreachable', message: (error.cause as Error | undefined)?.message ?? error.message }
      }
      throw error
    }
  }

  /**
   * Creates or replaces a Temporal Schedule that starts `spec`'s workflow every day at hour:minute
   * in timeZone (its runs get the schedule's workflow id plus the fire time). Idempotent: the same
   * call again leaves one schedule with this spec. Throws when the server cannot be reached.
   */
  async upsertDailySchedule(scheduleId: string, spec: WorkflowSpec, at: { hour: number; minute: number; timeZone: string }): Promise<void> {
    const options = {
      spec: { calendars: [{ hour: at.hour, minute: at.minute }], timezone: at.timeZone },
      action: {
        type: 'startWorkflow' as const, workflowType: spec.workflowType, workflowId: spec.workflowId, taskQueue: this.taskQueue,
        args: [spec.input], typedSearchAttributes: [{ key: CompanyIdKey, value: spec.companyId }],
      },
      // A missed fire (server down) runs once when it is back within the hour; never two at once.
      policies: { overlap: 'SKIP' as const, catchupWindow: '1 hour' },
    }
    try {
      await this.client.schedule.create({ scheduleId, ...options })
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error
      await this.client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec: options.spec, action: options.action, policies: { ...previous.policies, ...options.policies } }))
    }
  }

  /** Deletes a schedule; one that does not exist is already deleted. */
  async deleteSchedule(scheduleId: string): Promise<void> {
    try {
      await this.client.schedule.getHandle(scheduleId).delete()
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error
    }
  }

  /**
   * Waits up to timeoutMs for a workflow's result, for tools that answer with what a short
   * workflow did. 'pending' when it has not finished by then (still running, or no worker yet);
   * 'failed' with why when the run failed. Anything else (the server unreachable) throws.
   */
  async result<R>(workflowId: string, timeoutMs: number): Promise<{ outcome: 'done'; result: R } | { outcome: 'pending' } | { outcome: 'failed'; message: string }> {
    try {
      const result = await this.client.withDeadline(Date.now() + timeoutMs, () => this.client.workflow.getHandle(workflowId).result() as Promise<R>)
      return { outcome: 'done', result }
    } catch (error) {
      if (error instanceof WorkflowFailedError) return { outcome: 'failed', message: error.cause?.message ?? error.message }
      if (error instanceof WorkflowNotFoundError) return { outcome: 'pending' }
      // isGrpcDeadlineError follows the cause chain itself.
      if (isGrpcDeadlineError(error)) return { outcome: 'pending' }
      throw error
    }
  }

  /** Starts the workflow for an outbox row and marks it started. Never throws: the relay retries. */
  dispatch(item: OutboxItem): Promise<boolean> {
    // In the trace of the request that queued it, whether started right after its commit or by the relay.
    return inTraceOf(item.traceparent, async () => {
      if (this.failpoint === 'before-workflow-start') process.kill(process.pid, 'SIGKILL')
      const result = await this.start({ companyId: item.company_id, workflowType: item.workflow_type, workflowId: item.workflow_id, input: item.input })
      await this.db.app`select mark_workflow_outbox(${item.id}, ${result.started ? null : result.error ?? 'start failed'})`.catch(() => {})
      return result.started
    })
  }

  /** One relay pass: rows older than graceMs that no after-commit start has settled. */
  async relayOnce(graceMs = 2000, batch = 100): Promise<number> {
    const rows = await this.db.app<OutboxItem[]>`
      select id::text, company_id, workflow_type, workflow_id, input, traceparent
      from pending_workflow_outbox(${`${graceMs} milliseconds`}::interval, ${batch})`
    let started = 0
    await eachAtMost(DISPATCH_CONCURRENCY, rows, async (row) => {
      if (await this.dispatch(row)) started++
    })
    if (started) this.logger.info({ started }, 'outbox relay started pending workflows')
    return started
  }

  startRelay(intervalMs: number, graceMs = 2000): void {
    if (this.timer) return
    this.timer = setInterval(() => {
      if (this.relaying) return
      this.relaying = this.relayOnce(graceMs)
        .then(() => undefined)
        .catch((error) => this.logger.error({ err: error }, 'outbox relay pass failed'))
        .finally(() => (this.relaying = null))
    }, intervalMs)
    this.timer.unref()
  }

  async stopRelay(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.relaying
  }
}

/** Queues a workflow inside the current transaction; it starts once the transaction commits. */
export type StartAfterCommit = (spec: WorkflowSpec) => Promise<OutboxItem>

/**
 * withTenant for a change that needs workflows: `start` writes each outbox row in the same
 * transaction, and after commit the workflows are started (the relay covers a crash in between).
 */
export async function withTenantThenStart<T>(
  deps: { db: Db; workflows: WorkflowDispatcher },
  companyId: string,
  fn: (tx: postgres.TransactionSql, start: StartAfterCommit) => Promise<T>,
): Promise<T> {
  const queued: OutboxItem[] = []
  const result = await withTenant(deps.db, companyId, (tx) =>
    fn(tx, async (spec) => {
      const item = await enqueueWorkflow(tx, spec)
      queued.push(item)
      return item
    }))
  await eachAtMost(DISPATCH_CONCURRENCY, queued, (item) => deps.workflows.dispatch(item))
  return result
}

/**
 * Starts in flight at once after a commit or in a relay pass. A scan tool queues up to 200 runs in
 * one transaction; started one after another (about 0.1 s each, a round trip to Temporal and the
 * outbox row's mark) the call took 20 s and more. Bounded, so one call cannot take every pool
 * connection or flood the Temporal frontend.
 */
const DISPATCH_CONCURRENCY = 8

/** fn over items, at most `limit` running at once; fn must not throw (dispatch settles its own errors). */
export async function eachAtMost<T>(limit: number, items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
}
