// Quote follow-ups: after a quote is sent, up to three follow-ups while it is still Sent or Viewed,
// each at its delay after that send (workflows/quote-follow-up.ts). One run per quote and send
// number: a re-send starts the next run, which tells the previous one to stop. The database has the
// last word before every follow-up (accepted, declined, expired, sent again, automation off), and
// changes to the quote send a "recheck" signal so the run stops at once rather than at its next
// wake-up. The functions here are the run's definition, its start and its activities.
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import { escapeHtml } from '../../../core/html-escape.js'
import { formatCents } from '../../../core/money.js'
import { addDays } from '../../../core/period.js'
import { isAuMobile } from '../../../core/phone.js'
import { zonedToInstant, localDate } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import type { StartAfterCommit } from '../../../temporal/outbox.js'
import { followUpTimes, quoteFollowUp, quoteFollowUpWorkflowId, quoteRecheckSignal, type FollowUpPlan, type QuoteCheck, type QuoteFollowUpInput, type QuoteFollowUpActivities } from './workflows/quote-follow-up.js'
import { publicQuoteUrl } from '../../quotes/queries.js'
import { stepApproval } from '../engine/held-step.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { followUpQuoteAutomation } from './automation.js'
import { findBusinessName, findClientContact, findFollowedQuote, type FollowedQuoteRow } from './queries.js'
import type { SettingsOf } from '../engine/catalogue.js'
import { companyTimeZone, companyToday } from '../../../core/company-time.js'
import type { ChannelChoice, QueuedMessage } from '../../../../workflows/messages.js'
import { customerSms, firstNameOf } from '../../comms/customer-message.js'

export const FOLLOW_UP_QUOTE = followUpQuoteAutomation.key
/** The spec's limit (section 8): at most three follow-ups per quote. */
export const MAX_QUOTE_FOLLOW_UPS = 3
export type { ChannelChoice }

/** Its settings, defaults filled in: the type of its schema (automation.ts). */
export type FollowUpQuoteSettingsValue = SettingsOf<typeof followUpQuoteAutomation>

export type { FollowUpPlan, QuoteCheck, QuoteFollowUpInput }

export const quoteFollowUpDefinition = defineWorkflow<QuoteFollowUpActivities>()({
  workflow: quoteFollowUp,
  id: quoteFollowUpWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: 'Follows up a sent quote up to three times while it is Sent or Viewed; stops when it is accepted, declined, expires or is sent again. One run per quote and send number; a failed run may be started again by workflows.follow_up_quote.',
})

/** The first instant a quote valid until `validUntil` (a local date of the company) reads as Expired: the next local midnight. */
export const quoteExpiresAt = (validUntil: string, timeZone: string) => zonedToInstant(addDays(validUntil, 1), timeZone)

export function quoteFollowUpStart(
  deps: Deps, q: { companyId: string; quoteId: string; sendNumber: number; sentAt: Date | null; validUntil: string; timeZone: string },
  settings: FollowUpQuoteSettingsValue, overrides: { channel?: ChannelChoice; message?: string } = {},
) {
  const dayMs = deps.config.AUTOMATION_DAY_MS
  return workflowStart(quoteFollowUpDefinition, {
    companyId: q.companyId, quoteId: q.quoteId, sendNumber: q.sendNumber,
    previousWorkflowId: quoteFollowUpWorkflowId({ companyId: q.companyId, quoteId: q.quoteId, sendNumber: q.sendNumber - 1 }),
    sentAt: q.sentAt?.toISOString() ?? null,
    delaysMs: settings.delays_days.slice(0, MAX_QUOTE_FOLLOW_UPS).map((d) => d * dayMs),
    expiresAt: quoteExpiresAt(q.validUntil, q.timeZone).toISOString(),
    channel: overrides.channel ?? settings.channel ?? null,
    message: overrides.message ?? null,
  })
}

/**
 * Records the run and queues its start in the caller's transaction (write-then-start). Null when
 * the company turned quote follow-ups off. With needs_approval on, each follow-up waits for
 * approval (decided when the follow-up is planned: stepApproval).
 */
export async function startQuoteFollowUp(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit,
  q: { companyId: string; quoteId: string; sendNumber: number; sentAt: Date | null; validUntil: string; timeZone: string },
  overrides: { channel?: ChannelChoice; message?: string } = {},
): Promise<{ workflowId: string; followUpsAt: string[]; input: QuoteFollowUpInput } | null> {
  const choice = await automationChoice(tx, followUpQuoteAutomation)
  if (!choice.enabled) return null
  const spec = quoteFollowUpStart(deps, q, choice.settings, overrides)
  const now = deps.clock.now()
  await insertRun(tx, { companyId: q.companyId, automation: FOLLOW_UP_QUOTE, workflowId: spec.workflowId, subjectType: 'quote', subjectId: q.quoteId }, now)
  await start(spec)
  const input = spec.input as QuoteFollowUpInput
  const from = (q.sentAt ?? now).getTime()
  return { workflowId: spec.workflowId, followUpsAt: input.delaysMs.map((ms) => new Date(from + ms).toISOString()), input }
}

/** Tells the run following up a quote's current send to look at the database now. Fire and forget. */
export function nudgeQuoteFollowUp(deps: Deps, companyId: string, quoteId: string, sendNumber: number): void {
  if (sendNumber < 1) return
  void deps.workflows.signal(quoteFollowUpWorkflowId({ companyId, quoteId, sendNumber }), quoteRecheckSignal)
}

/**
 * Why the run must stop, or null. The row is read FOR SHARE: a change still being committed (the
 * one whose signal woke the run) is waited for, so the run sees its outcome, never the state before.
 */
