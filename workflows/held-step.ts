// One step of a long-running automation (a quote follow-up, a payment-chase reminder) held for
// approval: the step's messages are recorded as a pending action (what would go to whom), then the
// workflow waits for approve_action, reject_action or the expiry (workflows/approval.ts). Only an
// approval sends, and only after asking the database again: a quote accepted or an invoice paid
// while the action waited is not followed up on a late approval; the approver is answered with
// that (status failed, outcome.stopped). The messages sent are the ones approved, with the keys
// planned for the step, so a retry or a replay never sends them twice.
import { proxyActivities, uuid4 } from '@temporalio/workflow'
import { DATABASE_STEP, MESSAGE_SEND } from './activity-options.js'
import { approvalGate, type PendingActionActivities } from './approval.js'
import type { QueuedMessage, SendMessageActivities } from './messages.js'

/** A step's approval, carried by its plan when the company holds the automation for approval. */
export interface StepApproval {
  /** How long the action waits for a decision. */
  expiresInMs: number
  /** One line for workflows.pending_actions: what it would do. */
  summary: string
  /** The client's name, shown with each message. */
  name: string | null
}

export interface HeldStepActivities extends PendingActionActivities, SendMessageActivities {}

const { recordPendingAction, settlePendingAction } = proxyActivities<HeldStepActivities>(DATABASE_STEP)

export interface StepDelivery {
  sent: string[]
  notSent: string[]
  /** Per message, for the pending action's outcome. */
  outcome: { sent: { channel: string; to: string; status: string }[]; failed: { channel: string; to: string; error: string }[] }
}

export type HeldStepResult =
  | { status: 'executed' | 'failed'; delivery: StepDelivery }
  | { status: 'rejected' }
  | { status: 'expired' }
  | { status: 'stopped'; reason: string }

export async function holdStep(args: {
  companyId: string
  workflowId: string
  automation: string
  approval: StepApproval
  messages: QueuedMessage[]
  /** Asks the database whether the automation must stop now (its reason), else null. */
  recheck: () => Promise<string | null>
  deliver: (messages: QueuedMessage[]) => Promise<StepDelivery>
}): Promise<HeldStepResult> {
  // Deterministic per run (seeded by Temporal), so a replay records the same action.
  const actionId = uuid4()
  // Before any await: a decision may arrive as soon as the action is listed. One gate at a time;
  // the previous step's gate has settled (its handlers finished) before this one replaces it.
  const gate = approvalGate(actionId)
  const { companyId } = args
  const pending = await recordPendingAction({
    companyId, actionId, automation: args.automation, workflowId: args.workflowId, summary: args.approval.summary,
    messages: args.messages.map((m) => ({ channel: m.channel, to: m.to, name: args.approval.name, subject: m.subject ?? null, text: m.text ?? m.body })),
    outgoing: args.messages,
    expiresInMs: args.approval.expiresInMs,
  })
  const decision = await gate.awaitDecision(Date.parse(pending.expiresAt) - Date.now())
  const decided = { companyId, actionId, decidedAt: decision.decidedAt, decidedBy: decision.keyId, note: decision.note }

  if (decision.decision !== 'approve') {
    const status = decision.decision === 'reject' ? 'rejected' as const : 'expired' as const
    await settlePendingAction({ ...decided, status, outcome: null })
    await gate.settle(status, null)
    return status === 'rejected' ? { status: 'rejected' } : { status: 'expired' }
  }

  await settlePendingAction({ ...decided, status: 'approved', outcome: null })
  const stopped = await args.recheck()
  if (stopped) {
    const outcome = { sent: [], failed: [], stopped: `${stopped}: nothing sent` }
    await settlePendingAction({ ...decided, status: 'failed', outcome })
    await gate.settle('failed', outcome)
    return { status: 'stopped', reason: stopped }
  }
  const delivery = await args.deliver(args.messages)
  const status = delivery.sent.length ? 'executed' : 'failed'
  await settlePendingAction({ ...decided, status, outcome: delivery.outcome })
  await gate.settle(status, delivery.outcome)
  return { status, delivery }
}

const { sendMessage } = proxyActivities<HeldStepActivities>(MESSAGE_SEND)

/** Sends a step's messages one by one (one refused does not stop the others) and says what went. */
export async function deliverEach(companyId: string, messages: QueuedMessage[]): Promise<StepDelivery> {
  const out: StepDelivery = { sent: [], notSent: [], outcome: { sent: [], failed: [] } }
  for (const message of messages) {
    try {
      const outcome = await sendMessage({ companyId, ...message })
      if (outcome.status === 'not_sent') {
        out.notSent.push(`${message.channel}: ${outcome.reason ?? 'not sent'}`)
        out.outcome.failed.push({ channel: message.channel, to: message.to, error: outcome.reason ?? 'not sent' })
      } else {
        out.sent.push(message.channel)
        out.outcome.sent.push({ channel: message.channel, to: message.to, status: outcome.status })
      }
    } catch (error) {
      out.notSent.push(`${message.channel}: ${(error as Error).message}`)
      out.outcome.failed.push({ channel: message.channel, to: message.to, error: (error as Error).message })
    }
  }
  return out
}
