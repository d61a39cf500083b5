// workflows.process_lead: score and prioritise, one follow-up reminder, the instant response if it
// has not run; each step recorded, the run closed with the outcome.
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import { DATABASE_STEP } from './activity-options.js'
import type { ProcessLeadInput, ProcessLeadResult } from '../src/domains/automations/job-flow/process-lead.js'

const { prioritiseLead, createLeadFollowUp, startLeadInstantResponse, recordAutomationStep, finishAutomationRun } = proxyActivities<Activities>(DATABASE_STEP)

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
