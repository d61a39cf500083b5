// Pending action SQL (pending_actions): recording an approval-gated action, each change of its
// status, and reading them for workflows.pending_actions and the decisions. Every function takes
// the tenant transaction from withTenant().
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { PendingMessage } from '../../../../../workflows/approval.js'
import type { QueuedMessage } from '../../../../../workflows/messages.js'
import type { PendingActionSchema } from '../control-schema.js'

export type ActionStatus = Static<typeof PendingActionSchema>['status']

export interface NewPendingAction {
  id: string
  companyId: string
  automation: string
  workflowId: string
  summary: string
  messages: PendingMessage[]
  /** The messages exactly as the send takes them, when the action sends to customers. */
  outgoing: QueuedMessage[] | null
  expiresAt: Date
}

/** Records the action once (a retried activity, or the API having recorded it already, changes nothing). */
export async function insertPendingAction(tx: postgres.TransactionSql, action: NewPendingAction, now: Date): Promise<{ expiresAt: Date }> {
  await tx`
    insert into pending_actions (id, company_id, automation, workflow_id, run_id, summary, messages, outgoing, expires_at, created_at, updated_at)
    values (${action.id}, ${action.companyId}, ${action.automation}, ${action.workflowId},
            (select id from automation_runs where workflow_id = ${action.workflowId}), ${action.summary},
            ${tx.json(action.messages as unknown as postgres.JSONValue)},
            ${action.outgoing ? tx.json(action.outgoing as unknown as postgres.JSONValue) : null}, ${action.expiresAt}, ${now}, ${now})
    on conflict (id) do nothing`
  const [row] = await tx<{ expires_at: Date }[]>`select expires_at from pending_actions where id = ${action.id}`
  return { expiresAt: row!.expires_at }
}

export interface ActionSettlement {
  actionId: string
  status: Exclude<ActionStatus, 'pending'>
  decidedAt: string | null
  decidedBy: string | null
  note: string | null
  outcome: unknown
}

/** Moves the action to its new status when it is in one of `from`; the first decision, note and outcome stay. */
export async function updatePendingActionStatus(tx: postgres.TransactionSql, input: ActionSettlement, from: ActionStatus[], now: Date): Promise<void> {
  await tx`
    update pending_actions
    set status = ${input.status}, decided_at = coalesce(decided_at, ${input.decidedAt}), decided_by = coalesce(decided_by, ${input.decidedBy}),
        note = coalesce(note, ${input.note}), outcome = coalesce(${input.outcome === null || input.outcome === undefined ? null : tx.json(input.outcome as postgres.JSONValue)}, outcome),
        updated_at = ${now}
    where id = ${input.actionId} and status = any(${from}::text[])`
}

export interface ActionRow {
  id: string
  automation: string
  workflow_id: string
  summary: string
  messages: PendingMessage[]
  outgoing: QueuedMessage[] | null
  status: ActionStatus
  created_at: Date
  expires_at: Date
  decided_at: Date | null
  decided_by: string | null
  note: string | null
  outcome: unknown
}

const columns = (tx: postgres.TransactionSql) =>
  tx`id::text, automation, workflow_id, summary, messages, outgoing, status, created_at, expires_at, decided_at, decided_by::text, note, outcome`

/** The action; the id is checked to be a UUID by the caller. */
export async function findPendingAction(tx: postgres.TransactionSql, id: string): Promise<ActionRow | null> {
  const [row] = await tx<ActionRow[]>`select ${columns(tx)} from pending_actions where id = ${id}`
  return row ?? null
}

/** Which pending actions to list: all, one automation's (by key), or one workflow's (by Temporal id). */
export type PendingActionFilter = { automation: string } | { workflowId: string } | null

/** A page of pending actions, oldest first after the keyset, and how many match in all. */
export async function listPendingActionRows(
  tx: postgres.TransactionSql, match: PendingActionFilter, after: { createdAt: Date; id: string } | null, limit: number,
): Promise<{ rows: ActionRow[]; total: number }> {
  // A fragment for each statement.
  const filter = () => match === null
    ? tx`status = 'pending'`
    : 'automation' in match ? tx`status = 'pending' and automation = ${match.automation}` : tx`status = 'pending' and workflow_id = ${match.workflowId}`
  const keyset = after ? tx`and (created_at, id) > (${after.createdAt}, ${after.id}::uuid)` : tx``
  const [rows, [count]] = await Promise.all([
    tx<ActionRow[]>`select ${columns(tx)} from pending_actions where ${filter()} ${keyset} order by created_at, id limit ${limit}`,
    tx<{ n: number }[]>`select count(*)::int as n from pending_actions where ${filter()}`,
  ])
  return { rows, total: count!.n }
}
