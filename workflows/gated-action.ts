// One client-facing action of an automation (a review request, a referral offer), held for approval
// when the company asks for it: the action is recorded as pending and the workflow waits for
// approve_action, reject_action or the expiry (workflows/approval.ts); only an approval executes
// it. Without approval the action runs at once. The action id comes from the workflow's seeded
// uuid4, so a replay makes the same one.
import { proxyActivities, uuid4, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from './activity-options.js'
import { approvalGate, type PendingActionActivities, type PendingMessage } from './approval.js'
import type { QueuedMessage } from './messages.js'

const { recordPendingAction, settlePendingAction } = proxyActivities<PendingActionActivities>(DATABASE_STEP)

export interface GatedAction<T> {
  companyId: string
  automation: string
  summary: string
  preview: PendingMessage[]
  /** The messages exactly as executing sends them, when known (workflows.approve_action's dry run shows them). */
  outgoing?: QueuedMessage[]
  approval: { expiresInMs: number } | null
  /** Runs the action; ok false records the action as failed. */
  execute: () => Promise<{ ok: boolean; outcome: T }>
}

export type GatedResult<T> =
  | { status: 'executed' | 'failed'; outcome: T; approved: boolean }
  | { status: 'rejected' | 'expired'; outcome: null; approved: false }

export async function gatedAction<T>(action: GatedAction<T>): Promise<GatedResult<T>> {
  if (!action.approval) {
    const done = await action.execute()
    return { status: done.ok ? 'executed' : 'failed', outcome: done.outcome, approved: false }
  }
  const { workflowId } = workflowInfo()
  const actionId = uuid4()
  // Before the action is listed: a decision may arrive as soon as it is.
  const gate = approvalGate(actionId)
  const pending = await recordPendingAction({
    companyId: action.companyId, actionId, automation: action.automation, workflowId, summary: action.summary,
    messages: action.preview, outgoing: action.outgoing, expiresInMs: action.approval.expiresInMs,
  })
  const decision = await gate.awaitDecision(Date.parse(pending.expiresAt) - Date.now())
  const settle = (status: 'approved' | 'executed' | 'failed' | 'rejected' | 'expired', outcome: unknown) => settlePendingAction({
    companyId: action.companyId, actionId, status, decidedAt: decision.decidedAt, decidedBy: decision.keyId, note: decision.note, outcome,
  })
  if (decision.decision !== 'approve') {
    const status = decision.decision === 'reject' ? 'rejected' : 'expired'
    await settle(status, null)
    await gate.settle(status, null)
    return { status, outcome: null, approved: false }
  }
  await settle('approved', null)
  const done = await action.execute()
  const status = done.ok ? 'executed' : 'failed'
  await settle(status, done.outcome)
  await gate.settle(status, done.outcome)
  return { status, outcome: done.outcome, approved: true }
}
