// Review booster for one completed job: sleep delayMs, send the review request, sleep reminderMs,
// send the one reminder. Before each step the plan activity asks the database (job still
// Completed, automation still on, client not opted out or replied, not asked twice already); with
// approval on, each step waits in workflows.pending_actions. The send activity is keyed by the
// job's request number (1 for the request, 2 for the reminder): a retry or replay never sends twice.
import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow'
import type { ReviewPlatform } from '../../../reviews/schema.js'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import type { PendingActionActivities, PendingMessage } from '../../../../../workflows/approval.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import { gatedAction } from '../../../../../workflows/gated-action.js'
import type { ChannelChoice, QueuedMessage } from '../../../../../workflows/messages.js'

export type ReviewStep = 'request' | 'reminder'

export interface ReviewBoosterInput {
  companyId: string
  jobId: string
  /** The policy: wait before the request, then before the reminder (0: no reminder). */
  delayMs: number
  reminderMs: number
  platform: ReviewPlatform | null
  channel: ChannelChoice | null
  /** Started by jobs.complete (turning the automation off stops it) or by the tool (an explicit request). */
  automatic: boolean
}

/** One run per job. */
export const reviewBoosterWorkflowId = (keys: Pick<ReviewBoosterInput, 'companyId' | 'jobId'>) => `review-booster:${keys.companyId}:${keys.jobId}`

export interface ReviewStepInput {
  companyId: string
  jobId: string
  step: ReviewStep
  automatic: boolean
  platform: ReviewPlatform | null
  channel: ChannelChoice | null
}

export type ReviewStepPlan =
  | { stop: string }
  /** outgoing: the messages as the reviews path queues them (absent from plans recorded before it existed). */
  | { stop: null; alreadyAsked: string | null; summary: string; preview: PendingMessage[]; outgoing?: QueuedMessage[]; approval: { expiresInMs: number } | null }

export interface ReviewStepOutcome {
  sent: boolean
  requestNumber: number | null
  channels: string[]
  note: string
}

export interface ReviewBoosterActivities extends AutomationRunActivities, PendingActionActivities {
  /** What this step would send (a dry run of the reviews path), or why the run stops. */
  planReviewStep(input: ReviewStepInput): Promise<ReviewStepPlan>
  /** Sends the step through the reviews path, once per job and request number. */
  sendReviewStep(input: ReviewStepInput): Promise<ReviewStepOutcome>
}

const { planReviewStep, sendReviewStep, recordAutomationStep, finishAutomationRun } = proxyActivities<ReviewBoosterActivities>(DATABASE_STEP)

export interface ReviewBoosterResult {
  outcome: 'completed' | 'stopped'
  reason: string | null
  steps: { step: ReviewStep; result: string }[]
}

export async function reviewBooster(input: ReviewBoosterInput): Promise<ReviewBoosterResult> {
  const { workflowId } = workflowInfo()
  const result: ReviewBoosterResult = { outcome: 'completed', reason: null, steps: [] }
  const record = async (step: ReviewStep, text: string) => {
    result.steps.push({ step, result: text })
    await recordAutomationStep({ companyId: input.companyId, workflowId, step, result: text })
  }
  const stop = async (reason: string): Promise<ReviewBoosterResult> => {
    await finishAutomationRun({ companyId: input.companyId, workflowId, status: 'stopped', outcome: `stopped: ${reason}` })
    return { ...result, outcome: 'stopped', reason }
  }

  /** One step; a reason when the run stops there. */
  const run = async (step: ReviewStep): Promise<string | null> => {
    const ids = { companyId: input.companyId, jobId: input.jobId, step, automatic: input.automatic, platform: input.platform, channel: input.channel }
    const plan = await planReviewStep(ids)
    if (plan.stop !== null) return plan.stop
    if (plan.alreadyAsked) {
      await record(step, `not sent again: ${plan.alreadyAsked}`)
      return null
    }
    const done = await gatedAction<ReviewStepOutcome>({
      companyId: input.companyId, automation: 'review_booster', summary: plan.summary, preview: plan.preview, outgoing: plan.outgoing, approval: plan.approval,
      execute: async () => {
        const outcome = await sendReviewStep(ids)
        return { ok: outcome.sent || outcome.requestNumber !== null, outcome }
      },
    })
    if (done.status === 'rejected' || done.status === 'expired') {
      await record(step, done.status === 'rejected' ? 'rejected: nothing sent' : 'expired without a decision: nothing sent')
      return `${step} ${done.status}`
    }
    const outcome = done.outcome!
    await record(step, `${done.approved ? 'approved: ' : ''}${outcome.note}`)
    return done.status === 'failed' ? outcome.note : null
  }

  if (input.delayMs > 0) await sleep(input.delayMs)
  const first = await run('request')
  if (first) return stop(first)
  if (input.reminderMs <= 0) {
    await finishAutomationRun({ companyId: input.companyId, workflowId, status: 'completed', outcome: 'request done; no reminder (reminder_days is 0)' })
    return result
  }
  await sleep(input.reminderMs)
  const second = await run('reminder')
  if (second) return stop(second)
  await finishAutomationRun({ companyId: input.companyId, workflowId, status: 'completed', outcome: 'request and one reminder done' })
  return result
}
