// One fire of a company's daily-summary Schedule: ask the database (still on? what are the
// figures?), then send the owner one email keyed by company and local date, so a second fire or a
// manual trigger on the same day sends nothing more.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP, MESSAGE_SEND } from '../../../../../workflows/activity-options.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import type { QueuedMessage, SendMessageActivities } from '../../../../../workflows/messages.js'

export interface DailySummaryInput {
  companyId: string
}

export interface DailySummaryResult {
  status: 'sent' | 'already_sent' | 'skipped' | 'not_sent'
  reason: string | null
}

/**
 * The company's Temporal Schedule id, which is also its runs' id (the schedule appends each fire's
 * time): one schedule per company.
 */
export const dailySummaryWorkflowId = (keys: Pick<DailySummaryInput, 'companyId'>) => `daily-summary:${keys.companyId}`

export type DailySummaryPlan = { stop: string } | { stop: null; date: string; message: QueuedMessage }

export interface DailySummaryActivities extends AutomationRunActivities, SendMessageActivities {
  /** Still on? Today's figures and the one email, keyed by company and local date. */
  planDailySummary(input: { companyId: string; workflowId: string }): Promise<DailySummaryPlan>
}

const { planDailySummary, finishAutomationRun } = proxyActivities<DailySummaryActivities>(DATABASE_STEP)
const { sendMessage } = proxyActivities<DailySummaryActivities>(MESSAGE_SEND)

export async function dailySummary(input: DailySummaryInput): Promise<DailySummaryResult> {
  const { workflowId } = workflowInfo()
  const plan = await planDailySummary({ companyId: input.companyId, workflowId })
  if (plan.stop !== null) return { status: 'skipped', reason: plan.stop }
  const sent = await sendMessage({ companyId: input.companyId, ...plan.message })
  const status = sent.status === 'not_sent' ? 'not_sent' : sent.alreadySent ? 'already_sent' : 'sent'
  await finishAutomationRun({
    companyId: input.companyId, workflowId, status: status === 'not_sent' ? 'failed' : 'completed',
    outcome: status === 'not_sent' ? `not sent: ${sent.reason ?? 'refused'}` : status === 'already_sent' ? `the summary for ${plan.date} was already sent` : `summary for ${plan.date} emailed`,
  })
  return { status, reason: sent.reason ?? null }
}
