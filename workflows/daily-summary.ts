// One fire of a company's daily-summary Schedule: ask the database (still on? what are the
// figures?), then send the owner one email keyed by company and local date, so a second fire or a
// manual trigger on the same day sends nothing more.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import type { DailySummaryInput } from '../src/domains/automations/daily-summary/daily-summary.js'
import { DATABASE_STEP, MESSAGE_SEND } from './activity-options.js'

const { planDailySummary, finishAutomationRun } = proxyActivities<Activities>(DATABASE_STEP)
const { sendMessage } = proxyActivities<Activities>(MESSAGE_SEND)

export async function dailySummary(input: DailySummaryInput): Promise<{ status: 'sent' | 'already_sent' | 'skipped' | 'not_sent'; reason: string | null }> {
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
