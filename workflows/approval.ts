// Approval gating for any workflow: the workflow records its pending action (an activity), then
// waits here for a decision, delivered as a Temporal Update, or for its expiry timer. Nothing
// polls. The Update's validator answers at once: a second decision, a decision after expiry or a
// decision naming another action is refused before anything is written to the history. An
// accepted decision's handler waits until the workflow settles the action (executed, failed,
// rejected) and returns that outcome, so workflows.approve_action answers with what happened.
import { allHandlersFinished, condition, defineUpdate, setHandler } from '@temporalio/workflow'
import type { QueuedMessage } from './messages.js'

export interface DecisionRequest {
  actionId: string
  decision: 'approve' | 'reject'
  /** The API key that decided. */
  keyId: string
  note?: string
}

/** What happened to the action, as the update handlers return it. */
export interface ActionSettlement {
  actionId: string
  status: 'executed' | 'failed' | 'rejected' | 'expired'
  decidedAt: string | null
  decidedBy: string | null
  note: string | null
  outcome: unknown
}

/** One message a pending action would send, as workflows.pending_actions shows it. */
export interface PendingMessage {
  channel: 'sms' | 'email'
  to: string
  name: string | null
  subject: string | null
  text: string
}

/** The pending action's record (src/domains/automations/approval.ts implements these activities). */
export interface PendingActionActivities {
  /**
   * Records the action once; the expiry the workflow must wait for comes back. outgoing: the
   * messages exactly as approving sends them (approve_action's dry run shows them), when known.
   */
  recordPendingAction(input: {
    companyId: string; actionId: string; automation: string; workflowId: string; summary: string; messages: PendingMessage[]; outgoing?: QueuedMessage[]; expiresInMs: number
  }): Promise<{ expiresAt: string }>
  /** Records the decision taken, then what executing the action did; a repeat or one out of order changes nothing. */
  settlePendingAction(input: {
    companyId: string; actionId: string; status: 'approved' | 'executed' | 'failed' | 'rejected' | 'expired'
    decidedAt: string | null; decidedBy: string | null; note: string | null; outcome: unknown
  }): Promise<void>
}

/** Decide an action: validated at once; answers once the action is settled. */
export const decideUpdate = defineUpdate<ActionSettlement, [DecisionRequest]>('decide')
/** Ask for the settlement of an action someone else already decided; answers once it is settled. */
export const settlementUpdate = defineUpdate<ActionSettlement, [{ actionId: string }]>('settlement')

export type Decision =
  | { decision: 'approve' | 'reject'; decidedAt: string; keyId: string; note: string | null }
  | { decision: 'expired'; decidedAt: null; keyId: null; note: null }

export interface Gate {
  /** Waits up to expiresInMs for a decision (one may already have arrived); none by then: expired. */
  awaitDecision(expiresInMs: number): Promise<Decision>
  /**
   * Records the action's end, which answers every waiting Update, and waits for those answers
   * to go out before the workflow may finish (an unanswered Update would fail its caller).
   */
  settle(status: ActionSettlement['status'], outcome: unknown): Promise<void>
}

/**
 * The gate for actionId. Create it first thing in the workflow, before any await: an Update that
 * arrives while no handler is registered is refused, and the caller may decide as soon as the
 * action is listed. One gate per workflow (the handlers are per workflow).
 */
export function approvalGate(actionId: string): Gate {
  let decision: Decision | null = null
  let settlement: ActionSettlement | null = null

  const refuseUnknown = (id: string) => {
    if (id !== actionId) throw new Error(`action ${id} is not waiting in this workflow`)
  }
  setHandler(decideUpdate, async (request) => {
    decision = { decision: request.decision, decidedAt: new Date(Date.now()).toISOString(), keyId: request.keyId, note: request.note ?? null }
    await condition(() => settlement !== null)
    return settlement!
  }, {
    validator: (request) => {
      refuseUnknown(request.actionId)
      const taken = decision as Decision | null
      if (taken?.decision === 'expired') throw new Error('expired without a decision; nothing was executed')
      if (taken) throw new Error(`already ${taken.decision === 'approve' ? 'approved' : 'rejected'} at ${taken.decidedAt}`)
    },
  })
  setHandler(settlementUpdate, async () => {
    await condition(() => settlement !== null)
    return settlement!
  }, { validator: (request) => refuseUnknown(request.actionId) })

  return {
    async awaitDecision(expiresInMs) {
      if (!(await condition(() => decision !== null, Math.max(expiresInMs, 1)))) {
        decision = { decision: 'expired', decidedAt: null, keyId: null, note: null }
      }
      return decision!
    },
    async settle(status, outcome) {
      const decided = decision!
      settlement = { actionId, status, decidedAt: decided.decidedAt, decidedBy: decided.keyId, note: decided.note, outcome }
      await condition(allHandlersFinished)
    },
  }
}
