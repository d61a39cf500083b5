// workflows.review_booster: ask the clients of recently completed jobs who have not been asked yet,
// at most max_requests a call. Each job gets the booster run of the automation (the request now,
// then the one reminder after the company's reminder_days), whether or not the automatic trigger
// on completion is on: calling the tool is the request. With approval on, each request waits in
// workflows.pending_actions. Jobs whose booster run already exists are reported, not started again.
// A dry run does all of it in a transaction it rolls back, answering with each request it would send.
import { afterReviewBooster } from '../engine/next-steps.js'
import Type, { type Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { AppError, validationError } from '../../../core/errors.js'
import { SEND } from '../../../core/annotations.js'
import { defineOperation } from '../../../core/operation.js'
import { isAuMobile } from '../../../core/phone.js'
import { StringEnum } from '../../../core/schema-helpers.js'
import { withTenantThenStart } from '../../../temporal/outbox.js'
import { CONFIGURE_HINT, readReviewLinks } from '../../reviews/settings.js'
import { PLATFORM_NAMES } from '../../reviews/schema.js'
import { RollBack, rolledBack } from '../../../core/dry-run.js'
import type { QueuedMessage } from '../../../../workflows/messages.js'
import { messageViews } from '../../comms/preview.js'
import { closed, DryRun, REVIEW_PLATFORMS, RunMessageFields } from '../../shared-schema.js'
import { automationChoice } from '../engine/settings.js'
import { previewReviewBooster, startReviewBooster, type ReviewBoosterInput } from './review-booster.js'
import { reviewBoosterAutomation } from './automation.js'
import { deleteFailedRun, listUnaskedJobs } from './queries.js'
import { reviewBoosterWorkflowId } from './workflows/review-booster.js'

const DAY_MS = 86_400_000

const ReviewBoosterOutput = Type.Object({
  requested: Type.Array(Type.Object({
    job_id: Type.String(), job_title: Type.String(), client_name: Type.String(), workflow_id: Type.String(),
  }), { description: 'Jobs whose client is being asked now (or, with approval on, whose request waits in workflows.pending_actions; dry run: would be)' }),
  existing: Type.Array(Type.Object({
    job_id: Type.String(), workflow_id: Type.String(), status: Type.String({ description: 'running, completed, stopped or failed' }),
  }), { description: 'Jobs that already have a review booster run (started at completion, say): not started again' }),
  skipped: Type.Array(Type.Object({ job_id: Type.String(), reason: Type.String() }), { description: 'Jobs not asked, and why' }),
  needs_approval: Type.Boolean({ description: 'Requests wait for approval (workflows.toggle require_approval)' }),
  note: Type.String(),
  ...RunMessageFields,
})
type Out = Omit<Static<typeof ReviewBoosterOutput>, keyof typeof RunMessageFields>

export async function boostReviews(
  deps: Deps, principal: Principal,
  input: { days?: number; platform?: (typeof REVIEW_PLATFORMS)[number]; channel?: 'sms' | 'email' | 'both'; max_requests?: number; dry_run?: boolean },
): Promise<Static<typeof ReviewBoosterOutput>> {
  const companyId = principal.companyId
  const days = input.days ?? 14
  const max = input.max_requests ?? 20
  const since = new Date(deps.clock.now().getTime() - days * DAY_MS)
  return rolledBack(() => withTenantThenStart(deps, companyId, async (tx, start) => {
    const { links, defaultPlatform } = await readReviewLinks(tx)
    if (input.platform && !links.has(input.platform)) throw validationError([`platform: no review link is set for ${PLATFORM_NAMES[input.platform]}. ${CONFIGURE_HINT}`])
    if (!input.platform && !defaultPlatform) throw new AppError('conflict', `No review link is set up, so there is nothing to send. ${CONFIGURE_HINT}`)
    const jobs = await listUnaskedJobs(tx, companyId, since)
    const out: Out = { requested: [], existing: [], skipped: [], needs_approval: (await automationChoice(tx, reviewBoosterAutomation)).needsApproval, note: '' }
    const runs: ReviewBoosterInput[] = []
    for (const job of jobs) {
      const workflowId = reviewBoosterWorkflowId({ companyId, jobId: job.id })
      if (job.run_status && job.run_status !== 'failed') {
        out.existing.push({ job_id: job.id, workflow_id: workflowId, status: job.run_status })
        continue
      }
      const mobile = job.lead_phone && isAuMobile(job.lead_phone)
      const reachable = input.channel === 'sms' ? mobile : input.channel === 'email' ? job.lead_email : mobile || job.lead_email
      if (!reachable) {
        out.skipped.push({ job_id: job.id, reason: `the client has no ${input.channel === 'email' ? 'email address' : input.channel === 'sms' ? 'Australian mobile' : 'Australian mobile or email'}` })
        continue
      }
      if (out.requested.length >= max) {
        out.skipped.push({ job_id: job.id, reason: `max_requests (${max}) reached; call again for the rest` })
        continue
      }
      if (job.run_status === 'failed') await deleteFailedRun(tx, workflowId)
      const started = await startReviewBooster(deps, tx, start, { companyId, jobId: job.id }, { automatic: false, now: true, platform: input.platform, channel: input.channel })
      if (started) runs.push(started.input)
      out.requested.push({ job_id: job.id, job_title: job.title, client_name: job.lead_name, workflow_id: workflowId })
    }
    out.note = out.requested.length
      ? `${out.requested.length} review request(s) ${out.needs_approval ? 'waiting for approval in workflows.pending_actions' : 'on their way'}; each client gets one reminder later unless they opt out or reply. Every client is asked, whatever their rating (no review gating).`
      : 'No client to ask: every recently completed job was asked already or has a run.'
    if (!input.dry_run) return { ...out, dry_run: false, messages: [] }
    const messages: QueuedMessage[] = []
    for (const run of runs) messages.push(...(await previewReviewBooster(tx, run)))
    // Review requests are marketing (spam-act.ts): the opt-out register is read when each is sent.
    const note = runs.length
      ? `Dry run: nothing was sent or started. A real call sends the requests shown${out.needs_approval ? ' once approved' : ''}, except to an address that opted out of marketing; an email carries its own unsubscribe link where the placeholder is.`
      : `Dry run: ${out.note}`
    throw new RollBack({ ...out, note, dry_run: true, messages: await messageViews(tx, messages) })
  }))
}

export const reviewBoosterOperation = defineOperation({
  name: 'workflows.review_booster',
  domain: 'workflows',
  title: 'Review booster',
  description:
    "Ask every client of a recently completed job not asked yet for a review (at most max_requests a call, oldest first): the request now, as reviews.request sends it, then one reminder after the company's reminder_days unless they opt out, reply or were asked twice. Use it to catch up in bulk; reviews.request asks for one job. Every such client is asked regardless of satisfaction (no review gating, per ACCC guidance). With approval on (workflows.toggle review_booster require_approval), each request waits in workflows.pending_actions. Turned on (automation review_booster, default off), it also runs by itself delay_days after each jobs.complete.",
  input: Type.Object(
    {
      days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, default: 14, description: 'Jobs completed in the last this many days (default 14)' })),
      platform: Type.Optional(StringEnum(REVIEW_PLATFORMS, { description: "Review platform to link to; defaults to the company's preferred platform" })),
      channel: Type.Optional(StringEnum(['sms', 'email', 'both'] as const, { description: "Default: the company's setting, else SMS to an Australian mobile, otherwise email" })),
      max_requests: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Most requests to send in this run' })),
      dry_run: DryRun,
    },
    closed,
  ),
  output: ReviewBoosterOutput,
  access: { permission: 'write' },
  cost: 'write',
  annotations: SEND,
  nextSteps: afterReviewBooster,
  run: (ctx, input) => boostReviews(ctx.deps, ctx.principal!, input),
})
