// workflows.process_lead: score and prioritise, one follow-up reminder, the instant response if it
// has not run; each step recorded, the run closed with the outcome.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import type { LeadScore, Priority } from '../lead-score.js'

export interface ProcessLeadInput { companyId: string; leadId: string }

export interface ProcessLeadResult extends LeadScore {
  stopped: boolean
  outcome: string
  reminder: { id: string; dueAt: string } | null
  instantResponse: string
}

/** One run per lead. */
export const processLeadWorkflowId = (keys: Pick<ProcessLeadInput, 'companyId' | 'leadId'>) => `process-lead:${keys.companyId}:${keys.leadId}`

export interface ProcessLeadActivities extends AutomationRunActivities {
  /** Scores the lead and sets its priority (only when it changes). */
  prioritiseLead(input: ProcessLeadInput): Promise<(LeadScore & { stop: null; previous: Priority }) | { stop: string }>
  /** The lead's one follow-up reminder, due by its priority. */
  createLeadFollowUp(input: ProcessLeadInput & { priority: Priority; score: number }): Promise<{ id: string; dueAt: string; existing: boolean }>
  /** Starts the instant response unless it has run; what happened, in words. */
  startLeadInstantResponse(input: ProcessLeadInput): Promise<string>
}

const { prioritiseLead, createLeadFollowUp, startLeadInstantResponse, recordAutomationStep, finishAutomationRun } = proxyActivities<ProcessLeadActivities>(DATABASE_STEP)

export async function processLead(input: ProcessLeadInput): Promise<ProcessLeadResult> {
  const { workflowId } = workflowInfo()
  const { companyId } = input
  const scored = await prioritiseLead(input)
  if (scored.stop !== null) {
    const outcome = `stopped: ${scored.stop}`
    await finishAutomationRun({ companyId, workflowId, status: 'stopped', outcome })
    return { stopped: true, outcome, score: 0, priority: 'Normal', reasons: [], reminder: null, instantResponse: 'not started' }
  }
  const moved = scored.previous === scored.priority ? `stays ${scored.priority}` : `${scored.previous} -> ${scored.priority}`
  await recordAutomationStep({ companyId, workflowId, step: 'priority', result: `score ${scored.score}: priority ${moved} (${scored.reasons.join('; ') || 'no rule scored'})` })
  const reminder = await createLeadFollowUp({ ...input, priority: scored.priority, score: scored.score })
  await recordAutomationStep({ companyId, workflowId, step: 'reminder', result: `${reminder.existing ? 'reminder exists' : 'reminder created'}, due ${reminder.dueAt}` })
  const instantResponse = await startLeadInstantResponse(input)
  await recordAutomationStep({ companyId, workflowId, step: 'instant response', result: instantResponse })
  const outcome = `score ${scored.score}, priority ${scored.priority}; follow-up reminder due ${reminder.dueAt}; instant response ${instantResponse}`
  await finishAutomationRun({ companyId, workflowId, status: 'completed', outcome })
  return { stopped: false, outcome, score: scored.score, priority: scored.priority, reasons: scored.reasons, reminder: { id: reminder.id, dueAt: reminder.dueAt }, instantResponse }
}
