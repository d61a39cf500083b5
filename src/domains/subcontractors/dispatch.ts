// subcontractors.dispatch: who may be offered the job (verified or active, available, the trade and
// area matching, licence and insurance on record and current; everyone else is left out with the
// reason recorded), the dispatch's record and its run (write-then-start), the run's activities, and
// the answer from the offer page. Each offer's SMS/email carries a key per offer and channel.
import { randomBytes, randomUUID } from 'node:crypto'
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { AppError, notFound } from '../../core/errors.js'
import { recordEvent } from '../../core/events.js'
import { companyToday } from '../../core/company-time.js'
import { escapeHtml as e } from '../../core/html-escape.js'
import { isAuMobile } from '../../core/phone.js'
import { withTenant } from '../../db/sql.js'
import { longLocalDate, shortLocalTime } from '../../core/zoned-time.js'
import { LICENCE_NOT_IN_FORCE } from '../../providers/registers/provider.js'
import { defineWorkflow, workflowStart } from '../../temporal/contract.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import type { QueuedMessage } from '../../../workflows/messages.js'
import { raiseReminder } from '../reminders/service.js'
import {
  assignJobSubcontractor, findDispatch, findDispatchCompany, findDispatchJob, findOffer, findOfferByToken, findOfferingBusiness, findRunningDispatch,
  findDispatchRequiresApproval, findSubcontractorForOffer, finishDispatchRow, insertDispatch, listDispatchCandidates, nextDispatchNumber, recordSkippedOffer, setOfferStatus, upsertOffer,
  type DispatchJobRow, type SubcontractorRow,
} from './queries.js'
import { dispatch, dispatchAnsweredSignal, dispatchWorkflowId, type DispatchActivities, type DispatchInput, type OfferPlan, type OfferState } from './workflows/dispatch.js'

export const dispatchDefinition = defineWorkflow<DispatchActivities>()({
  workflow: dispatch,
  id: dispatchWorkflowId,
  idConflictPolicy: 'FAIL',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: "Offers one job to subcontractors in turn (SMS/email with an accept/decline page, a timeout each) until one accepts, the job is cancelled or nobody is left. The id carries the job's dispatch number, so each dispatch runs once.",
})

const newToken = () => randomBytes(18).toString('base64url')
export const dispatchOfferUrl = (siteRoot: string, token: string) => `${siteRoot.replace(/\/$/, '')}/d/${token}`

/** Why a subcontractor may not be offered this job, or null. */
export function ineligibleReason(s: SubcontractorRow, job: DispatchJobRow, trade: string | null, today: string): string | null {
  if (s.status !== 'verified' && s.status !== 'active') return `status ${s.status} (only verified or active subcontractors are offered work)`
  if (!s.available) return 'marked unavailable'
  if (trade && !s.trades.includes(trade.trim().toLowerCase())) return `does not do ${trade}`
  if (s.service_suburbs.length && job.address) {
    const address = job.address.toLowerCase()
    if (!s.service_suburbs.some((suburb) => address.includes(suburb))) return 'the job address is outside their service suburbs'
  }
  if (!s.licence_number || !s.licence_expiry) return 'no licence on record'
  // The register's latest word outranks the expiry date typed in (a licence cancelled early).
  if (LICENCE_NOT_IN_FORCE.includes(s.register_check.outcome)) return `licence ${s.register_check.outcome} at the register: ${s.register_check.detail}`
  if (s.licence_expiry < today) return `licence expired ${s.licence_expiry}`
  if (!s.policy_number || !s.insurance_expiry) return 'no public liability insurance on record'
  if (s.insurance_expiry < today) return `insurance expired ${s.insurance_expiry}`
  if (!s.phone && !s.email) return 'no phone or email to send the offer to'
  return null
}

export interface DispatchRequest { job_id: string; subcontractor_id?: string; candidates?: string[]; trade?: string; message?: string; dry_run?: boolean }

