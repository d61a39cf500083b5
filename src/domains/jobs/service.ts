// Jobs: create (Scheduled with a date, Quoted without), update (documented moves only), complete,
// on-my-way notices and profit.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { withTenantEmitting, type Emit } from '../../core/reactions.js'
import { RollBack, rolledBack } from '../../core/dry-run.js'
import { messageViews } from '../comms/preview.js'
import { parseDollars } from '../../core/money.js'
import { belowOneCent, lineTotalCents } from '../../core/gst.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant, inSavepoint, isUniqueViolation } from '../../db/sql.js'
import type { StartAfterCommit } from '../../temporal/outbox.js'
import { prepareReviewRequest, presentRequest } from '../reviews/request.js'
import { findLead } from '../leads/queries.js'
import { findQuote, lineItemsFor } from '../quotes/queries.js'
import { companyTimeZone, companyToday } from '../../core/company-time.js'
import { localDate } from '../../core/zoned-time.js'
import {
  findFinalInvoiceNumber, findJob, insertJob, insertJobCost, insertJobExtras, listJobRows, presentJob,
  findJobIdOfQuote, updateJobCompleted, updateJobRow, updateQuoteInvoicesJob, type JobRow, type NewJobExtra,
} from './queries.js'
import { assertJobMove } from './transitions.js'
import type { JobChanged, JobCompletionRecorded } from './events.js'
import type { CompleteJobInput, CreateJobInput, JobStatus, ListJobsInput, UpdateJobInput } from './schema.js'

async function loadJob(tx: postgres.TransactionSql, id: string, now: Date) {
  const row = await findJob(tx, id)
  if (!row) throw notFound('Job')
  return presentJob(row, await companyToday(tx, now))
}

async function jobEvents(emit: Emit, companyId: string, job: ReturnType<typeof presentJob>, before: JobRow | null, now: Date) {
  const base = { companyId, entityType: 'job', entityId: job.id, payload: { job }, at: now }
  if (!before) await emit({ ...base, type: 'job.created' })
  const rescheduled = job.status === 'Scheduled' && (before?.status !== 'Scheduled' || before.scheduled_date?.toISOString() !== job.scheduledDate)
  if (rescheduled) await emit({ ...base, type: 'job.scheduled' })
  if (job.status === 'Completed' && before?.status !== 'Completed') await emit({ ...base, type: 'job.completed' })
  // Internal: what waits on the job (a quote-to-invoice run) looks again after commit.
  if (before) await emit({ ...base, type: 'job.changed', payload: { jobId: job.id, quoteId: job.quoteId, status: job.status } satisfies JobChanged })
}

export async function createJob(deps: Deps, principal: Principal, input: Static<typeof CreateJobInput>) {
  const now = deps.clock.now()
  try {
    return await withTenantEmitting(deps, principal.companyId, async (tx, emit) => ({ job: await insertNewJob(tx, emit, principal.companyId, input, now) }))
  } catch (error) {
    if (isUniqueViolation(error, 'jobs_quote_unique')) throw new AppError('conflict', 'That quote already has a job; update the existing job instead.')
    throw error
  }
}

/** jobs.create's work inside a transaction: the job, linked to its quote (and the quote's deposit invoice), and its events. */
export async function insertNewJob(tx: postgres.TransactionSql, emit: Emit, companyId: string, input: Static<typeof CreateJobInput>, now: Date) {
  const lead = await findLead(tx, input.lead_id)
  if (!lead) throw notFound('Lead')
  let amountCents = input.amount === undefined ? null : parseDollars(input.amount, 'amount')
  let title = input.title?.trim()
  if (input.quote_id) {
    const quote = await findQuote(tx, input.quote_id, await companyToday(tx, now))
    if (!quote || quote.lead_id !== lead.id) throw notFound('Quote for this lead')
    if (quote.status === 'Declined' || quote.status === 'Expired') {
      throw new AppError('conflict', `Quote ${quote.quote_number} is ${quote.status}; a job needs a live quote.`, { quote_status: quote.status })
    }
    const existing = await findJobIdOfQuote(tx, quote.id)
    if (existing) {
      throw new AppError('conflict', `Quote ${quote.quote_number} has its job already (${existing}${quote.status === 'Accepted' ? ', opened when the quote was accepted' : ''}); schedule or change it with jobs.update job_id ${existing}.`, {
        job_id: existing, next_step: 'jobs.update',
      })
    }
    amountCents ??= Number(quote.total_cents)
    title ??= (await lineItemsFor(tx, [quote.id])).get(quote.id)![0]?.description
  }
  title ||= lead.service_type ?? `Job for ${lead.name}`
  const status: JobStatus = input.scheduled_date ? 'Scheduled' : 'Quoted'
  const address = input.address ?? ([lead.address, lead.suburb].filter(Boolean).join(', ') || null)
  const jobId = await insertJob(tx, companyId, {
    lead_id: lead.id, quote_id: input.quote_id ?? null, title, status, scheduled_date: input.scheduled_date ?? null,
    address, amount_cents: amountCents, technician: input.technician ?? null, notes: input.notes ?? null,
  }, now)
  // A deposit invoiced when the quote was accepted belongs to the job from now on.
  if (input.quote_id) await updateQuoteInvoicesJob(tx, input.quote_id, jobId)
  const job = await loadJob(tx, jobId, now)
  await jobEvents(emit, companyId, job, null, now)
  return job
}

