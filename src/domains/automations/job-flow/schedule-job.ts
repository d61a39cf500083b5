// workflows.schedule_job: books a job on the next business day for the company's state (weekends
// and that state's public holidays skipped, business-days.ts), at a local start time in the
// company's time zone, through jobs.update's path (status Scheduled, a job.scheduled event). A
// short workflow (workflows/schedule-job.ts) whose one activity decides the day and books it, so
// the day is read on the worker's clock at the moment of booking; the run is in automation_runs.
import { afterScheduleJob } from '../engine/next-steps.js'
import Type from 'typebox'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound, validationError } from '../../../core/errors.js'
import { defineOperation } from '../../../core/operation.js'
import { WRITE } from '../../../core/annotations.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { localDate, zonedToInstant } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { withTenantThenStart } from '../../../temporal/outbox.js'
import { scheduleJob, scheduleJobWorkflowId, type ScheduleJobInput, type ScheduleJobResult, type ScheduleJobActivities } from './workflows/schedule-job.js'
import { updateJob } from '../../jobs/service.js'
import { AuState, closed, Id } from '../../shared-schema.js'
import { businessDayAfter } from '../engine/business-days.js'
import { actingFor, assertId, awaitShortRun, nextRunNumber, orStopped, RunStatus } from './job-flow-common.js'
import { automationChoice } from '../engine/settings.js'
import { appendRunStep, insertRun } from '../engine/queries/runs.js'
import { scheduleJobAutomation } from './automation.js'
import { findCompanyState, findTimeZone, lockJobStatus } from './queries.js'

export const SCHEDULE_JOB = scheduleJobAutomation.key

export type { ScheduleJobInput, ScheduleJobResult }

export const scheduleJobDefinition = defineWorkflow<ScheduleJobActivities>()({
  workflow: scheduleJob,
  id: scheduleJobWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Books one job on the next business day of its state (weekends and public holidays skipped) at the local start time. One run per job and request number: a second start is the same booking.',
})

/** The activity: the next business day after today (company time), booked through jobs.update's path. */
export async function bookNextBusinessDay(deps: Deps, input: ScheduleJobInput & { workflowId: string }): Promise<ScheduleJobResult> {
  const now = deps.clock.now()
  const company = await withTenant(deps.db, input.companyId, findTimeZone)
  const today = localDate(now, company!.time_zone)
  const next = businessDayAfter(today, input.state)
  const at = zonedToInstant(`${next.date}T${input.startTime}`, company!.time_zone)
  const booked = await orStopped(() => updateJob(deps, actingFor(input.companyId), {
    job_id: input.jobId, status: 'Scheduled', scheduled_date: at.toISOString(), ...(input.technician ? { technician: input.technician } : {}),
  }))
  const skippedText = next.skipped.length ? `; skipped ${next.skipped.map((s) => `${s.date} (${s.reason})`).join(', ')}` : ''
  const outcome = booked.stop
    ? `not scheduled: ${booked.stop}`
    : `scheduled for ${next.date} ${input.startTime} (${company!.time_zone}), the next business day in ${input.state} after ${today}${skippedText}`
  await withTenant(deps.db, input.companyId, (tx) => appendRunStep(tx, input.workflowId, 'schedule', outcome, deps.clock.now()))
  return { stopped: booked.stop !== null, outcome, scheduledDate: booked.stop ? null : at.toISOString(), localDate: booked.stop ? null : next.date, skipped: next.skipped }
}

const ScheduleJobToolInput = Type.Object(
  {
    job_id: Id('Job to schedule'),
    start_time: Type.Optional(Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', default: '08:00', description: 'Local start time, HH:MM (24-hour)' })),
    technician: Type.Optional(Type.String({ description: 'Technician to assign' })),
    state: Type.Optional(AuState("State whose public holidays apply; defaults to the company's state")),
  },
  closed,
)

const ScheduleJobOutput = Type.Object({
  workflow_id: Type.String({ description: 'Temporal workflow id of this run' }),
  status: RunStatus,
  outcome: Nullable(Type.String()),
  job_id: Type.String(),
  state: Type.String({ description: 'State whose holidays were skipped' }),
  scheduled_date: Nullable(Type.String({ description: 'Booked start (ISO instant); null unless completed' })),
  local_date: Nullable(Type.String({ description: "Booked day in the company's time zone (YYYY-MM-DD)" })),
  skipped: Type.Array(Type.Object({ date: Type.String(), reason: Type.String() }), { description: 'Days passed over and why (weekend or public holiday)' }),
})

export const scheduleJobOperation = defineOperation({
  name: 'workflows.schedule_job',
  domain: 'workflows',
  title: 'Schedule a job next business day',
  description:
    "Book a job on the next business day after today (company time zone), skipping weekends and the state's public holidays, at start_time local: status Scheduled, as jobs.update does. Use it when any next business day will do; for a chosen time, jobs.update scheduled_date. The state is the input's or the company's (company.update_profile); with neither it is refused, as are Completed and Cancelled jobs.",
  input: ScheduleJobToolInput,
  output: ScheduleJobOutput,
  access: { scope: 'jobs', permission: 'write' },
  cost: 'write',
  annotations: WRITE,
  nextSteps: afterScheduleJob,
  async run(ctx, input) {
    const companyId = ctx.principal!.companyId
    assertId(input.job_id, 'Job')
    const now = ctx.deps.clock.now()
    const started = await withTenantThenStart(ctx.deps, companyId, async (tx, start) => {
      const job = await lockJobStatus(tx, input.job_id)
      if (!job) throw notFound('Job')
      if (job.status === 'Completed' || job.status === 'Cancelled') {
        throw new AppError('conflict', `The job is ${job.status}, so it cannot be scheduled. Create a new job (jobs.create) for more work.`, { current_status: job.status })
      }
      const company = await findCompanyState(tx)
      const state = input.state ?? company!.state
      if (!state) {
        throw validationError(["state: the company has no state set, so its public holidays are unknown; set it with company.update_profile {\"state\": \"NSW\"} (REST: PATCH /api/v1/company or /api/v1/settings/company), or pass state"])
      }
      if (!(await automationChoice(tx, scheduleJobAutomation)).enabled) {
        throw new AppError('conflict', 'Scheduling by business day is turned off for this company; turn it on with workflows.toggle (workflow_id schedule_job). Nothing was changed.')
      }
      const spec = workflowStart(scheduleJobDefinition, {
        companyId, jobId: input.job_id, runNumber: await nextRunNumber(tx, SCHEDULE_JOB, input.job_id), state,
        startTime: input.start_time ?? '08:00', technician: input.technician ?? null,
      })
      await insertRun(tx, { companyId, automation: SCHEDULE_JOB, workflowId: spec.workflowId, subjectType: 'job', subjectId: input.job_id }, now)
      await start(spec)
      return { workflowId: spec.workflowId, state }
    })
    const answer = await awaitShortRun<ScheduleJobResult>(ctx.deps, started.workflowId)
    return {
      workflow_id: started.workflowId, status: answer.status, outcome: answer.outcome, job_id: input.job_id, state: started.state,
      scheduled_date: answer.result?.scheduledDate ?? null, local_date: answer.result?.localDate ?? null, skipped: answer.result?.skipped ?? [],
    }
  },
})