async function composeOffer(deps: Deps, tx: postgres.TransactionSql, job: DispatchJobRow, s: SubcontractorRow, offer: { id: string; token: string; expiresAt: Date }): Promise<QueuedMessage[]> {
  const { name: business, timeZone } = await findOfferingBusiness(tx)
  const link = dispatchOfferUrl(deps.urls.siteRoot, offer.token)
  // The deadline on the business's clock, as the offer page shows it.
  const answerBy = `${shortLocalTime(offer.expiresAt, timeZone)}, ${longLocalDate(offer.expiresAt, timeZone)}`
  const when = job.scheduled_date ? ` on ${job.scheduled_date}` : ''
  const where = job.address ? ` at ${job.address}` : ''
  const text = `${business}: job offer "${job.title}"${where}${when}. Accept or decline: ${link}`
  const base = { messageType: 'dispatch_offer', jobId: job.id }
  const key = `dispatch-offer:${offer.id}`
  const out: QueuedMessage[] = []
  if (s.phone && isAuMobile(s.phone)) out.push({ ...base, channel: 'sms', to: s.phone, body: text, idempotencyKey: `${key}:sms` })
  if (s.email) {
    out.push({
      ...base, channel: 'email', to: s.email, subject: `Job offer from ${business}: ${job.title}`, idempotencyKey: `${key}:email`,
      // Names, titles and addresses are people's text: escaped in the HTML part.
      body: `<p>Hi ${e(s.name)},</p><p>${e(business)} offers you the job "${e(job.title)}"${e(where)}${e(when)}.</p><p><a href="${e(link)}">Accept or decline</a> by ${e(answerBy)}.</p>`,
    })
  }
  return out
}

export async function startDispatch(deps: Deps, companyId: string, input: DispatchRequest) {
  return withTenantThenStart(deps, companyId, async (tx, start) => {
    const job = await findDispatchJob(tx, input.job_id)
    if (!job) throw notFound('Job')
    if (job.status === 'Completed' || job.status === 'Cancelled') throw new AppError('conflict', `The job is ${job.status}; only an open job is dispatched.`, { job_id: job.id })
    const running = await findRunningDispatch(tx, job.id)
    if (running) throw new AppError('conflict', `The job already has a dispatch running (${running.workflow_id}); wait for it to end, or cancel the job to stop it.`, { job_id: job.id })
    const wanted = input.subcontractor_id ? [input.subcontractor_id] : input.candidates?.length ? input.candidates : null
    const rows = await listDispatchCandidates(tx, wanted)
    const ordered = wanted ? wanted.map((id) => rows.find((r) => r.id === id)).filter((r): r is SubcontractorRow => !!r) : rows
    if (wanted && ordered.length < wanted.length) throw notFound('Subcontractor')
    const today = await companyToday(tx, deps.clock.now())
    const excluded: { subcontractor_id: string; name: string; reason: string }[] = []
    const eligible: SubcontractorRow[] = []
    for (const s of ordered) {
      const reason = ineligibleReason(s, job, input.trade ?? null, today)
      if (reason) excluded.push({ subcontractor_id: s.id, name: s.name, reason })
      else eligible.push(s)
    }
    if (!eligible.length) {
      throw new AppError('conflict', 'Nobody can be offered this job: ' + (excluded.map((x) => `${x.name}: ${x.reason}`).join('; ') || 'no verified or active subcontractors') + '. Register or verify a subcontractor (subcontractors.register, subcontractors.verify) or renew their documents.', { excluded })
    }
    const now = deps.clock.now()
    const timeout = deps.config.DISPATCH_OFFER_TIMEOUT_MS
    const heldForApproval = await findDispatchRequiresApproval(tx)
    // The first offer as it would go (its link is made when it is sent): the dry run's preview, and what the approver sees.
    const firstOffer = (token: string) => composeOffer(deps, tx, job, eligible[0]!, { id: token, token, expiresAt: new Date(now.getTime() + timeout) })
    if (input.dry_run) {
      return { dryRun: true as const, workflowId: null, heldForApproval, pendingActionId: null, candidates: eligible, excluded, messages: await firstOffer('dry-run') }
    }
    const number = await nextDispatchNumber(tx, job.id)
    const workflowId = dispatchWorkflowId({ companyId, jobId: job.id, number })
    const dispatchId = await insertDispatch(tx, { companyId, jobId: job.id, number, workflowId, trade: input.trade ?? null, candidates: eligible.map((s) => s.id), excluded }, now)
    const approval: DispatchInput['approval'] = heldForApproval
      ? {
          actionId: randomUUID(),
          expiresInMs: deps.config.DISPATCH_APPROVAL_EXPIRY_MS,
          summary: `Offer the job "${job.title}" to ${eligible.map((s) => s.name).join(', then ')}, one at a time (${Math.round(timeout / 60_000)} min each to answer)`,
          messages: (await firstOffer('sent-on-approval')).map((m) => ({ channel: m.channel, to: m.to, name: eligible[0]!.name, subject: m.subject ?? null, text: m.text ?? m.body })),
        }
      : undefined
    await start(workflowStart(dispatchDefinition, { companyId, jobId: job.id, dispatchId, number, candidates: eligible.map((s) => s.id), offerTimeoutMs: timeout, ...(approval ? { approval } : {}) }))
    return { dryRun: false as const, workflowId, dispatchId, heldForApproval, pendingActionId: approval?.actionId ?? null, candidates: eligible, excluded, messages: [] as QueuedMessage[] }
  })
}

