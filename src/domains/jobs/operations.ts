import { afterEta, afterJobChange } from './next-steps.js'
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
    description: 'List jobs newest first with status, schedule, address, amount (AUD incl. GST: what the client pays), technician, notes, invoice info and the linked lead and quote. Filter by status (Quoted, Scheduled, In Progress, Completed, Cancelled), lead_id, technician or a scheduled range. Paged with cursor/nextCursor (REST: limit and offset).',
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
    description: "Create a job for a lead (lead_id required), optionally from one of its quotes (one job per quote; amount and title default from it: pass an Accepted quote's id to turn it into work in one call), with a technician and date. With scheduled_date it is Scheduled; without, Quoted.",
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
    description: 'Change status, schedule, notes, technician, title, address or amount, and record costs (add_costs). Allowed moves: Quoted -> Scheduled (needs a date; setting a date schedules it), In Progress, Completed, Cancelled; Scheduled -> In Progress, Completed, Cancelled (or a new date); In Progress -> Scheduled, Completed, Cancelled. Completed and Cancelled are final (only notes and costs change). Other moves are rejected with the allowed list.',
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
    description: "Mark a job Completed (job_id required), optionally with the client's satisfaction rating (1-5), completion notes, a final amount (incl. GST: the final invoice bills it with one eleventh as GST) and a review request. A Completed job can be invoiced. Completing before the scheduled date is allowed; the result's warnings say so, and the job then counts on the day it was done.",
    input: CompleteJobInput,
    output: CompleteJobResponse,
    access: write,
    cost: 'write',
    annotations: WRITE,
    rest: { method: 'POST', path: '/jobs/:job_id/complete', feature: 'restWrite' },
    run: (ctx, input) => completeJob(ctx.deps, ctx.principal!, input),
    nextSteps: afterJobChange,
  }),
  defineOperation({
    name: 'jobs.send_eta',
    domain: 'jobs',
    title: 'Send an on-my-way notice',
    description: "Tell the job's client the technician is on the way, by SMS (default), email or both, optionally with an ETA in minutes and a short extra message.",
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
