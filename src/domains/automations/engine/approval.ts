// Approval-gated actions, the database side: recording a pending action and each change of its
// status (activities of the waiting workflow, workflows/approval.ts), listing the pending ones,
// and approve/reject, which reach the waiting workflow as a Temporal Update. The workflow is the
// one place a decision is taken; this table records what it decided and did.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound } from '../../../core/errors.js'
import { withTenant } from '../../../db/sql.js'
import { type DecisionRequest, decideUpdate, settlementUpdate, type PendingMessage } from '../../../../workflows/approval.js'
import type { AutomationCatalogue } from './catalogue.js'
import type { QueuedMessage } from '../../../../workflows/messages.js'
import { decodeAfterCursor, encodeAfterCursor } from './cursor.js'
import type { PendingActionSchema, PendingActionsInput } from './control-schema.js'
import { isUuid } from '../../../core/uuid.js'
import { messageViews, type SentMessageView } from '../../comms/preview.js'
import {
  findPendingAction, insertPendingAction, listPendingActionRows, updatePendingActionStatus,
  type ActionRow, type ActionStatus, type PendingActionFilter,
} from './queries/approvals.js'

export type { PendingMessage }

/** Activity: the waiting workflow records its action; the expiry it must wait for comes back. */
export async function recordPendingAction(
  deps: Deps,
  input: { companyId: string; actionId: string; automation: string; workflowId: string; summary: string; messages: PendingMessage[]; outgoing?: QueuedMessage[]; expiresInMs: number },
): Promise<{ expiresAt: string }> {
  const now = deps.clock.now()
  const { expiresAt } = await withTenant(deps.db, input.companyId, (tx) => insertPendingAction(tx, {
    id: input.actionId, companyId: input.companyId, automation: input.automation, workflowId: input.workflowId,
    summary: input.summary, messages: input.messages, outgoing: input.outgoing ?? null, expiresAt: new Date(now.getTime() + input.expiresInMs),
  }, now))
  return { expiresAt: expiresAt.toISOString() }
}

/** The statuses each status may be reached from: a retried activity, or one out of order, changes nothing. */
const REACHED_FROM: Record<Exclude<ActionStatus, 'pending'>, ActionStatus[]> = {
  approved: ['pending'],
  rejected: ['pending'],
  expired: ['pending'],
  executed: ['pending', 'approved'],
  failed: ['pending', 'approved'],
}

/** Activity: the workflow records the decision it took, then what executing the action did. */
export async function settlePendingAction(
  deps: Deps,
  input: {
    companyId: string; actionId: string; status: Exclude<ActionStatus, 'pending'>
    decidedAt: string | null; decidedBy: string | null; note: string | null; outcome: unknown
  },
): Promise<void> {
  await withTenant(deps.db, input.companyId, (tx) => updatePendingActionStatus(tx, input, REACHED_FROM[input.status], deps.clock.now()))
}

const present = (r: ActionRow): Static<typeof PendingActionSchema> => ({
  id: r.id, workflow: r.automation, temporalWorkflowId: r.workflow_id, summary: r.summary, messages: r.messages, status: r.status,
  createdAt: r.created_at.toISOString(), expiresAt: r.expires_at.toISOString(), decidedAt: r.decided_at?.toISOString() ?? null,
  decidedBy: r.decided_by, note: r.note, outcome: r.outcome ?? null,
})

async function findAction(tx: postgres.TransactionSql, id: string): Promise<ActionRow | null> {
  if (!isUuid(id)) return null
  return findPendingAction(tx, id)
}

export async function listPendingActions(deps: Deps, catalogue: AutomationCatalogue, principal: Principal, input: Static<typeof PendingActionsInput>) {
  const limit = input.limit ?? 50
  const after = decodeAfterCursor(input.cursor)
  // The automation's key or tool name, or else a Temporal workflow id.
  const automation = input.workflow_id === undefined ? null : (catalogue.find(input.workflow_id)?.key ?? null)
  const match: PendingActionFilter = input.workflow_id === undefined ? null : automation ? { automation } : { workflowId: input.workflow_id }
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const { rows, total } = await listPendingActionRows(tx, match, after, limit)
    const last = rows[rows.length - 1]
    return {
      actions: rows.map(present), total, limit,
      nextCursor: rows.length === limit && last ? encodeAfterCursor(last.created_at.toISOString(), last.id) : null,
    }
  })
}