// Activities.

export async function planDispatchOffer(deps: Deps, input: Parameters<DispatchActivities['planDispatchOffer']>[0]): Promise<OfferPlan> {
  return withTenant(deps.db, input.companyId, async (tx) => {
    const now = deps.clock.now()
    const d = await findDispatch(tx, input.dispatchId)
    const job = d && (await findDispatchJob(tx, d.job_id))
    if (!d || !job) return { stop: 'the dispatch or its job no longer exists' }
    if (job.status === 'Cancelled') return { stop: 'the job was cancelled' }
    const s = await findSubcontractorForOffer(tx, input.subcontractorId)
    const reason = s ? ineligibleReason(s, job, null, await companyToday(tx, now)) : 'no longer exists'
    if (reason) {
      await recordSkippedOffer(tx, { companyId: input.companyId, dispatchId: input.dispatchId, subcontractorId: input.subcontractorId, position: input.position, token: newToken(), reason }, now)
      return { stop: null, skip: reason }
    }
    const offer = await upsertOffer(tx, { ...input, token: newToken(), expiresAt: new Date(now.getTime() + input.timeoutMs).toISOString() }, now)
    if (offer.created) {
      await recordEvent(tx, { companyId: input.companyId, type: 'dispatch.offered', entityType: 'job', entityId: job.id, at: now,
        payload: { dispatch_id: d.id, job_id: job.id, offer_id: offer.id, subcontractor_id: s!.id, position: input.position, expires_at: offer.expires_at.toISOString() } })
    }
    const messages = await composeOffer(deps, tx, job, s!, { id: offer.id, token: offer.token, expiresAt: offer.expires_at })
    return { stop: null, skip: null, offerId: offer.id, expiresAt: offer.expires_at.toISOString(), messages }
  })
}

export async function settleDispatchOffer(deps: Deps, input: Parameters<DispatchActivities['settleDispatchOffer']>[0]): Promise<{ state: OfferState; jobCancelled: boolean }> {
  return withTenant(deps.db, input.companyId, async (tx) => {
    const now = deps.clock.now()
    const offer = await findOffer(tx, input.offerId)
    if (!offer) return { state: 'withdrawn', jobCancelled: true }
    const jobCancelled = offer.job_status === 'Cancelled'
    if (offer.status === 'offered' && jobCancelled) {
      await setOfferStatus(tx, offer.id, 'withdrawn', now, 'the job was cancelled')
      return { state: 'withdrawn', jobCancelled }
    }
    if (offer.status === 'offered' && input.expire) {
      await setOfferStatus(tx, offer.id, 'timed_out', now, 'no answer before the offer expired')
      return { state: 'timed_out', jobCancelled }
    }
    return { state: offer.status as OfferState, jobCancelled }
  })
}

