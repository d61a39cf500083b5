// The dispatch of one job to subcontractors: offers go to the candidates in order, one at a time.
// Each offer is recorded and its SMS/email composed by an activity (keys per offer and channel, so
// a retried activity or a restarted worker sends an offer once), then the run waits on a durable
// timer for the answer. The accept/decline page records the answer in the database and signals
// `answered`; when the timer runs out the settle activity marks the offer timed out unless an answer
// got there first (the database decides, so a late click and the timeout never both win). A
// decline or timeout moves on to the next candidate; an accept, a cancelled job or nobody left ends it.
// With the company's dispatch_requires_approval on, the run first waits for the owner's decision
// (workflows.pending_actions / approve_action, the automations' approval gate): nothing is offered
// before an approval; a rejection or the expiry ends the dispatch not_approved.
import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../workflows/activity-options.js'
import { approvalGate, type PendingActionActivities, type PendingMessage } from '../../../../workflows/approval.js'
import { deliverEach, type StepDelivery } from '../../../../workflows/held-step.js'
import type { QueuedMessage, SendMessageActivities } from '../../../../workflows/messages.js'

export interface DispatchInput {
  companyId: string
  jobId: string
  dispatchId: string
  /** The job's nth dispatch: a job may be dispatched again once a dispatch ends. */
  number: number
  /** Eligible subcontractors in offer order (checked again before each offer). */
  candidates: string[]
  /** How long each candidate has to answer. */
  offerTimeoutMs: number
  /** Held for the owner's approval before the first offer (absent: offers go at once). */
  approval?: { actionId: string; expiresInMs: number; summary: string; messages: PendingMessage[] }
}

/** The automation name the pending action is listed under (workflows.pending_actions). */
export const DISPATCH_APPROVAL = 'subcontractor_dispatch'

export const dispatchWorkflowId = (keys: Pick<DispatchInput, 'companyId' | 'jobId' | 'number'>) => `dispatch:${keys.companyId}:${keys.jobId}:${keys.number}`

/** The subcontractor answered on the offer page (already recorded), or the job changed: look at the database now. */
export const dispatchAnsweredSignal = defineSignal('answered')

export type OfferPlan =
  | { stop: string }
  | { stop: null; skip: string }
  /** expiresAt: recorded with the offer (offered time plus the timeout); the run waits until then. */
  | { stop: null; skip: null; offerId: string; expiresAt: string; messages: QueuedMessage[] }

export type OfferState = 'offered' | 'accepted' | 'declined' | 'timed_out' | 'withdrawn'

export interface DispatchActivities extends SendMessageActivities, PendingActionActivities {
  /** Records offer `position` to a candidate and composes its messages; a skip (no longer eligible) or a stop (job cancelled). */
  planDispatchOffer(input: { companyId: string; dispatchId: string; subcontractorId: string; position: number; timeoutMs: number }): Promise<OfferPlan>
  /** The offer's state now; with `expire`, an unanswered offer becomes timed_out (a cancelled job withdraws it). */
  settleDispatchOffer(input: { companyId: string; offerId: string; expire: boolean }): Promise<{ state: OfferState; jobCancelled: boolean }>
  /** Ends the dispatch: accepted, cancelled, or exhausted (then the owner is told). */
  finishDispatch(input: { companyId: string; dispatchId: string; status: DispatchResult['status']; outcome: string }): Promise<void>
}

const { planDispatchOffer, settleDispatchOffer, finishDispatch, recordPendingAction, settlePendingAction } = proxyActivities<DispatchActivities>(DATABASE_STEP)

export interface DispatchResult {
  status: 'accepted' | 'cancelled' | 'exhausted' | 'not_approved'
  subcontractorId: string | null
  offers: { subcontractorId: string; state: OfferState | 'skipped'; reason?: string }[]
}

type Approval = NonNullable<DispatchInput['approval']>

/**
 * The owner's decision on the dispatch, recorded as a pending action. Approved: the returned
 * function settles the action once the first offer has gone (or the run ended before any), so
 * approve_action answers with what the approval did.
 */
