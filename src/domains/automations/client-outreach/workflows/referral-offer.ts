// A referral offer for one 5-star job: wait delayMs, ask the database what to send (still a 5-star
// completion, automation still on; the client's code made once), hold it for approval when the
// company asks for that, then send each message with a key per job and channel, so a retry or a
// replay never sends twice.
import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP, MESSAGE_SEND } from '../../../../../workflows/activity-options.js'
import type { PendingActionActivities, PendingMessage } from '../../../../../workflows/approval.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import { gatedAction } from '../../../../../workflows/gated-action.js'
import type { QueuedMessage, SendMessageActivities } from '../../../../../workflows/messages.js'

export interface ReferralOfferInput {
  companyId: string
  jobId: string
  delayMs: number
}

/** One run per job. */
export const referralOfferWorkflowId = (keys: Pick<ReferralOfferInput, 'companyId' | 'jobId'>) => `referral-offer:${keys.companyId}:${keys.jobId}`

export type ReferralPlan =
  | { stop: string }
  | { stop: null; code: string; summary: string; messages: QueuedMessage[]; preview: PendingMessage[]; approval: { expiresInMs: number } | null }

export interface ReferralOfferActivities extends AutomationRunActivities, PendingActionActivities, SendMessageActivities {
  /** The offer to send (the client's code made if need be), or why not. */
  planReferralOffer(input: { companyId: string; jobId: string }): Promise<ReferralPlan>
}

const { planReferralOffer, recordAutomationStep, finishAutomationRun } = proxyActivities<ReferralOfferActivities>(DATABASE_STEP)
const { sendMessage } = proxyActivities<ReferralOfferActivities>(MESSAGE_SEND)

export interface ReferralOfferResult {
  outcome: 'completed' | 'stopped' | 'failed'
  reason: string | null
  code: string | null
  sent: string[]
  notSent: string[]
}

export async function referralOffer(input: ReferralOfferInput): Promise<ReferralOfferResult> {
  const { workflowId } = workflowInfo()
  const finish = async (result: ReferralOfferResult, outcome: string) => {
    await finishAutomationRun({ companyId: input.companyId, workflowId, status: result.outcome, outcome })
    return result
  }
  if (input.delayMs > 0) await sleep(input.delayMs)
  const plan = await planReferralOffer({ companyId: input.companyId, jobId: input.jobId })
  if (plan.stop !== null) return finish({ outcome: 'stopped', reason: plan.stop, code: null, sent: [], notSent: [] }, `stopped: ${plan.stop}`)

  const done = await gatedAction({
    companyId: input.companyId, automation: 'referral_program', summary: plan.summary, preview: plan.preview, outgoing: plan.messages, approval: plan.approval,
    execute: async () => {
      const outcome = { sent: [] as string[], notSent: [] as string[] }
      for (const message of plan.messages) {
        try {
          const sent = await sendMessage({ companyId: input.companyId, ...message })
          if (sent.status === 'not_sent') outcome.notSent.push(`${message.channel}: ${sent.reason ?? 'not sent'}`)
          else outcome.sent.push(message.channel)
        } catch (error) {
          outcome.notSent.push(`${message.channel}: ${(error as Error).message}`)
        }
      }
      return { ok: outcome.sent.length > 0, outcome }
    },
  })
  if (done.status === 'rejected' || done.status === 'expired') {
    const reason = done.status === 'rejected' ? 'rejected: nothing sent' : 'expired without a decision: nothing sent'
    return finish({ outcome: 'stopped', reason, code: plan.code, sent: [], notSent: [] }, reason)
  }
  const { sent, notSent } = done.outcome!
  const summary = [sent.length ? `offer with code ${plan.code} sent by ${sent.join(' and ')}` : 'nothing sent', ...notSent.map((n) => `not sent ${n}`)].join('; ')
  await recordAutomationStep({ companyId: input.companyId, workflowId, step: 'offer', result: summary })
  return finish({ outcome: sent.length ? 'completed' : 'failed', reason: null, code: plan.code, sent, notSent }, `${done.approved ? 'approved: ' : ''}${summary}`)
}