export async function updateJob(deps: Deps, principal: Principal, input: Static<typeof UpdateJobInput>) {
  const { job_id: id, add_costs: costs, add_extras: extras, ...fields } = input
  if (!Object.keys(fields).length && !costs?.length && !extras?.length) throw validationError(['body: give at least one field to change besides job_id'])
  const now = deps.clock.now()
  return withTenantEmitting(deps, principal.companyId, async (tx, emit) => {
    const before = await findJob(tx, id, { forUpdate: true })
    if (!before) throw notFound('Job')
    const final = before.status === 'Completed' || before.status === 'Cancelled'
    if (final && Object.keys(fields).some((k) => k !== 'notes')) {
      if (fields.status && fields.status !== before.status) assertJobMove(before.status, fields.status) // names the move
      throw new AppError('conflict', `A ${before.status} job is final: only its notes and costs can change.`, { current_status: before.status })
    }
    const scheduled = fields.scheduled_date === undefined ? before.scheduled_date : fields.scheduled_date ? new Date(fields.scheduled_date) : null
    // Setting a date on a Quoted job schedules it (the spec leaves this move open; see decisions).
    const target: JobStatus = fields.status ?? (before.status === 'Quoted' && fields.scheduled_date ? 'Scheduled' : before.status)
    if (target !== before.status || (target === 'Scheduled' && fields.scheduled_date)) assertJobMove(before.status, target)
    if (target === 'Scheduled' && !scheduled) throw validationError(['scheduled_date: a Scheduled job needs a date'])

    const changes: Record<string, unknown> = { updated_at: now, status: target }
    if (fields.scheduled_date !== undefined) changes.scheduled_date = scheduled
    for (const k of ['technician', 'notes', 'title', 'address'] as const) if (fields[k] !== undefined) changes[k] = fields[k]
    if (fields.amount !== undefined) changes.amount_cents = fields.amount === null ? null : parseDollars(fields.amount, 'amount')
    if (target === 'Completed' && before.status !== 'Completed') changes.completed_at = now
    await updateJobRow(tx, id, changes)
    for (const cost of costs ?? []) {
      await insertJobCost(tx, principal.companyId, id, cost.description, parseDollars(cost.amount, 'add_costs.amount'), now)
    }
    if (extras?.length) await addExtras(tx, principal.companyId, before, extras, now)
    const job = await loadJob(tx, id, now)
    await jobEvents(emit, principal.companyId, job, before, now)
    return { job }
  })
}

/** Billable extras go on the final invoice, so they can be added until it is issued. */
async function addExtras(tx: postgres.TransactionSql, companyId: string, job: JobRow, extras: NonNullable<Static<typeof UpdateJobInput>['add_extras']>, now: Date) {
  if (job.status === 'Cancelled') throw new AppError('conflict', 'A Cancelled job takes no extras.', { current_status: job.status })
  const final = await findFinalInvoiceNumber(tx, job.id)
  if (final) throw new AppError('conflict', `The job's final invoice ${final} is issued; void it first to add extras, or invoice them separately.`, { invoice_number: final })
  const problems: string[] = []
  const rows = extras.map((e, i): NewJobExtra => {
    let unitPriceCents = 0
    try {
      unitPriceCents = parseDollars(e.unitPrice, `add_extras.${i}.unitPrice`)
    } catch { problems.push(`add_extras.${i}.unitPrice: use at most two decimals (cents)`) }
    let total = 0
    try {
      total = lineTotalCents({ quantity: e.quantity, unitPriceCents })
      const tiny = belowOneCent(`add_extras.${i}`, { quantity: e.quantity, unitPriceCents })
      if (tiny) problems.push(tiny)
    } catch { problems.push(`add_extras.${i}.quantity: use at most three decimals`) }
    return { company_id: companyId, job_id: job.id, description: e.description, quantity: e.quantity, unit_price_cents: unitPriceCents, total_cents: total, created_at: now }
  })
  if (problems.length) throw validationError(problems)
  await insertJobExtras(tx, rows)
}

