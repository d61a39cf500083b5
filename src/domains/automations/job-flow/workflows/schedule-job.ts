// workflows.schedule_job: one activity picks the next business day and books the job; the run's
// record is closed with what happened (booked, or why not).
import { proxyActivities, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import type { AuStateCode } from '../../engine/business-days.js'

export interface ScheduleJobInput {
  companyId: string
  jobId: string
  /** The n-th schedule_job run for this job: a job may be booked again later (a new run). */
  runNumber: number
  state: AuStateCode
  startTime: string
  technician: string | null
}

export interface ScheduleJobResult {
  stopped: boolean
  outcome: string
  scheduledDate: string | null
  localDate: string | null
  skipped: { date: string; reason: string }[]
}

/** One run per job and request number. */
export const scheduleJobWorkflowId = (keys: Pick<ScheduleJobInput, 'companyId' | 'jobId' | 'runNumber'>) => `schedule-job:${keys.companyId}:${keys.jobId}:${keys.runNumber}`

export interface ScheduleJobActivities extends AutomationRunActivities {
  /** Picks the next business day of the job's state and books the job, once. */
  bookNextBusinessDay(input: ScheduleJobInput & { workflowId: string }): Promise<ScheduleJobResult>
}

const { bookNextBusinessDay, finishAutomationRun } = proxyActivities<ScheduleJobActivities>(DATABASE_STEP)

export async function scheduleJob(input: ScheduleJobInput): Promise<ScheduleJobResult> {
  const { workflowId } = workflowInfo()
  const result = await bookNextBusinessDay({ ...input, workflowId })
  await finishAutomationRun({ companyId: input.companyId, workflowId, status: result.stopped ? 'stopped' : 'completed', outcome: result.outcome })
  return result
}
