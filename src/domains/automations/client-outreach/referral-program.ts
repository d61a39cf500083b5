// Referral offers: after a job is completed with a 5-star satisfaction rating, the client gets a
// referral offer with a personal code (workflows/referral-offer.ts; marketing type referral, so the
// comms layer adds the opt-out and skips opted-out clients). A lead created with source
// 'referral:<CODE>' is recorded against that code (trackReferral, called by leads.create). One code
// per client (migration 022): a second offer reuses it. The reward is an incentive, so every offer
// and every code the tool returns says so (ACCC: incentives for referrals must be disclosed).
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import { escapeHtml } from '../../../core/html-escape.js'
import { newReferralCode } from '../../../core/referral-code.js'
import { dollarsToCents, formatCents } from '../../../core/money.js'
import { isAuMobile } from '../../../core/phone.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import type { StartAfterCommit } from '../../../temporal/outbox.js'
import { referralOffer, referralOfferWorkflowId, type ReferralOfferInput, type ReferralPlan, type ReferralOfferActivities } from './workflows/referral-offer.js'
import { findJob } from '../../jobs/queries.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { referralProgramAutomation } from './automation.js'
import { findBusinessName, findReferralCode, insertReferralCode, insertReferralLead, type CodeRow, type RewardType } from './queries.js'
import type { SettingsOf } from '../engine/catalogue.js'
import type { QueuedMessage } from '../../../../workflows/messages.js'

export const REFERRAL_PROGRAM = referralProgramAutomation.key
export const REFERRAL_SOURCE_PREFIX = 'referral:'
const HOUR_MS = 3_600_000
/** A client's code: six characters of the shared alphabet (core/referral-code.ts), unique in its company. */
const CODE_LENGTH = 6

export type { CodeRow, RewardType }

/** Its settings, defaults filled in: the type of its schema (automation.ts). */
export type ReferralSettingsValue = SettingsOf<typeof referralProgramAutomation>

export type { ReferralOfferInput, ReferralPlan }

export const referralOfferDefinition = defineWorkflow<ReferralOfferActivities>()({
  workflow: referralOffer,
  id: referralOfferWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: 'Sends the client of a 5-star job a referral offer with their personal code, after approval when required; one run per job.',
})

const REWARD_WORDS: Record<RewardType, string> = { discount: 'off your next job', credit: 'credit with us', gift_card: 'gift card' }

export function rewardText(type: RewardType, cents: number): string {
  return `${formatCents(cents)} ${REWARD_WORDS[type]}`
}

export const DISCLOSURE = 'Referral rewards are an incentive from the business and must be disclosed when you share the code.'

/** jobs.complete: a 5-star completion starts the offer when the automation is on. */
export async function startReferralOffer(deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit, job: { companyId: string; jobId: string; rating: number | null }) {
  if (job.rating !== 5) return null
  const choice = await automationChoice(tx, referralProgramAutomation)
  if (!choice.enabled) return null
  const spec = workflowStart(referralOfferDefinition, { companyId: job.companyId, jobId: job.jobId, delayMs: choice.settings.delay_days * deps.config.AUTOMATION_DAY_MS })
  await insertRun(tx, { companyId: job.companyId, automation: REFERRAL_PROGRAM, workflowId: spec.workflowId, subjectType: 'job', subjectId: job.jobId }, deps.clock.now())
  await start(spec)
  return spec.workflowId
}

/** The client's code, made on first use (one per client; a clash of random codes is tried again). */
export async function codeForClient(
  tx: postgres.TransactionSql, companyId: string, leadId: string, reward: { type: RewardType; cents: number }, sourceJobId: string | null, now: Date,
): Promise<{ row: CodeRow; created: boolean }> {
  const read = () => findReferralCode(tx, leadId)
  const existing = await read()
  if (existing) return { row: existing, created: false }
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await insertReferralCode(tx, { companyId, leadId, code: newReferralCode(CODE_LENGTH), reward, sourceJobId, now })
    if (row) return { row, created: true }
    const raced = await read()
    if (raced) return { row: raced, created: false }
  }
  throw new Error('could not make a unique referral code')
}

/** leads.create: a source 'referral:<CODE>' naming a code of this company records the referral. */
export async function trackReferral(tx: postgres.TransactionSql, companyId: string, leadId: string, source: string | null, now: Date): Promise<void> {
  if (!source || !source.toLowerCase().startsWith(REFERRAL_SOURCE_PREFIX)) return
  const code = source.slice(REFERRAL_SOURCE_PREFIX.length).trim().toUpperCase()
  await insertReferralLead(tx, companyId, code, leadId, now)
}


/** Activity: the offer to send (the client's code made if need be), or why not. */
export async function planReferralOffer(deps: Deps, input: { companyId: string; jobId: string }): Promise<ReferralPlan> {
  const now = deps.clock.now()
  return withTenant(deps.db, input.companyId, async (tx) => {
    const job = await findJob(tx, input.jobId)
    if (!job) return { stop: 'job not found' }
    if (job.status !== 'Completed' || job.satisfaction_rating !== 5) return { stop: 'the job is no longer a 5-star completion' }
    const choice = await automationChoice(tx, referralProgramAutomation)
    if (!choice.enabled) return { stop: 'referral offers turned off' }
    const s = choice.settings
    const { row } = await codeForClient(tx, input.companyId, job.lead_id, { type: s.reward_type, cents: dollarsToCents(s.reward_amount) }, job.id, now)
    const business = await findBusinessName(tx)
    const first = job.lead_name.split(/\s+/)[0] ?? job.lead_name
    const reward = rewardText(row.reward_type, Number(row.reward_cents))
    const text = `Hi ${first}, thanks for the 5-star feedback on "${job.title}"! If you know someone who needs ${business}, give them your referral code ${row.code}. When they book with us you get ${reward}. (This reward is our thank-you for referrals.)`
    const mobile = job.lead_phone && isAuMobile(job.lead_phone) ? job.lead_phone : null
    const channel = s.channel ?? (mobile ? 'sms' : 'email')
    const key = `referral-offer:${job.id}`
    const base = { messageType: 'referral', leadId: job.lead_id, jobId: job.id }
    const messages: QueuedMessage[] = []
    if (channel !== 'email' && mobile) messages.push({ ...base, channel: 'sms', to: mobile, body: text, idempotencyKey: `${key}:sms` })
    if (channel !== 'sms' && job.lead_email) {
      messages.push({
        ...base, channel: 'email', to: job.lead_email, subject: `A thank-you from ${business}: your referral code`, idempotencyKey: `${key}:email`,
        body: `<p>${escapeHtml(text)}</p><p>Your code: <strong>${escapeHtml(row.code)}</strong></p>`, text,
      })
    }
    if (!messages.length) return { stop: `the client cannot be reached by ${channel}` }
    return {
      stop: null, code: row.code, summary: `Referral offer (code ${row.code}, ${reward}) to ${job.lead_name}`, messages,
      preview: messages.map((m) => ({ channel: m.channel, to: m.to, name: job.lead_name, subject: m.subject ?? null, text })),
      approval: choice.needsApproval ? { expiresInMs: (s.approval_expiry_hours ?? 48) * HOUR_MS } : null,
    }
  })
}
