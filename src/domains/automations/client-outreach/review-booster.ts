// Review booster: after a job is completed, the client gets the company's review request (the
// reviews path, src/domains/reviews/request.ts: marketing type review_request, once per job) after
// delay_days, then ONE reminder after reminder_days. We cannot see reviews posted on Google or
// anywhere else, so "one reminder" means: a second request (request number 2 of the job) unless by
// then the client opted out of marketing on every channel we would use, replied to us (an inbound
// message from the client since the request), or was already asked twice (someone forced a repeat
// with reviews.request). The reminder says "if you have already left one, thank you". The workflow
// (workflows/review-booster.ts) sleeps on durable timers; each step asks the database first.
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import { AppError } from '../../../core/errors.js'
import { isAuMobile } from '../../../core/phone.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { withTenantThenStart, type StartAfterCommit } from '../../../temporal/outbox.js'
import { reviewBooster, reviewBoosterWorkflowId, type ReviewBoosterInput, type ReviewStep, type ReviewStepInput, type ReviewStepOutcome, type ReviewStepPlan, type ReviewBoosterActivities } from './workflows/review-booster.js'
import { optedOutSince } from '../../comms/record.js'
import { findJob } from '../../jobs/queries.js'
import { composeReviewRequest, prepareReviewRequest } from '../../reviews/request.js'
import type { ReviewPlatform } from '../../reviews/schema.js'
import type { QueuedMessage } from '../../../../workflows/messages.js'
import { RollBack } from '../../../core/dry-run.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { reviewBoosterAutomation } from './automation.js'
import { countRepliesSince, findBusinessName, findReviewRequestFrom, listReviewRequests } from './queries.js'
import { inSavepoint } from '../../../db/sql.js'
import type { SettingsOf } from '../engine/catalogue.js'
import { isUuid } from '../../../core/uuid.js'

export const REVIEW_BOOSTER = reviewBoosterAutomation.key
const HOUR_MS = 3_600_000

export type ReviewChannel = 'sms' | 'email' | 'both'
export type { ReviewBoosterInput, ReviewStep, ReviewStepOutcome, ReviewStepPlan }

/** Its settings, defaults filled in: the type of its schema (automation.ts). */
export type ReviewBoosterSettingsValue = SettingsOf<typeof reviewBoosterAutomation>


export const reviewBoosterDefinition = defineWorkflow<ReviewBoosterActivities>()({
  workflow: reviewBooster,
  id: reviewBoosterWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: 'Asks the client of a completed job for a review after a delay, then sends one reminder unless they opted out, replied or were asked twice; one run per job (a failed run may be started again).',
})

/** Records the run and queues its start in the caller's transaction. Null when it should not run. */
export async function startReviewBooster(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit,
  job: { companyId: string; jobId: string }, how: { automatic: boolean; now?: boolean; platform?: ReviewPlatform; channel?: ReviewChannel },
): Promise<{ workflowId: string; requestAt: string; input: ReviewBoosterInput } | null> {
  const choice = await automationChoice(tx, reviewBoosterAutomation)
  if (how.automatic && !choice.enabled) return null
  const dayMs = deps.config.AUTOMATION_DAY_MS
  const s = choice.settings
  const spec = workflowStart(reviewBoosterDefinition, {
    companyId: job.companyId, jobId: job.jobId, delayMs: how.now ? 0 : s.delay_days * dayMs, reminderMs: s.reminder_days * dayMs,
    platform: how.platform ?? s.platform ?? null, channel: how.channel ?? s.channel ?? null, automatic: how.automatic,
  })
  const now = deps.clock.now()
  await insertRun(tx, { companyId: job.companyId, automation: REVIEW_BOOSTER, workflowId: spec.workflowId, subjectType: 'job', subjectId: job.jobId }, now)
  await start(spec)
  const input = spec.input as ReviewBoosterInput
  return { workflowId: spec.workflowId, requestAt: new Date(now.getTime() + input.delayMs).toISOString(), input }
}

/**
 * A dry run of a booster run about to start now: the request it sends first, composed by the
 * reviews path it sends through ([] when that path would refuse, as the run would stop).
 */
export async function previewReviewBooster(tx: postgres.TransactionSql, run: ReviewBoosterInput): Promise<QueuedMessage[]> {
  const job = isUuid(run.jobId) ? await findJob(tx, run.jobId) : null
  if (!job) return []
  try {
    return (await composeReviewRequest(tx, job, { platform: run.platform ?? undefined, channel: run.channel ?? undefined })).messages
  } catch (error) {
    if (error instanceof AppError) return []
    throw error
  }
}

type StepInput = ReviewStepInput

const REMINDER_WORDING = (first: string, business: string) =>
  `Hi ${first}, a quick reminder from ${business}: if you have a moment, we'd appreciate an honest review of our work. If you've already left one, thank you!`

