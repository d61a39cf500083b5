// Review requests: the client of a Completed job gets the company's review link by SMS and/or
// email, once per job unless forced. One code path for reviews.request and jobs.complete with
// request_review: every check runs before anything is written, then the request is recorded, the
// job stamped and the messages counted and queued in the caller's transaction; the caller starts
// the delivery after commit. Review requests are marketing messages (message type review_request):
// the comms layer adds the business identification and opt-out, and skips opted-out addresses.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { escapeHtml } from '../../core/html-escape.js'
import { isAuMobile } from '../../core/phone.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import type { WorkflowSpec } from '../../temporal/contract.js'
import { reserveMessageDelivery, type QueuedMessage } from '../comms/deliver.js'
import { findJob, type JobRow } from '../jobs/queries.js'
import { CONFIGURE_HINT, readReviewLinks } from './settings.js'
import { PLATFORM_NAMES, type RequestReviewInput, type ReviewPlatform } from './schema.js'
import { isUuid } from '../../core/uuid.js'
import { firstNameOf, noteGreets } from '../comms/customer-message.js'
import { messageViews } from '../comms/preview.js'
import { findBusinessName, findLatestRequest, insertRequest, lastRequestNumber, stampJobReviewRequested, type RequestRow } from './queries.js'

export function presentRequest(row: RequestRow) {
  return {
    id: row.id, jobId: row.job_id, requestNumber: row.request_number, platform: row.platform, url: row.url,
    channels: row.channels, skipped: row.skipped, workflowId: row.workflow_id, createdAt: row.created_at.toISOString(),
  }
}

export interface ReviewOptions {
  platform?: ReviewPlatform
  channel?: 'sms' | 'email' | 'both'
  message?: string
}

/** The link to send, or an error telling the owner how to set one up. */
async function chooseLink(tx: postgres.TransactionSql, platform: ReviewPlatform | undefined) {
  const { links, defaultPlatform } = await readReviewLinks(tx)
  const chosen = platform ?? defaultPlatform
  if (!chosen) throw new AppError('conflict', `No review link is set up, so there is nothing to send. ${CONFIGURE_HINT}`)
  const url = links.get(chosen)
  if (!url) {
    const others = [...links.keys()]
    throw validationError([`platform: no review link is set for ${PLATFORM_NAMES[chosen]}. ${CONFIGURE_HINT}${others.length ? ` Platforms with a link: ${others.join(', ')}.` : ''}`])
  }
  return { platform: chosen, url }
}

function composeMessages(job: JobRow, business: string, link: { platform: ReviewPlatform; url: string }, options: ReviewOptions, key: string) {
  const first = firstNameOf(job.lead_name)
  // Every client is asked, whatever their rating: no gating, no incentive (ACCC guidance).
  // The owner's wording is sent as written, after a greeting unless it brings its own.
  const own = options.message?.trim()
  const wording = own
    ? (noteGreets(own, first) ? own : `Hi ${first},\n${own}`)
    : `Hi ${first}, thanks for choosing ${business}. We'd appreciate an honest review of our work on ${PLATFORM_NAMES[link.platform]}:`
  const text = `${wording} ${link.url}`
  const mobile = job.lead_phone && isAuMobile(job.lead_phone) ? job.lead_phone : null
  const channel = options.channel ?? (mobile ? 'sms' : 'email')
  const base = { messageType: 'review_request', leadId: job.lead_id, jobId: job.id }
  const messages: QueuedMessage[] = []
  const skipped: string[] = []
  if (channel !== 'email') {
    if (mobile) messages.push({ ...base, channel: 'sms', to: mobile, body: text, idempotencyKey: `${key}:sms` })
    else skipped.push('sms: the client has no Australian mobile number')
  }
  if (channel !== 'sms') {
    if (job.lead_email) {
      const html = `<p>${escapeHtml(wording).replace(/\n/g, '<br>')}</p><p><a href="${escapeHtml(link.url)}">Review ${escapeHtml(business)} on ${escapeHtml(PLATFORM_NAMES[link.platform])}</a></p>`
      messages.push({ ...base, channel: 'email', to: job.lead_email, subject: `How did we go? ${business}`, body: html, text, idempotencyKey: `${key}:email` })
    } else skipped.push('email: the client has no email address')
  }
  if (!messages.length) {
    throw validationError(skipped.map((s) => `channel: ${s}`), "The client cannot be reached on the chosen channel; add the client's mobile or email to the lead (leads.update) or choose another channel.")
  }
  return { messages, skipped }
}

/**
 * Checks, records and queues one review request for a Completed job (row locked by the caller).
 * Throws validation_error, conflict or rate_limited before anything is queued. Returns the
 * delivery to start once the transaction commits.
 */
export async function prepareReviewRequest(tx: postgres.TransactionSql, companyId: string, job: JobRow, options: ReviewOptions, now: Date): Promise<{ request: RequestRow; delivery: WorkflowSpec; messages: QueuedMessage[] }> {
  const { link, number, messages, skipped } = await composeReviewRequest(tx, job, options)
  const delivery = await reserveMessageDelivery(tx, { companyId, subject: `review-request:${job.id}:${number}`, messages, now })
  const request = await insertRequest(tx, companyId, {
    job_id: job.id, request_number: number, platform: link.platform, url: link.url,
    channels: messages.map((m) => m.channel), skipped, workflow_id: delivery.workflowId,
  }, now)
  await stampJobReviewRequested(tx, job.id, now)
  return { request, delivery, messages }
}

/** The request's link, number and messages, written nowhere: what prepareReviewRequest queues and a dry run shows. */
export async function composeReviewRequest(tx: postgres.TransactionSql, job: JobRow, options: ReviewOptions) {
  const link = await chooseLink(tx, options.platform)
  const businessName = await findBusinessName(tx)
  const number = (await lastRequestNumber(tx, job.id)) + 1
  return { link, number, ...composeMessages(job, businessName, link, options, `review:${job.id}:${number}`) }
}

export async function requestReview(deps: Deps, principal: Principal, input: Static<typeof RequestReviewInput>) {
  const now = deps.clock.now()
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const job = isUuid(input.job_id) ? await findJob(tx, input.job_id, { forUpdate: true }) : null
    if (!job) throw notFound('Job')
    if (job.status !== 'Completed') {
      throw new AppError('conflict', `The job is ${job.status}; it must be completed first (jobs.complete, which can request the review itself with request_review: true).`, { current_status: job.status })
    }
    if (!input.force) {
      const earlier = await findLatestRequest(tx, job.id)
      if (earlier) {
        return {
          sent: false, already_requested: true, request: presentRequest(earlier), dry_run: input.dry_run ?? false, messages: [],
          note: `This job's client was already asked on ${earlier.created_at.toISOString()}; nothing was sent. Pass force: true to ask again.`,
        }
      }
    }
    if (input.dry_run) {
      const { messages } = await composeReviewRequest(tx, job, input)
      return {
        sent: false, already_requested: false, request: null, dry_run: true, messages: await messageViews(tx, messages),
        // A review request is marketing (spam-act.ts): the opt-out register is read when it is sent.
        note: "Dry run: nothing was sent or recorded. A real call sends the messages shown, except to an address that has opted out of marketing; a real email carries its own unsubscribe link where the placeholder is.",
      }
    }
    const { request, delivery, messages } = await prepareReviewRequest(tx, principal.companyId, job, input, now)
    await start(delivery)
    return { sent: true, already_requested: false, request: presentRequest(request), dry_run: false, messages: await messageViews(tx, messages), note: `Review request ${request.request_number} queued by ${request.channels.join(' and ')}.` }
  })
}
