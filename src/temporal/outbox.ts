// Write-then-start. A domain change and an outbox row naming its workflow commit in one
// transaction; after commit the workflow is started, and a relay retries rows still unstarted
// (after a crash between commit and start). Starting twice is harmless: ids come from business
// keys and each workflow's definition (temporal/contract.ts) says what a second start does.
import type { Client } from '@temporalio/client'
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client'
import type postgres from 'postgres'
import { withTenant, type Db } from '../db/sql.js'
import type { Logger } from '../logger.js'
import { CompanyIdKey } from './search-attributes.js'
import { workflowType, type AnyWorkflowDefinition, type WorkflowSpec } from './contract.js'

export interface OutboxItem {
  id: string
  company_id: string
  workflow_type: string
  workflow_id: string
  input: unknown
}

export type { WorkflowSpec } from './contract.js'

export async function enqueueWorkflow(tx: postgres.TransactionSql, item: WorkflowSpec): Promise<OutboxItem> {
  const [row] = await tx<OutboxItem[]>`
    insert into workflow_outbox (company_id, workflow_type, workflow_id, input)
    values (${item.companyId}, ${item.workflowType}, ${item.workflowId}, ${tx.json(item.input as postgres.JSONValue)})
    returning id::text, company_id, workflow_type, workflow_id, input`
  return row!
}

export class WorkflowDispatcher {
  private timer: NodeJS.Timeout | null = null
  private relaying: Promise<void> | null = null
  private readonly definitions: Map<string, AnyWorkflowDefinition>

  constructor(
    private readonly client: Client,
    private readonly db: Db,
    private readonly taskQueue: string,
    private readonly logger: Logger,
    definitions: AnyWorkflowDefinition[],
    /** Crash-test failpoint: 'before-workflow-start' kills the process after commit, before the start. */
    private readonly failpoint?: string,
  ) {
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

  /** Starts the workflow for an outbox row and marks it started. Never throws: the relay retries. */
  async dispatch(item: OutboxItem): Promise<boolean> {
    if (this.failpoint === 'before-workflow-start') process.kill(process.pid, 'SIGKILL')
    const result = await this.start({ companyId: item.company_id, workflowType: item.workflow_type, workflowId: item.workflow_id, input: item.input })
    await this.db.app`select mark_workflow_outbox(${item.id}, ${result.started ? null : result.error ?? 'start failed'})`.catch(() => {})
    return result.started
  }

  /** One relay pass: rows older than graceMs that no after-commit start has settled. */
  async relayOnce(graceMs = 2000, batch = 100): Promise<number> {
    const rows = await this.db.app<OutboxItem[]>`
      select id::text, company_id, workflow_type, workflow_id, input
      from pending_workflow_outbox(${`${graceMs} milliseconds`}::interval, ${batch})`
    let started = 0
    for (const row of rows) if (await this.dispatch(row)) started++
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
  for (const item of queued) await deps.workflows.dispatch(item)
  return result
}