async function reminderStop(tx: postgres.TransactionSql, job: { lead_id: string; lead_phone: string | null; lead_email: string | null }, firstAskedAt: Date, channel: ReviewChannel | null): Promise<string | null> {
  if (await countRepliesSince(tx, job.lead_id, firstAskedAt) > 0) return 'the client replied after the request; no reminder sent'
  const mobile = job.lead_phone && isAuMobile(job.lead_phone) ? job.lead_phone : null
  const wanted: ['sms' | 'email', string | null][] = []
  if (channel !== 'email') wanted.push(['sms', mobile])
  if (channel !== 'sms' && (channel !== null || !mobile)) wanted.push(['email', job.lead_email])
  const reachable = wanted.filter(([, to]) => to !== null) as ['sms' | 'email', string][]
  const open = []
  for (const [ch, to] of reachable) if (!(await optedOutSince(tx, ch, to))) open.push(ch)
  if (reachable.length && !open.length) return 'the client opted out of marketing messages; no reminder sent'
  return null
}

/** Activity: what this step would send (a dry run of the reviews path), or why the run stops. */
export async function planReviewStep(deps: Deps, input: StepInput): Promise<ReviewStepPlan> {
  const now = deps.clock.now()
  return withTenant(deps.db, input.companyId, async (tx) => {
    const job = isUuid(input.jobId) ? await findJob(tx, input.jobId) : null
    if (!job) return { stop: 'job not found' }
    if (job.status !== 'Completed') return { stop: `the job is ${job.status}` }
    const choice = await automationChoice(tx, reviewBoosterAutomation)
    if (input.automatic && !choice.enabled) return { stop: 'review booster turned off' }
    const asked = await listReviewRequests(tx, job.id)
    const approval = choice.needsApproval ? { expiresInMs: (choice.settings.approval_expiry_hours ?? 48) * HOUR_MS } : null
    if (input.step === 'request' && asked.length) {
      return { stop: null, alreadyAsked: `already asked on ${asked[0]!.created_at.toISOString()} (request ${asked[0]!.request_number})`, summary: '', preview: [], approval: null }
    }
    if (input.step === 'reminder') {
      if (!asked.length) return { stop: 'the client was never asked, so there is nothing to remind' }
      if (asked.length >= 2) return { stop: `the client was already asked ${asked.length} times (a repeat was forced); no reminder sent` }
      const stop = await reminderStop(tx, job, asked[0]!.created_at, input.channel)
      if (stop) return { stop }
    }
    const businessName = await findBusinessName(tx)
    const first = job.lead_name.split(/\s+/)[0] ?? job.lead_name
    const message = input.step === 'reminder' ? REMINDER_WORDING(first, businessName) : undefined
    try {
      // The reviews path run and rolled back: what it would send, without sending it.
      await inSavepoint(tx, 'review_dry_run', async () => {
        const { messages } = await prepareReviewRequest(tx, input.companyId, job, { platform: input.platform ?? undefined, channel: input.channel ?? undefined, message }, now)
        throw new RollBack(messages)
      })
      throw new Error('unreachable: the dry run always throws')
    } catch (error) {
      if (error instanceof RollBack) {
        const outgoing = error.result as QueuedMessage[]
        const what = input.step === 'reminder' ? 'Review reminder' : 'Review request'
        const preview = outgoing.map((m) => ({ channel: m.channel, to: m.to, name: job.lead_name, subject: m.subject ?? null, text: m.text ?? m.body }))
        return { stop: null, alreadyAsked: null, summary: `${what} to ${job.lead_name} for "${job.title}"`, preview, outgoing, approval }
      }
      if (error instanceof AppError) return { stop: `nothing can be sent: ${error.message}${error.extra.messages ? ` (${(error.extra.messages as string[]).join('; ')})` : ''}` }
      throw error
    }
  })
}

/**
 * Activity: sends the step through the reviews path, once: the request is request 1 of the job,
 * the reminder request 2, so a retried activity finds its request already recorded and queues
 * nothing again (the job row is locked while it counts).
 */
export async function sendReviewStep(deps: Deps, input: StepInput): Promise<ReviewStepOutcome> {
  const now = deps.clock.now()
  const target = input.step === 'request' ? 1 : 2
  return withTenantThenStart(deps, input.companyId, async (tx, start) => {
    const job = await findJob(tx, input.jobId, { forUpdate: true })
    if (!job || job.status !== 'Completed') return { sent: false, requestNumber: null, channels: [], note: 'the job is no longer Completed' }
    const existing = await findReviewRequestFrom(tx, job.id, target)
    if (existing) return { sent: false, requestNumber: existing.request_number, channels: existing.channels, note: `request ${existing.request_number} was already recorded` }
    const businessName = await findBusinessName(tx)
    const first = job.lead_name.split(/\s+/)[0] ?? job.lead_name
    const message = input.step === 'reminder' ? REMINDER_WORDING(first, businessName) : undefined
    try {
      // A request the reviews path refuses is undone, leaving the transaction usable.
      const { request, delivery } = await inSavepoint(tx, 'review_send', () =>
        prepareReviewRequest(tx, input.companyId, job, { platform: input.platform ?? undefined, channel: input.channel ?? undefined, message }, now))
      await start(delivery)
      return { sent: true, requestNumber: request.request_number, channels: request.channels, note: `queued by ${request.channels.join(' and ')}` }
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      return { sent: false, requestNumber: null, channels: [], note: `not sent: ${error.message}` }
    }
  })
}
