import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, SEND, WRITE } from '../../core/planned.js'
import { DateTime, Dollars, Nullable, StringEnum } from '../../core/schema-helpers.js'
import { Channel, closed, DateOnly, Id, JOB_STATUSES, Paging } from './shared.js'

const capability = 'Quotes, jobs and clients'
const read = { scope: 'jobs', permission: 'read' } as const
const write = { scope: 'jobs', permission: 'write' } as const

export const jobsPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'jobs.list',
    title: 'List jobs',
    description:
      'List jobs with title, status, scheduled date, address, amount, technician assignment, notes, invoice info and linked lead and quote. Filter by status, lead, technician or scheduled date range. Cursor-paginated.',
    input: Type.Object(
      {
        status: Type.Optional(StringEnum(JOB_STATUSES, { description: 'Only jobs in this status' })),
        lead_id: Type.Optional(Id('Only jobs for this lead')),
        technician: Type.Optional(Type.String({ description: 'Only jobs assigned to this technician' })),
        scheduled_from: Type.Optional(DateTime({ description: 'Only jobs scheduled at or after this time' })),
        scheduled_to: Type.Optional(DateTime({ description: 'Only jobs scheduled before this time' })),
        ...Paging,
      },
      closed,
    ),
    access: read,
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'jobs.create',
    title: 'Create a job',
    description:
      'Create a job for a lead (lead_id required), optionally linked to a quote and with a technician and scheduled date. With a scheduled date the job starts as Scheduled; without one it starts as Quoted.',
    input: Type.Object(
      {
        lead_id: Id('Lead (client) the job is for'),
        quote_id: Type.Optional(Id('Quote this job carries out, normally an Accepted one')),
        title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Short title; defaults from the quote or lead' })),
        technician: Type.Optional(Type.String({ description: 'Technician assigned to the job' })),
        scheduled_date: Type.Optional(DateTime({ description: 'When the job is booked (ISO 8601 with offset)' })),
        address: Type.Optional(Type.String({ description: "Job site address; defaults to the lead's address" })),
        amount: Type.Optional(Dollars({ minimum: 0, description: 'Job value in AUD dollars; defaults to the linked quote total' })),
        notes: Type.Optional(Type.String({ maxLength: 5000, description: 'Notes for the technician' })),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'jobs.update',
    title: 'Update a job',
    description:
      "Change a job's status, schedule, notes or technician; only the fields you provide change. Any status can be set; the recommended path is Scheduled, then In Progress, then Completed (prefer jobs.complete for the last step).",
    input: Type.Object(
      {
        job_id: Id('Job to update'),
        status: Type.Optional(StringEnum(JOB_STATUSES, { description: 'New status' })),
        scheduled_date: Type.Optional(Nullable(DateTime({ description: 'New booking time; null clears it' }))),
        technician: Type.Optional(Nullable(Type.String({ description: 'Technician to assign; null unassigns' }))),
        notes: Type.Optional(Type.String({ maxLength: 5000, description: 'Replacement notes' })),
        title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'New title' })),
        address: Type.Optional(Type.String({ description: 'New job site address' })),
        amount: Type.Optional(Dollars({ minimum: 0, description: 'New job value in AUD dollars' })),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'jobs.complete',
    title: 'Complete a job',
    description:
      'Mark a job Completed (job_id required). Optionally record the client\'s satisfaction rating (1-5) and trigger a review request. A Completed job can then be invoiced with invoicing.generate.',
    input: Type.Object(
      {
        job_id: Id('Job to complete'),
        satisfaction_rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: "Client's satisfaction, 1 (poor) to 5 (excellent)" })),
        request_review: Type.Optional(Type.Boolean({ default: false, description: 'Also send the client a review request (as reviews.request)' })),
        completion_notes: Type.Optional(Type.String({ maxLength: 5000, description: 'What was done, appended to the job notes' })),
        amount: Type.Optional(Dollars({ minimum: 0, description: 'Final job value in AUD dollars, if it changed' })),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'jobs.send_eta',
    title: 'Send an on-my-way notice',
    description:
      "Tell the job's client the technician is on the way (on-my-way notice) by SMS and/or email, optionally with an ETA.",
    input: Type.Object(
      {
        job_id: Id('Job the technician is travelling to'),
        eta_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 480, description: 'Expected minutes until arrival' })),
        channel: Type.Optional(Channel),
        message: Type.Optional(Type.String({ maxLength: 500, description: 'Extra text added to the notice' })),
      },
      closed,
    ),
    access: write,
    cost: 'write',
    annotations: SEND,
    capability,
  }),
  plannedTool({
    name: 'jobs.profit_summary',
    title: 'Job profit summary',
    description:
      'Profit of jobs: revenue against recorded costs (materials, labour, subcontractors) and margin, per job and in total. Give job_id for one job, or a date range for the jobs completed in it (default the last 30 days).',
    input: Type.Object(
      {
        job_id: Type.Optional(Id('One job to summarise')),
        from: Type.Optional(DateOnly('Start date (YYYY-MM-DD) of the completion period')),
        to: Type.Optional(DateOnly('End date (YYYY-MM-DD, inclusive) of the completion period')),
      },
      closed,
    ),
    access: read,
    cost: 'read',
    annotations: READ,
    capability,
  }),
]
