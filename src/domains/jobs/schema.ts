import Type from 'typebox'
import { DateTime, Dollars, Nullable, StringEnum, UPDATE_OPTIONS } from '../../core/schema-helpers.js'
import { PageFields, PagingInput } from '../../core/paging.js'
import { CompletionReviewOutcome } from '../reviews/schema.js'
import { DateOnly, DryRun, MessageOutputFields, Quantity } from '../shared-schema.js'

export const JOB_STATUSES = ['Quoted', 'Scheduled', 'In Progress', 'Completed', 'Cancelled'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

const closed = { additionalProperties: false } as const
const Id = (description: string) => Type.String({ format: 'uuid', description })

export const JobSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  status: StringEnum(JOB_STATUSES),
  scheduledDate: Nullable(DateTime()),
  address: Nullable(Type.String()),
  amount: Nullable(Dollars('incl', { description: 'Job value, what the client pays for it; from a quote, its total' })),
  technician: Nullable(Type.String()),
  subcontractor_id: Nullable(Type.String({ format: 'uuid', description: 'The subcontractor who accepted it through subcontractors.dispatch; null if none' })),
  notes: Nullable(Type.String()),
  lead_id: Type.String(),
  quoteId: Nullable(Type.String()),
  lead: Type.Object({ id: Type.String(), name: Type.String(), phone: Nullable(Type.String()), email: Nullable(Type.String()) }),
  quote: Nullable(Type.Object({ id: Type.String(), quoteNumber: Type.String(), status: Type.String(), total: Dollars('incl', { description: 'Quote total' }) })),
  completed_at: Nullable(DateTime()),
  satisfaction_rating: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
  review_requested_at: Nullable(DateTime()),
  invoice: Nullable(Type.Object({
    id: Type.String(), number: Type.String(), kind: Type.String(), status: Type.String({ description: 'Draft, Sent, Partially Paid, Paid or Overdue' }),
    total: Dollars('incl', { description: 'Invoice total' }), balance: Dollars('incl', { description: 'Still owed on it' }), due_date: Type.String({ format: 'date' }),
  }, { description: "The job's latest invoice (void ones left out); null until invoiced" })),
  invoicing: Type.Object({
    invoiced: Dollars('incl', { description: 'Invoiced so far, net of credit notes (deposits included)' }),
    paid: Dollars('incl', { description: 'Paid on its invoices' }),
    outstanding: Dollars('incl', { description: 'Still owed on its invoices' }),
    invoice_count: Type.Integer(),
  }),
  createdAt: DateTime(),
  updated_at: DateTime(),
})

export const ListJobsInput = Type.Object(
  {
    status: Type.Optional(StringEnum(JOB_STATUSES, { description: 'Only jobs in this status' })),
    lead_id: Type.Optional(Id('Only jobs for this lead')),
    technician: Type.Optional(Type.String({ maxLength: 100, description: 'Only jobs assigned to this technician' })),
    scheduled_from: Type.Optional(DateTime({ description: 'Only jobs scheduled at or after this time' })),
    scheduled_to: Type.Optional(DateTime({ description: 'Only jobs scheduled before this time' })),
    ...PagingInput,
  },
  closed,
)

export const CreateJobInput = Type.Object(
  {
    lead_id: Id('Lead (client) the job is for'),
    quote_id: Type.Optional(Id("Quote this job carries out (the lead's; normally Accepted). One job per quote")),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Short title; defaults from the quote or the lead' })),
    technician: Type.Optional(Type.String({ maxLength: 100, description: 'Technician assigned' })),
    scheduled_date: Type.Optional(DateTime({ description: 'Booking time (ISO 8601 with offset). With it the job is Scheduled; without, Quoted' })),
    address: Type.Optional(Type.String({ maxLength: 300, description: "Job site; defaults to the lead's address" })),
    amount: Type.Optional(Dollars('incl', { minimum: 0, maximum: 10_000_000, description: 'Job value, what the client pays: an invoice from it is this total with one eleventh as GST; defaults to the quote total' })),
    notes: Type.Optional(Type.String({ maxLength: 5000, description: 'Notes for the technician' })),
  },
  closed,
)

export const CostInput = Type.Object(
  { description: Type.String({ minLength: 1, maxLength: 300 }), amount: Dollars('incl', { minimum: 0, maximum: 10_000_000, description: 'What it cost, as paid' }) },
  closed,
)