async function awaitApproval(input: DispatchInput, approval: Approval, workflowId: string) {
  // Before any await: a decision may arrive as soon as the action is listed.
  const gate = approvalGate(approval.actionId)
  const base = { companyId: input.companyId, actionId: approval.actionId }
  const pending = await recordPendingAction({ ...base, automation: DISPATCH_APPROVAL, workflowId, summary: approval.summary, messages: approval.messages, expiresInMs: approval.expiresInMs })
  const decision = await gate.awaitDecision(Date.parse(pending.expiresAt) - Date.now())
  const decided = { ...base, decidedAt: decision.decidedAt, decidedBy: decision.keyId, note: decision.note }
  if (decision.decision !== 'approve') {
    const status = decision.decision === 'reject' ? 'rejected' as const : 'expired' as const
    await settlePendingAction({ ...decided, status, outcome: null })
    await gate.settle(status, null)
    return { approved: false as const, outcome: status === 'rejected' ? 'the owner rejected the dispatch: nothing was offered' : 'the approval expired without a decision: nothing was offered' }
  }
  await settlePendingAction({ ...decided, status: 'approved', outcome: null })
  let settled = false
  const settle = async (status: 'executed' | 'failed', outcome: unknown) => {
    if (settled) return
    settled = true
    await settlePendingAction({ ...decided, status, outcome })
    await gate.settle(status, outcome)
  }
  return { approved: true as const, settle }
}

export async function dispatch(input: DispatchInput): Promise<DispatchResult> {
  let nudged = false
  setHandler(dispatchAnsweredSignal, () => { nudged = true })
  const ids = { companyId: input.companyId, dispatchId: input.dispatchId }
  const result: DispatchResult = { status: 'exhausted', subcontractorId: null, offers: [] }
  let settleApproval: ((status: 'executed' | 'failed', outcome: unknown) => Promise<void>) | null = null
  const end = async (status: DispatchResult['status'], outcome: string) => {
    // An approved dispatch that ended before any offer went: the approver hears why.
    await settleApproval?.('failed', { sent: [], failed: [], stopped: `${outcome}: nothing sent` })
    await finishDispatch({ ...ids, status, outcome })
    return { ...result, status }
  }
  if (input.approval) {
    const decision = await awaitApproval(input, input.approval, dispatchWorkflowId(input))
    if (!decision.approved) return end('not_approved', decision.outcome)
    settleApproval = decision.settle
  }
  for (let i = 0; i < input.candidates.length; i++) {
    const subcontractorId = input.candidates[i]!
    const plan = await planDispatchOffer({ ...ids, subcontractorId, position: i + 1, timeoutMs: input.offerTimeoutMs })
    if (plan.stop !== null) return end('cancelled', plan.stop)
    if (plan.skip !== null) {
      result.offers.push({ subcontractorId, state: 'skipped', reason: plan.skip })
      continue
    }
    const delivery: StepDelivery = await deliverEach(input.companyId, plan.messages)
    await settleApproval?.(delivery.sent.length ? 'executed' : 'failed', delivery.outcome)
    const deadline = Date.parse(plan.expiresAt)
    let settled: { state: OfferState; jobCancelled: boolean }
    for (;;) {
      // An answer may arrive while the offer is still being sent: the flag is cleared only after a
      // wait has seen it (a stale one costs one settle call that finds the offer still open).
      const wait = deadline - Date.now()
      const woken = wait > 0 ? await condition(() => nudged, wait) : false
      nudged = false
      settled = await settleDispatchOffer({ companyId: input.companyId, offerId: plan.offerId, expire: !woken })
      if (settled.state !== 'offered') break
    }
    result.offers.push({ subcontractorId, state: settled.state })
    if (settled.state === 'accepted') {
      result.subcontractorId = subcontractorId
      return end('accepted', `accepted by subcontractor ${subcontractorId}`)
    }
    if (settled.jobCancelled) return end('cancelled', 'the job was cancelled')
  }
  return end('exhausted', 'nobody left to offer: every candidate declined, timed out or was no longer eligible')
}