export async function finishDispatch(deps: Deps, input: Parameters<DispatchActivities['finishDispatch']>[0]): Promise<void> {
  await withTenantThenStart(deps, input.companyId, async (tx, start) => {
    const now = deps.clock.now()
    const d = await findDispatch(tx, input.dispatchId)
    if (!d || !(await finishDispatchRow(tx, d.id, input.status, input.outcome, null, now))) return
    if (input.status !== 'exhausted') return
    const job = await findDispatchJob(tx, d.job_id)
    // The owner is told: a reminder due now (with its notice), like the expiry reminders.
    await raiseReminder(tx, start, input.companyId, { title: `Nobody took the job "${job?.title ?? d.job_id}"`, notes: `Dispatch ${d.workflow_id}: ${input.outcome}. Dispatch it again with other candidates (subcontractors.dispatch).`, dueAt: now }, now)
    await recordEvent(tx, { companyId: input.companyId, type: 'dispatch.exhausted', entityType: 'job', entityId: d.job_id, at: now, payload: { dispatch_id: d.id, job_id: d.job_id, outcome: input.outcome } })
  })
}

// The offer page.

/** scheduledDate is the business's calendar day (YYYY-MM-DD); expiresAt an instant, shown in timeZone (the business's). */
export interface OfferView { businessName: string; timeZone: string; jobTitle: string; address: string | null; scheduledDate: string | null; status: string; expiresAt: string }

async function withOffer<T>(deps: Deps, token: string, fn: (tx: postgres.TransactionSql, offer: NonNullable<Awaited<ReturnType<typeof findOfferByToken>>>, companyId: string) => Promise<T>): Promise<T> {
  if (!/^[A-Za-z0-9_-]{10,64}$/.test(token)) throw notFound('Job offer')
  const companyId = await findDispatchCompany(deps.db.app, token)
  if (!companyId) throw notFound('Job offer')
  return withTenant(deps.db, companyId, async (tx) => {
    const offer = await findOfferByToken(tx, token)
    if (!offer) throw notFound('Job offer')
    return fn(tx, offer, companyId)
  })
}

async function view(tx: postgres.TransactionSql, offer: { job_id: string; status: string; expires_at: Date }, now: Date): Promise<OfferView> {
  const job = (await findDispatchJob(tx, offer.job_id))!
  // Past its expiry the offer is closed even before the run has marked it timed out.
  const status = offer.status === 'offered' && offer.expires_at <= now ? 'timed_out' : offer.status
  const business = await findOfferingBusiness(tx)
  return { businessName: business.name, timeZone: business.timeZone, jobTitle: job.title, address: job.address, scheduledDate: job.scheduled_date, status, expiresAt: offer.expires_at.toISOString() }
}

export const offerView = (deps: Deps, token: string) => withOffer(deps, token, (tx, offer) => view(tx, offer, deps.clock.now()))

/** The subcontractor's answer: recorded if the offer is still open (the database decides against the timeout), then the run is told. */
export async function answerOffer(deps: Deps, token: string, answer: 'accept' | 'decline'): Promise<OfferView> {
  const { result, workflowId } = await withOffer(deps, token, async (tx, offer, companyId) => {
    const now = deps.clock.now()
    if (offer.status === 'offered' && offer.job_status !== 'Cancelled' && offer.expires_at > now) {
      const status = answer === 'accept' ? 'accepted' : 'declined'
      await setOfferStatus(tx, offer.id, status, now)
      if (answer === 'accept') {
        await assignJobSubcontractor(tx, offer.job_id, offer.subcontractor_id, now)
        await finishDispatchRow(tx, offer.dispatch_id, 'accepted', `accepted by subcontractor ${offer.subcontractor_id}`, offer.subcontractor_id, now)
      }
      await recordEvent(tx, { companyId, type: answer === 'accept' ? 'dispatch.accepted' : 'dispatch.declined', entityType: 'job', entityId: offer.job_id, at: now,
        payload: { dispatch_id: offer.dispatch_id, job_id: offer.job_id, offer_id: offer.id, subcontractor_id: offer.subcontractor_id } })
      return { result: await view(tx, { ...offer, status }, now), workflowId: offer.workflow_id }
    }
    return { result: await view(tx, offer, now), workflowId: null }
  })
  if (workflowId) await deps.workflows.signal(workflowId, dispatchAnsweredSignal)
  return result
}

/** A job just cancelled: its running dispatch (if any) looks at the database now, withdrawing the open offer. */
export async function nudgeDispatchOfCancelledJob(deps: Deps, companyId: string, jobId: string): Promise<void> {
  const running = await withTenant(deps.db, companyId, (tx) => findRunningDispatch(tx, jobId))
  if (running) await deps.workflows.signal(running.workflow_id, dispatchAnsweredSignal)
}
