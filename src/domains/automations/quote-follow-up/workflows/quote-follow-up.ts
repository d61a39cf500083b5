// Quote follow-ups for one send of a quote. It first tells the previous send's run to look again
// (it finds the quote sent again and stops), then sleeps on a Temporal timer to each follow-up's
// time (sent time + delay; at most three). A "recheck" signal (the quote was accepted, declined,
// changed or sent again) wakes it to ask the database, so it stops at once; so does the quote's
// expiry time. Before each follow-up the plan activity decides from the database again, then each
// message goes out through sendMessage with a key per quote, send, number and channel: a retried
// or replayed step never sends twice. Past follow-ups (a run started late, by the tool) are not
// all sent at once: only the latest one due. With approval on, each follow-up waits in
// workflows.pending_actions first (held-step.ts); a rejected or expired one sends nothing and the
// next one is still proposed at its time.
import { condition, defineSignal, getExternalWorkflowHandle, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import { deliverEach, holdStep, type HeldStepActivities, type StepApproval, type StepDelivery } from '../../../../../workflows/held-step.js'
import type { ChannelChoice, QueuedMessage } from '../../../../../workflows/messages.js'

export interface QuoteFollowUpInput {
  companyId: string
  quoteId: string
  /** quotes.sent_count of the send this run follows up; a later send supersedes it. */
  sendNumber: number
  /** The previous send's run, told to stop first (unused for send 1). */
  previousWorkflowId: string
  /**
   * When this send went out (ISO); the delays count from here. Null: from when the run starts (a
   * send starts its run straight away), so the timers never mix the API's clock with the worker's.
   */
  sentAt: string | null
  /** The policy: milliseconds after sentAt for each follow-up, ascending, at most three used. */
  delaysMs: number[]
  /** When the quote expires (ISO): the run wakes then to close itself. */
  expiresAt: string
  channel: ChannelChoice | null
  /** Custom wording from workflows.follow_up_quote; the quote link is appended. */
  message: string | null
}

/** One run per quote and send number. */
export const quoteFollowUpWorkflowId = (keys: Pick<QuoteFollowUpInput, 'companyId' | 'quoteId' | 'sendNumber'>) =>
  `quote-follow-up:${keys.companyId}:${keys.quoteId}:${keys.sendNumber}`

/** The quote changed (accepted, declined, edited, sent again): look at the database now. */
export const quoteRecheckSignal = defineSignal('recheck')

const MAX_FOLLOW_UPS = 3

export interface FollowUpTime {
  number: number
  /** When it is due (ms). */
  at: number
  /** The next follow-up's time; null for the last. */
  nextAt: number | null
  /** A later follow-up was already due when the run started: skipped (only the latest due is sent). */
  skip: boolean
}

/** The follow-ups of a run started at startedAt: the run's loop and a dry run's preview both read it. */
export function followUpTimes(sentAt: number, delaysMs: number[], startedAt: number): FollowUpTime[] {
  const delays = delaysMs.slice(0, MAX_FOLLOW_UPS)
  return delays.map((delay, i) => {
    const nextAt = i + 1 < delays.length ? sentAt + delays[i + 1]! : null
    return { number: i + 1, at: sentAt + delay, nextAt, skip: nextAt !== null && nextAt <= startedAt }
  })
}

export interface QuoteCheck {
  stop: string | null
  expiresAt: string
}

export type FollowUpPlan =
  | { stop: string; messages: []; skipped: [] }
  /** approval: set when the company holds follow-ups for approval (and there is something to send). */
  | { stop: null; messages: QueuedMessage[]; skipped: string[]; approval?: StepApproval }

export interface QuoteFollowUpActivities extends AutomationRunActivities, HeldStepActivities {
  /** Why the run must stop now (accepted, declined, expired, sent again, turned off), or null; and the quote's expiry. */
  checkQuoteFollowUp(input: { companyId: string; quoteId: string; sendNumber: number }): Promise<QuoteCheck>
  /** Follow-up `number`: stop, or the messages to send (keys per quote, send, number and channel). */
  planQuoteFollowUp(input: { companyId: string; quoteId: string; sendNumber: number; number: number; last: boolean; channel: ChannelChoice | null; message: string | null }): Promise<FollowUpPlan>
}

const { checkQuoteFollowUp, planQuoteFollowUp, recordAutomationStep, finishAutomationRun } = proxyActivities<QuoteFollowUpActivities>(DATABASE_STEP)

export interface QuoteFollowUpResult {
  outcome: 'completed' | 'stopped'
  reason: string | null
  followUps: { number: number; sent: string[]; notSent: string[] }[]
  /** Follow-ups held for approval and what became of them (rejected and expired ones sent nothing). */
  held: { number: number; decision: 'approved' | 'rejected' | 'expired' }[]
}

export async function quoteFollowUp(input: QuoteFollowUpInput): Promise<QuoteFollowUpResult> {
  let nudged = false
  setHandler(quoteRecheckSignal, () => { nudged = true })
  const { workflowId } = workflowInfo()
  const ids = { companyId: input.companyId, quoteId: input.quoteId, sendNumber: input.sendNumber }
  const result: QuoteFollowUpResult = { outcome: 'completed', reason: null, followUps: [], held: [] }
  const sentAt = input.sentAt === null ? Date.now() : Date.parse(input.sentAt)
  const delays = input.delaysMs.slice(0, MAX_FOLLOW_UPS)

  if (input.sendNumber > 1) {
    try {
      await getExternalWorkflowHandle(input.previousWorkflowId).signal(quoteRecheckSignal)
    } catch {
      // Finished already, or never started (follow-ups were off for that send): nothing to stop.
    }
  }

  const progress = (next: { number: number; at: number } | null) => ({
    follow_ups_done: result.followUps.length,
    follow_ups_planned: delays.length,
    next: next ? { step: `follow-up ${next.number}`, at: new Date(next.at).toISOString() } : null,
  })
  const stop = async (reason: string): Promise<QuoteFollowUpResult> => {
    await finishAutomationRun({ companyId: input.companyId, workflowId, status: 'stopped', outcome: `stopped: ${reason}`, progress: progress(null) })
    return { ...result, outcome: 'stopped', reason }
  }

  let expiresAt = Date.parse(input.expiresAt) > Date.now() ? Date.parse(input.expiresAt) : Number.POSITIVE_INFINITY
  /** Sleeps until `at`; a stop reason when the quote no longer wants following up, else null. */
  const sleepUntil = async (at: number): Promise<string | null> => {
    for (;;) {
      const wake = Math.min(at, expiresAt)
      const wait = wake - Date.now()
      if (wait > 0) await condition(() => nudged, wait)
      if (!nudged && Date.now() >= at) return null
      nudged = false
      const check = await checkQuoteFollowUp(ids)
      if (check.stop) return check.stop
      // Past by this worker's clock but not by the database's: rely on the check before each follow-up.
      const expiry = Date.parse(check.expiresAt)
      expiresAt = expiry > Date.now() ? expiry : Number.POSITIVE_INFINITY
    }
  }

  const deliver = (messages: QueuedMessage[]) => deliverEach(input.companyId, messages)

  for (const { number, at, nextAt, skip } of followUpTimes(sentAt, delays, Date.now())) {
    if (skip) {
      await recordAutomationStep({ companyId: input.companyId, workflowId, step: `follow-up ${number}`, result: 'skipped: a later follow-up was already due when the run started' })
      continue
    }
    const stopped = await sleepUntil(at)
    if (stopped) return stop(stopped)
    const plan = await planQuoteFollowUp({ ...ids, number, last: nextAt === null, channel: input.channel, message: input.message })
    if (plan.stop !== null) return stop(plan.stop)
    let delivery: StepDelivery
    if (plan.approval) {
      // Held for approval: only an approval sends, and only if the quote still wants following up then.
      const held = await holdStep({
        companyId: input.companyId, workflowId, automation: 'follow_up_quote', approval: plan.approval, messages: plan.messages,
        recheck: async () => (await checkQuoteFollowUp(ids)).stop, deliver,
      })
      if (held.status === 'stopped') return stop(held.reason)
      if (held.status === 'rejected' || held.status === 'expired') {
        result.held.push({ number, decision: held.status })
        await recordAutomationStep({
          companyId: input.companyId, workflowId, step: `follow-up ${number}`,
          result: held.status === 'rejected' ? 'rejected: nothing sent' : 'expired without a decision: nothing sent',
          progress: progress(nextAt === null ? null : { number: number + 1, at: nextAt }),
        })
        continue
      }
      result.held.push({ number, decision: 'approved' })
      delivery = held.delivery
    } else delivery = await deliver(plan.messages)
    const done = { number, sent: delivery.sent, notSent: [...plan.skipped, ...delivery.notSent] }
    result.followUps.push(done)
    const summary = [done.sent.length ? `sent by ${done.sent.join(' and ')}` : 'nothing sent', ...done.notSent.map((n) => `not sent ${n}`)].join('; ')
    await recordAutomationStep({
      companyId: input.companyId, workflowId, step: `follow-up ${number}`, result: summary,
      progress: progress(nextAt === null ? null : { number: number + 1, at: nextAt }),
    })
  }
  const sent = result.followUps.filter((f) => f.sent.length).length
  await finishAutomationRun({
    companyId: input.companyId, workflowId, status: 'completed',
    outcome: `${result.followUps.length} follow-up(s) done, ${sent} sent; no answer yet`, progress: progress(null),
  })
  return result
}