// A dry run completes the job in full inside its transaction (the review request composed, numbered and
// queued as the real call would) and rolls it all back (core/dry-run.ts): nothing is completed, sent,
// counted or started, and its messages are what the real call would send.
export async function completeJob(deps: Deps, principal: Principal, input: Static<typeof CompleteJobInput>) {
  const now = deps.clock.now()
  return rolledBack(() => withTenantEmitting(deps, principal.companyId, async (tx, emit, start) => {
    const before = await findJob(tx, input.job_id, { forUpdate: true })
    if (!before) throw notFound('Job')
    if (before.status === 'Completed') throw new AppError('conflict', `This job was already completed at ${before.completed_at?.toISOString()}.`, { current_status: 'Completed', allowed: [] })
    assertJobMove(before.status, 'Completed')
    const notes = input.completion_notes ? [before.notes, input.completion_notes].filter(Boolean).join('\n\n') : before.notes
    await updateJobCompleted(tx, input.job_id, {
      notes,
      satisfaction_rating: input.satisfaction_rating ?? null,
      amount_cents: input.amount === undefined ? before.amount_cents : parseDollars(input.amount, 'amount'),
    }, now)
    const review = input.request_review ? await reviewOnCompletion(tx, start, principal.companyId, input.job_id, now) : null
    const messages = review?.queued ? await messageViews(tx, review.queued) : []
    // Reactions queue the client automations here (review booster, referral offer after 5 stars), when on.
    const completion: JobCompletionRecorded = { jobId: input.job_id, rating: input.satisfaction_rating ?? null }
    await emit({ companyId: principal.companyId, type: 'job.completion_recorded', entityType: 'job', entityId: input.job_id, payload: completion, at: now })
    const job = await loadJob(tx, input.job_id, now)
    await jobEvents(emit, principal.companyId, job, before, now)
    const result = {
      job, review_request: review && { sent: review.sent, note: review.note, request: review.request },
      warnings: await completedEarly(tx, before.scheduled_date, now), dry_run: input.dry_run === true, messages,
    }
    if (input.dry_run) throw new RollBack(result)
    return result
  }))
}

/**
 * Completing a job before its booked (local) day is allowed, it happens, but the caller is told:
 * the job now counts as done today, and leaves that day's list on the dashboard.
 */
async function completedEarly(tx: postgres.TransactionSql, scheduled: Date | null, now: Date): Promise<string[]> {
  if (!scheduled) return []
  const timeZone = await companyTimeZone(tx)
  const booked = localDate(scheduled, timeZone)
  const today = localDate(now, timeZone)
  return booked > today
    ? [`Completed on ${today}, before its scheduled date ${booked} (${timeZone}): it counts as completed today and no longer appears among ${booked}'s jobs.`]
    : []
}

/**
 * The review request of jobs.complete, on the same path as reviews.request. The job completes
 * whatever happens here: in a savepoint, so a refusal (no review link, no way to reach the client,
 * the month's message limit) undoes only the request, and the result says why nothing was sent.
 */
async function reviewOnCompletion(tx: postgres.TransactionSql, start: StartAfterCommit, companyId: string, jobId: string, now: Date) {
  let prepared: Awaited<ReturnType<typeof prepareReviewRequest>>
  try {
    prepared = await inSavepoint(tx, 'review_request', async () => prepareReviewRequest(tx, companyId, (await findJob(tx, jobId))!, {}, now))
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    const detail = (error.extra.messages as string[] | undefined)?.join('; ')
    return { sent: false, note: `The job is completed, but no review request was sent: ${error.message}${detail ? ` (${detail})` : ''}`, request: null, queued: null }
  }
  await start(prepared.delivery)
  return { sent: true, note: `Review request queued by ${prepared.request.channels.join(' and ')}.`, request: presentRequest(prepared.request), queued: prepared.messages }
}

export async function listJobs(deps: Deps, principal: Principal, input: Static<typeof ListJobsInput>) {
  const page = pageFrom(input)
  const { rows, total, today } = await withTenant(deps.db, principal.companyId, async (tx) => ({
    ...(await listJobRows(tx, {
      status: input.status, leadId: input.lead_id, technician: input.technician, scheduledFrom: input.scheduled_from, scheduledTo: input.scheduled_to,
    }, page)),
    today: await companyToday(tx, deps.clock.now()),
  }))
  const jobs = rows.map((r) => presentJob(r, today))
  return { jobs, ...pageEnvelope(jobs, total, page) }
}
