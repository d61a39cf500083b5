// Instant lead response. Plan the messages, send each (activities are idempotent per message),
// then mark the lead Contacted if at least one message went out. The 30-second promise runs from
// when the lead arrived and bounds planning and sending as a schedule-to-close timeout; the result
// says whether it was kept. A run that could send nothing fails, so it can be run again on request.
import { ApplicationFailure, proxyActivities } from '@temporalio/workflow'
import type { MessageOutcome, MessageRequest, QueuedMessage } from '../../../../../workflows/messages.js'

export interface InstantResponseInput {
  companyId: string
  leadId: string
  /** When the lead arrived (ISO): the promise runs from here, not from when the workflow started. */
  receivedAt: string
  /** The promise to the customer, in seconds; the send activities are bound by it (schedule-to-close). */
  deadlineSeconds: number
}

/** One run per lead while it succeeds; a failed run may be run again on request. */
export const instantResponseWorkflowId = (keys: Pick<InstantResponseInput, 'companyId' | 'leadId'>) => `instant-response:${keys.companyId}:${keys.leadId}`

export interface PlannedMessage {
  channel: 'sms' | 'email'
  to: string
  subject?: string
  body: string
  text?: string
  idempotencyKey: string
}

export interface InstantResponsePlan {
  skipped: string | null
  messages: PlannedMessage[]
}

/** A planned message as sendMessage takes it: one definition for the run and for a dry run's preview. */
export const instantResponseMessage = (leadId: string, message: PlannedMessage): QueuedMessage => ({ leadId, messageType: 'instant_response', ...message })

export interface InstantResponseActivities {
  planInstantResponse(input: { companyId: string; leadId: string }): Promise<InstantResponsePlan>
  sendMessage(input: MessageRequest): Promise<MessageOutcome>
  /** True when the lead moved to Contacted. */
  markLeadContacted(input: { companyId: string; leadId: string }): Promise<boolean>
}

/** Below this, the promise is already lost: send anyway (a late reply beats none) within LATE_BOUND_MS. */
const MIN_BOUND_MS = 2_000
const LATE_BOUND_MS = 30_000

const { markLeadContacted } = proxyActivities<InstantResponseActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 10 },
})

function boundActivities(scheduleToCloseMs: number) {
  return proxyActivities<InstantResponseActivities>({
    scheduleToCloseTimeout: scheduleToCloseMs,
    startToCloseTimeout: Math.min(10_000, scheduleToCloseMs),
    retry: {
      initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds',
      nonRetryableErrorTypes: ['PermanentDeliveryError'],
    },
  })
}

export interface InstantResponseResult {
  skipped: string | null
  sent: { channel: string; status: string; provider: string }[]
  failed: { channel: string; error: string }[]
  contacted: boolean
  deadline: { promised_by: string; met: boolean }
}

export async function instantResponse(input: InstantResponseInput): Promise<InstantResponseResult> {
  const promisedBy = Date.parse(input.receivedAt) + input.deadlineSeconds * 1000
  const remaining = promisedBy - Date.now()
  const { planInstantResponse, sendMessage } = boundActivities(remaining >= MIN_BOUND_MS ? remaining : LATE_BOUND_MS)

  const plan = await planInstantResponse({ companyId: input.companyId, leadId: input.leadId })
  const result: InstantResponseResult = {
    skipped: plan.skipped, sent: [], failed: [], contacted: false,
    deadline: { promised_by: new Date(promisedBy).toISOString(), met: false },
  }
  let firstSentAt: number | null = null
  for (const message of plan.messages) {
    try {
      const outcome = await sendMessage({ companyId: input.companyId, ...instantResponseMessage(input.leadId, message) })
      if (outcome.status === 'not_sent') {
        result.failed.push({ channel: message.channel, error: outcome.reason ?? 'not sent' })
        continue
      }
      firstSentAt ??= Date.now()
      result.sent.push({ channel: message.channel, status: outcome.status, provider: outcome.provider })
    } catch (error) {
      // One channel failing (a bad email address, say) must not stop the other.
      result.failed.push({ channel: message.channel, error: error instanceof ApplicationFailure || error instanceof Error ? error.message : String(error) })
    }
  }
  result.deadline.met = firstSentAt !== null && firstSentAt <= promisedBy
  if (result.sent.length) result.contacted = await markLeadContacted({ companyId: input.companyId, leadId: input.leadId })
  if (!result.sent.length && result.failed.length) {
    // Visible as a failed run in the Temporal UI, and re-runnable (the id allows it after a failure).
    throw ApplicationFailure.nonRetryable(`No message could be sent: ${result.failed.map((f) => `${f.channel}: ${f.error}`).join('; ')}`, 'NothingSent', result)
  }
  return result
}
