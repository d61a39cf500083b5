// workflows.schedule_job: one activity picks the next business day and books the job; the run's
// record is closed with what happened (booked, or why not).
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import { DATABASE_STEP } from './activity-options.js'
import type { ScheduleJobInput, ScheduleJobResult } from '../src/domains/automations/job-flow/schedule-job.js'

const { bookNextBusinessDay, finishAutomationRun } = proxyActivities<Activities>(DATABASE_STEP)

export async function scheduleJob(input: ScheduleJobInput): Promise<ScheduleJobResult> {
  const { workflowId } = workflowInfo()
  const result = await bookNextBusinessDay({ ...input, workflowId })
  await finishAutomationRun({ companyId: input.companyId, workflowId, status: result.stopped ? 'stopped' : 'completed', outcome: result.outcome })
  return result
}