export const ExtraInput = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 500 }),
    quantity: Quantity('0.001 to 100000, up to three decimals'),
    unitPrice: Dollars('ex', { minimum: 0, maximum: 1_000_000, description: 'Price per unit; GST 10% is added on the invoice' }),
  },
  closed,
)

export const UpdateJobInput = Type.Object(
  {
    job_id: Id('Job to update'),
    status: Type.Optional(StringEnum(JOB_STATUSES, { description: 'New status; see the allowed moves in the tool description' })),
    scheduled_date: Type.Optional(Nullable(DateTime({ description: 'New booking time; on a Quoted job this schedules it; null clears it (not while Scheduled)' }))),
    technician: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'Technician to assign; null unassigns' }))),
    notes: Type.Optional(Nullable(Type.String({ maxLength: 5000, description: 'Replacement notes; null clears them' }))),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    address: Type.Optional(Nullable(Type.String({ maxLength: 300 }))),
    amount: Type.Optional(Nullable(Dollars('incl', { minimum: 0, maximum: 10_000_000, description: 'Job value, what the client pays for it' }))),
    add_costs: Type.Optional(Type.Array(CostInput, { maxItems: 50, description: 'Costs to record against the job (materials, labour, subcontractors), for jobs.profit_summary' })),
    add_extras: Type.Optional(Type.Array(ExtraInput, { maxItems: 50, description: "Billable work beyond the quote (variations), charged on the job's final invoice with GST" })),
  },
  UPDATE_OPTIONS,
)

export const CompleteJobInput = Type.Object(
  {
    job_id: Id('Job to complete'),
    satisfaction_rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: "Client's satisfaction, 1 (poor) to 5 (excellent)" })),
    request_review: Type.Optional(Type.Boolean({ default: false, description: 'Ask the client for a review' })),
    dry_run: DryRun,
    completion_notes: Type.Optional(Type.String({ maxLength: 5000, description: 'What was done; appended to the notes' })),
    amount: Type.Optional(Dollars('incl', { minimum: 0, maximum: 10_000_000, description: 'Final job value, what the client pays, if it changed: the final invoice is this total with one eleventh as GST' })),
  },
  closed,
)

export const SendEtaInput = Type.Object(
  {
    job_id: Id('Job the technician is travelling to'),
    eta_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 480, description: 'Expected minutes until arrival' })),
    channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { default: 'sms' })),
    message: Type.Optional(Type.String({ maxLength: 500, description: "The owner's note, sent as written after the greeting, before the notice (a note with its own greeting replaces ours)" })),
    dry_run: DryRun,
  },
  closed,
)

export const ProfitSummaryInput = Type.Object(
  {
    job_id: Type.Optional(Id('One job to summarise')),
    from: Type.Optional(DateOnly('Start date (YYYY-MM-DD) of the completion period (default 30 days ago)')),
    to: Type.Optional(DateOnly('End date (YYYY-MM-DD, inclusive; default today)')),
  },
  closed,
)

// Job profit is in the money the client pays and the costs as paid, both incl. GST.
const Money = Dollars('incl')
export const ProfitLine = Type.Object({
  jobId: Type.String(), title: Type.String(), status: StringEnum(JOB_STATUSES), revenue: Money,
  costs: Type.Object({ materials: Money, recorded: Money, total: Money }), margin: Money, marginPercent: Nullable(Type.Number()),
})
export const ProfitSummaryResponse = Type.Object({
  jobs: Type.Array(ProfitLine),
  totals: Type.Object({ revenue: Money, costs: Money, margin: Money, marginPercent: Nullable(Type.Number()) }),
  period: Nullable(Type.Object({ from: Type.String(), to: Type.String() })),
})

export const JobResponse = Type.Object({ job: JobSchema })
export const JobListResponse = Type.Object({ jobs: Type.Array(JobSchema), ...PageFields })
export const CompleteJobResponse = Type.Object({
  job: JobSchema,
  review_request: Nullable(CompletionReviewOutcome),
  ...MessageOutputFields,
  warnings: Type.Array(Type.String(), { description: 'What the caller should know about this completion, e.g. that it came before the scheduled date; empty when nothing' }),
})
export const SendEtaResponse = Type.Object({
  job: JobSchema,
  ...MessageOutputFields,
  delivery: Type.Object({ workflow_id: Nullable(Type.String()), channels: Type.Array(Type.String()), skipped: Type.Array(Type.String()) }),
})