async function stopReason(tx: postgres.TransactionSql, quoteId: string, sendNumber: number, today: string): Promise<{ reason: string | null; row: FollowedQuoteRow | null }> {
  const row = await findFollowedQuote(tx, quoteId)
  if (!row) return { reason: 'quote not found', row: null }
  if (row.sent_count !== sendNumber) return { reason: 'quote sent again', row }
  if (row.status === 'Accepted') return { reason: 'quote accepted', row }
  if (row.status === 'Declined') return { reason: 'quote declined', row }
  if (row.status === 'Expired' || row.valid_until < today) return { reason: 'quote expired', row }
  if (row.status !== 'Sent' && row.status !== 'Viewed') return { reason: `quote is ${row.status}`, row }
  const choice = await automationChoice(tx, followUpQuoteAutomation)
  if (!choice.enabled) return { reason: 'quote follow-ups turned off', row }
  return { reason: null, row }
}

export async function checkQuoteFollowUp(deps: Deps, input: { companyId: string; quoteId: string; sendNumber: number }): Promise<QuoteCheck> {
  const now = deps.clock.now()
  return withTenant(deps.db, input.companyId, async (tx) => {
    const timeZone = await companyTimeZone(tx)
    const { reason, row } = await stopReason(tx, input.quoteId, input.sendNumber, localDate(now, timeZone))
    return { stop: reason, expiresAt: row ? quoteExpiresAt(row.valid_until, timeZone).toISOString() : now.toISOString() }
  })
}


type FollowUpRequest = { companyId: string; quoteId: string; sendNumber: number; number: number; last: boolean; channel: ChannelChoice | null; message: string | null }

/** Activity: follow-up number `number`: stop, or the messages to send (keys per quote, send, number and channel). */
export async function planQuoteFollowUp(deps: Deps, input: FollowUpRequest): Promise<FollowUpPlan> {
  return withTenant(deps.db, input.companyId, async (tx) => {
    const composed = await composeQuoteFollowUp(deps, tx, input)
    if (composed.stop !== null) return composed
    const { messages, skipped } = composed
    const approval = messages.length ? await stepApproval(deps, tx, followUpQuoteAutomation, { summary: composed.summary, name: composed.name }) : null
    return approval ? { stop: null, messages, skipped, approval } : { stop: null, messages, skipped }
  })
}

/** A dry run of a run about to start: the first follow-up it would send (not skipped), composed as the run composes it. */
export async function previewQuoteFollowUp(deps: Deps, tx: postgres.TransactionSql, run: QuoteFollowUpInput): Promise<QueuedMessage[]> {
  const now = deps.clock.now().getTime()
  const first = followUpTimes(run.sentAt === null ? now : Date.parse(run.sentAt), run.delaysMs, now).find((f) => !f.skip)
  if (!first) return []
  return (await composeQuoteFollowUp(deps, tx, { ...run, number: first.number, last: first.nextAt === null })).messages
}

/** The one composer of a follow-up (the run's plan and a dry run): why it stops, or its messages; writes nothing. */
async function composeQuoteFollowUp(
  deps: Deps, tx: postgres.TransactionSql, input: FollowUpRequest,
): Promise<{ stop: string; messages: []; skipped: [] } | { stop: null; messages: QueuedMessage[]; skipped: string[]; summary: string; name: string }> {
  const { reason, row } = await stopReason(tx, input.quoteId, input.sendNumber, await companyToday(tx, deps.clock.now()))
  if (reason) return { stop: reason, messages: [], skipped: [] }
  const q = row!
  const lead = await findClientContact(tx, q.lead_id)
  const business = await findBusinessName(tx)
  const firstName = firstNameOf(lead!.name)
  const url = publicQuoteUrl(deps.urls.siteRoot, q.public_token)
  const total = formatCents(Number(q.total_cents))
  // The owner's message (the automation's setting) as written, after one greeting.
  const text = input.message
    ? customerSms({ firstName, note: input.message, about: `your quote ${q.quote_number} from ${business}: ${url}` })
    : `Hi ${firstName}, just following up on quote ${q.quote_number} from ${business} for ${total} incl. GST.${input.last ? ' This is our last reminder about it.' : ''} You can view, accept or decline it here: ${url}`
  const key = `quote-follow-up:${input.quoteId}:${input.sendNumber}:${input.number}`
  const base = { messageType: 'follow_up', leadId: q.lead_id, quoteId: input.quoteId }
  const messages: QueuedMessage[] = []
  const skipped: string[] = []
  const mobile = lead!.phone && isAuMobile(lead!.phone) ? lead!.phone : null
  const wantSms = input.channel === 'sms' || input.channel === 'both' || (input.channel === null && mobile !== null)
  const wantEmail = input.channel === 'email' || input.channel === 'both' || (input.channel === null && mobile === null)
  if (wantSms) {
    if (mobile) messages.push({ ...base, channel: 'sms', to: mobile, body: text, idempotencyKey: `${key}:sms` })
    else skipped.push('sms: the client has no Australian mobile number')
  }
  if (wantEmail) {
    if (lead!.email) {
      messages.push({
        ...base, channel: 'email', to: lead!.email, idempotencyKey: `${key}:email`,
        subject: `Following up: quote ${q.quote_number} from ${business}`,
        body: `<p>${escapeHtml(text).replace(/\n/g, '<br>')}</p><p><a href="${url}">View, accept or decline quote ${escapeHtml(q.quote_number)}</a></p><p>${escapeHtml(business)}</p>`,
        text: `${text}\n\n${business}`,
      })
    } else skipped.push('email: the client has no email address')
  }
  return { stop: null, messages, skipped, summary: `Follow-up ${input.number} on quote ${q.quote_number} (${total} incl. GST) to ${lead!.name}`, name: lead!.name }
}