/**
 * approve_action and reject_action. The decision goes to the waiting workflow as an Update; its
 * validator refuses a second decision at once. A repeat of the same decision answers with the
 * first one's outcome (alreadyDecided); the opposite decision, or any after expiry, is a conflict.
 */
export async function decideAction(
  deps: Deps, principal: Principal, input: { actionId: string; decision: 'approve' | 'reject'; note?: string },
) {
  const read = () => withTenant(deps.db, principal.companyId, (tx) => findAction(tx, input.actionId))
  const row = await read()
  if (!row) throw notFound('Pending action')
  const request: DecisionRequest = { actionId: row.id, decision: input.decision, keyId: principal.keyId, ...(input.note ? { note: input.note } : {}) }

  if (row.status === 'pending') {
    const sent = await deps.workflows.update(row.workflow_id, decideUpdate, request, deps.config.TEMPORAL_UPDATE_TIMEOUT_MS)
    if (sent.outcome === 'done') return { action: present((await read())!), alreadyDecided: false }
    if (sent.outcome === 'no_answer') throw noWorker(deps)
    if (sent.outcome === 'unreachable') throw notTaken(sent.message)
    if (sent.outcome === 'refused' && !/^already /.test(sent.message) && !/^expired/.test(sent.message)) {
      throw new AppError('conflict', `The workflow waiting for this action refused the decision: ${sent.message}. Nothing was executed.`)
    }
  }
  // Decided already (or finished): the first decision's settlement, waiting for it when it is still executing.
  if (row.status === 'pending' || row.status === 'approved') {
    const settling = await deps.workflows.update(row.workflow_id, settlementUpdate, { actionId: row.id }, deps.config.TEMPORAL_UPDATE_TIMEOUT_MS)
    if (settling.outcome === 'no_answer') throw noWorker(deps)
    if (settling.outcome === 'unreachable') throw notTaken(settling.message)
  }
  const settled = (await read())!
  return answerForDecided(settled, input.decision)
}

/**
 * approve_action's dry run: what approving would send now, decided nothing. The messages exactly
 * as the send renders them; an action recorded without them (the owner's team notices, or from
 * before they were kept) shows them as pending_actions lists them. A decided action answers as a
 * repeated decision would: alreadyDecided, or the conflict.
 */
export async function previewApproval(deps: Deps, principal: Principal, actionId: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const row = await findAction(tx, actionId)
    if (!row) throw notFound('Pending action')
    if (row.status !== 'pending') return { ...answerForDecided(row, 'approve'), dry_run: true, messages: [] }
    const messages: SentMessageView[] = row.outgoing
      ? await messageViews(tx, row.outgoing)
      : row.messages.map((m) => ({ channel: m.channel, to: m.to, subject: m.channel === 'email' ? (m.subject ?? '') : null, text: m.text, html: null }))
    return { action: present(row), alreadyDecided: false, dry_run: true, messages }
  })
}

function noWorker(deps: Deps): AppError {
  const seconds = Math.round(deps.config.TEMPORAL_UPDATE_TIMEOUT_MS / 100) / 10
  return new AppError('worker_unavailable', `No Temporal worker answered within ${seconds} s (is the worker running?). The decision may still be applied when one starts: check workflows.pending_actions before deciding again.`)
}

function notTaken(why: string): AppError {
  return new AppError('worker_unavailable', `Temporal did not take the decision (${why}). It may still be applied: check workflows.pending_actions in a few seconds before deciding again.`)
}

function answerForDecided(row: ActionRow, wanted: 'approve' | 'reject') {
  const action = present(row)
  if (row.status === 'expired') {
    throw new AppError('conflict', `This action expired at ${action.expiresAt} without a decision, and its workflow has finished; nothing was executed. Run the workflow again to propose it anew.`, { action })
  }
  if (row.status === 'pending') {
    throw new AppError('conflict', 'The workflow waiting for this action is not running (it has not started yet, or it ended without a decision). Nothing was executed; try again in a few seconds.', { action })
  }
  const first = row.status === 'rejected' ? 'reject' : 'approve'
  if (first !== wanted) {
    throw new AppError('conflict', `This action was already ${first === 'approve' ? 'approved' : 'rejected'} at ${action.decidedAt}; the decision stands and nothing was changed.`, { action })
  }
  return { action, alreadyDecided: true }
}
