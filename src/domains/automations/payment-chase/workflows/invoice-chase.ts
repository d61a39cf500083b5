// The payment chase of one invoice. Sleeps on a Temporal timer to each step's time (its input, the
// policy); a "recheck" signal (a payment was recorded, the invoice voided) wakes it to ask the
// database, so it stops at once. Before each step the plan activity decides from the database again
// (balance left, not void, chase still on), then each reminder goes out through sendMessage with a
// key per invoice, step and channel: a retried activity, a replay or a restarted worker never sends
// a step twice. Steps already past when the run starts are skipped, except that an invoice already
// overdue gets the latest of them at once (the tier it is in). With approval on, each step's
// reminders wait in workflows.pending_actions first (held-step.ts); a rejected or expired step
// sends nothing and the cadence goes on.
import { condition, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import type { AutomationRunActivities } from '../../../../../workflows/automation-run.js'
import { deliverEach, holdStep, type HeldStepActivities, type StepApproval, type StepDelivery } from '../../../../../workflows/held-step.js'
import type { ChannelChoice, QueuedMessage } from '../../../../../workflows/messages.js'

export type ChaseTone = 'friendly' | 'firm' | 'final'

export interface InvoiceChaseStep {
  number: number
  tone: ChaseTone
  offsetDays: number
  channel: ChannelChoice | null
  /** When this step's reminder is due (ISO). */
  at: string
}

export interface InvoiceChaseInput {
  companyId: string
  invoiceId: string
  /** The policy: the cadence with each step's time, in order. */
  steps: InvoiceChaseStep[]
  /**
   * The invoice was already overdue when the run started (a scan): of the steps whose time has
   * passed, the latest is sent at once (its tier), the others are skipped. Otherwise past steps
   * (a reminder "due today" at 9 am for an invoice sent at 3 pm) are skipped.
   */
  catchUp: boolean
}

/**
 * Whether the run skips each step: its time had passed when the run started, except that an
 * overdue invoice (catchUp) gets the latest of those. The run's loop and a dry run's preview read it.
 */
export function skippedSteps(steps: InvoiceChaseStep[], catchUp: boolean, startedAt: number): boolean[] {
  const past = steps.filter((s) => Date.parse(s.at) <= startedAt).length
  return steps.map((_, i) => i < past && !(catchUp && i === past - 1))
}

/** One run per invoice. */
export const invoiceChaseWorkflowId = (keys: Pick<InvoiceChaseInput, 'companyId' | 'invoiceId'>) => `invoice-chase:${keys.companyId}:${keys.invoiceId}`

/** A payment was recorded, the invoice voided or credited: look at the database now. */
export const chaseRecheckSignal = defineSignal('recheck')

export type ChaseStepPlan =
  | { stop: string; messages: []; skipped: [] }
  /** approval: set when the company holds reminders for approval (and there is something to send). */
  | { stop: null; messages: QueuedMessage[]; skipped: string[]; approval?: StepApproval }

export interface InvoiceChaseActivities extends AutomationRunActivities, HeldStepActivities {
  /** Why the chase must stop now (paid, void, turned off), or null. */
  checkInvoiceChase(input: { companyId: string; invoiceId: string }): Promise<{ stop: string | null }>
  /** Step `number`: stop, or its reminders (keys per invoice, step and channel). */
  planInvoiceChaseStep(input: { companyId: string; invoiceId: string; number: number; tone: ChaseTone; offsetDays: number; channel: ChannelChoice | null }): Promise<ChaseStepPlan>
}

const { checkInvoiceChase, planInvoiceChaseStep, recordAutomationStep, finishAutomationRun } = proxyActivities<InvoiceChaseActivities>(DATABASE_STEP)

export interface InvoiceChaseResult {
  outcome: 'completed' | 'stopped'
  reason: string | null
  steps: { number: number; tone: string; sent: string[]; notSent: string[] }[]
  /** Steps held for approval and what became of them (rejected and expired ones sent nothing). */
  held: { number: number; decision: 'approved' | 'rejected' | 'expired' }[]
}

export async function invoiceChase(input: InvoiceChaseInput): Promise<InvoiceChaseResult> {
  let nudged = false
  setHandler(chaseRecheckSignal, () => { nudged = true })
  const { workflowId } = workflowInfo()
  const ids = { companyId: input.companyId, invoiceId: input.invoiceId }
  const result: InvoiceChaseResult = { outcome: 'completed', reason: null, steps: [], held: [] }
  let tier: string | null = null
  const progress = (nextIndex: number | null) => {
    const next = nextIndex === null ? undefined : input.steps[nextIndex]
    return {
      tier, steps_sent: result.steps.length, steps_planned: input.steps.length,
      next: next ? { step: `step ${next.number}: ${next.tone}`, at: next.at } : null,
    }
  }
  const stop = async (reason: string): Promise<InvoiceChaseResult> => {
    await finishAutomationRun({ ...ids, workflowId, status: 'stopped', outcome: `stopped: ${reason}`, progress: progress(null) })
    return { ...result, outcome: 'stopped', reason }
  }
  /** Sleeps until `at`; a stop reason when the invoice no longer needs chasing, else null. */
  const sleepUntil = async (at: number): Promise<string | null> => {
    for (;;) {
      const wait = at - Date.now()
      if (wait > 0) await condition(() => nudged, wait)
      if (!nudged) return null
      nudged = false
      const check = await checkInvoiceChase(ids)
      if (check.stop) return check.stop
    }
  }

  const deliver = (messages: QueuedMessage[]) => deliverEach(input.companyId, messages)

  const skipped = skippedSteps(input.steps, input.catchUp, Date.now())
  for (let i = 0; i < input.steps.length; i++) {
    const step = input.steps[i]!
    if (skipped[i]) {
      await recordAutomationStep({ ...ids, workflowId, step: `step ${step.number}: ${step.tone}`, result: 'skipped: its time had passed when the chase started' })
      continue
    }
    const stopped = await sleepUntil(Date.parse(step.at))
    if (stopped) return stop(stopped)
    const plan = await planInvoiceChaseStep({ ...ids, number: step.number, tone: step.tone, offsetDays: step.offsetDays, channel: step.channel })
    if (plan.stop !== null) return stop(plan.stop)
    const stepName = `step ${step.number}: ${step.tone}`
    let delivery: StepDelivery
    if (plan.approval) {
      // Held for approval: only an approval sends, and only if the invoice still needs chasing then.
      const held = await holdStep({
        companyId: input.companyId, workflowId, automation: 'chase_payment', approval: plan.approval, messages: plan.messages,
        recheck: async () => (await checkInvoiceChase(ids)).stop, deliver,
      })
      if (held.status === 'stopped') return stop(held.reason)
      if (held.status === 'rejected' || held.status === 'expired') {
        result.held.push({ number: step.number, decision: held.status })
        await recordAutomationStep({
          ...ids, workflowId, step: stepName, result: held.status === 'rejected' ? 'rejected: nothing sent' : 'expired without a decision: nothing sent',
          progress: progress(i + 1 < input.steps.length ? i + 1 : null),
        })
        continue
      }
      result.held.push({ number: step.number, decision: 'approved' })
      delivery = held.delivery
    } else delivery = await deliver(plan.messages)
    const done = { number: step.number, tone: step.tone, sent: delivery.sent, notSent: [...plan.skipped, ...delivery.notSent] }
    result.steps.push(done)
    tier = step.tone
    const summary = [done.sent.length ? `${step.tone} reminder sent by ${done.sent.join(' and ')}` : 'nothing sent', ...done.notSent.map((n) => `not sent ${n}`)].join('; ')
    await recordAutomationStep({
      ...ids, workflowId, step: stepName, result: summary,
      progress: progress(i + 1 < input.steps.length ? i + 1 : null),
    })
  }
  await finishAutomationRun({
    ...ids, workflowId, status: 'completed', outcome: `cadence finished after ${result.steps.length} reminder(s); the invoice is still unpaid`, progress: progress(null),
  })
  return result
}
