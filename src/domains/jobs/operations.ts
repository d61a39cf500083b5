import { afterComplete, afterEta, afterJobChange } from './next-steps.js'
import { defineOperation } from '../../core/operation.js'
import { READ, SEND, WRITE } from '../../core/annotations.js'
import {
  CompleteJobInput, CompleteJobResponse, CreateJobInput, JobListResponse, JobResponse, ListJobsInput, ProfitSummaryInput,
  ProfitSummaryResponse, SendEtaInput, SendEtaResponse, UpdateJobInput,
} from './schema.js'
import { completeJob, createJob, listJobs, updateJob } from './service.js'
import { sendEta } from './notices.js'
import { profitSummary } from './profit.js'

const read = { scope: 'jobs', permission: 'read' } as const
const write = { scope: 'jobs', permission: 'write' } as const

export const jobOperations = [
  defineOperation({
    name: 'jobs.list',
    domain: 'jobs',
    title: 'List jobs',
    description: 'List jobs newest first: status, schedule, address, amount (incl. GST), technician, notes, invoice info, lead and quote; filter by status, lead_id, technician or a scheduled range.',
    input: ListJobsInput,
    output: JobListResponse,
    access: read,
    cost: 'read',
    annotations: READ,
    rest: { method: 'GET', path: '/jobs' },
    run: (ctx, input) => listJobs(ctx.deps, ctx.principal!, input),
  }),
  defineOperation({
    name: 'jobs.create',
    domain: 'jobs',
    title: 'Create a job',
    description: "Create a job for a lead, optionally from one of its quotes (one job per quote; amount and title default from it), with a technician: Scheduled with scheduled_date, a time you choose (workflows.schedule_job books the next business day), else Quoted. An accepted quote usually has its job already (create_job_on_acceptance): schedule that one with jobs.update.",
    input: CreateJobInput,
    output: JobResponse,
    access: write,
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/jobs', status: 201, feature: 'restWrite' },
    run: (ctx, input) => createJob(ctx.deps, ctx.principal!, input),
    nextSteps: afterJobChange,
  }),
  defineOperation({
    name: 'jobs.update',
    domain: 'jobs',
    title: 'Update a job',
    description: "Change a job's status, schedule, technician, notes, title, address or amount; record costs (add_costs) and billable extras (add_extras). Any move is allowed except back to Quoted; Scheduled needs a date, and a date schedules a Quoted job. Completed and Cancelled are final (notes, costs and a Completed job's extras still change). scheduled_date books a time you choose (workflows.schedule_job books the next business day); to complete, jobs.complete also records the rating and can ask for a review.",
    input: UpdateJobInput,
    output: JobResponse,
    access: write,
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'PATCH', path: '/jobs/:job_id', feature: 'restWrite' },
    run: (ctx, input) => updateJob(ctx.deps, ctx.principal!, input),
    nextSteps: afterJobChange,
  }),
  defineOperation({
    name: 'jobs.complete',
    domain: 'jobs',
    title: 'Complete a job',
    description: "Mark a job Completed, optionally with the client's satisfaction rating, completion notes and a final amount. Completing before the scheduled date is allowed; warnings say so, and the job counts on the day it was done. Side effects: request_review asks the client for a review now, as reviews.request does (use it to ask at completion); the automations review_booster and, for 5 stars, referral_program start their runs when on (default off).",
    input: CompleteJobInput,
    output: CompleteJobResponse,
    access: write,
    cost: 'write',
    // request_review messages the client.
    annotations: SEND,
    rest: { method: 'POST', path: '/jobs/:job_id/complete', feature: 'restWrite' },
    run: (ctx, input) => completeJob(ctx.deps, ctx.principal!, input),
    nextSteps: afterComplete,
  }),
  defineOperation({
    name: 'jobs.send_eta',
    domain: 'jobs',
    title: 'Send an on-my-way notice',
    description: "Tell the job's client the technician is on the way (by SMS unless channel says otherwise), optionally with an ETA and the owner's note.",
    input: SendEtaInput,
    output: SendEtaResponse,
    access: write,
    cost: 'write',
    annotations: SEND,
    rest: { method: 'POST', path: '/jobs/:job_id/eta', feature: 'restWrite' },
    run: (ctx, input) => sendEta(ctx.deps, ctx.principal!, input),
    nextSteps: afterEta,
  }),
  defineOperation({
    name: 'jobs.profit_summary',
    domain: 'jobs',
    title: 'Job profit summary',
    description: "Revenue, costs (the quote's line-item unit costs plus costs recorded on the job) and margin, per job and in total: one job by job_id, or the jobs completed between from and to (the company's local dates; default the last 30 days).",
    input: ProfitSummaryInput,
    output: ProfitSummaryResponse,
    access: read,
    cost: 'read',
    annotations: READ,
    run: (ctx, input) => profitSummary(ctx.deps, ctx.principal!, input),
  }),
]
