// A reminder's durable timer: one run per schedule revision of a reminder. It first tells the run of
// the previous revision to stand down (the due time moved, or the reminder was done or reopened),
// then sleeps until the due time on a Temporal timer (no polling). A stand-down signal ends the
// sleep early. When due, the fireReminder activity decides from the database (the source of
// truth: a stale or done reminder never fires) and sets fired_at once; the owner's notice is then
// sent with a key per reminder and revision, so a retry never sends it twice.
import { condition, defineSignal, getExternalWorkflowHandle, proxyActivities, setHandler } from '@temporalio/workflow'
import { DATABASE_STEP, MESSAGE_SEND } from '../../../../workflows/activity-options.js'
import type { QueuedMessage, SendMessageActivities } from '../../../../workflows/messages.js'

export interface ReminderTimerInput {
  companyId: string
  reminderId: string
  /** reminders.schedule_revision this run serves; a later revision makes it stand down. */
  revision: number
  /** The run of the previous revision, told to stand down first (unused for revision 1). */
  previousWorkflowId: string
  /** Due time (ISO, UTC) as of this revision; the database has the last word when it fires. */
  dueAt: string
  /** false: the reminder was done; this run only stands the previous one down. */
  armed: boolean
}

export type FireDecision =
  | { outcome: 'not_due'; dueAt: string; messages: [] }
  | { outcome: 'fired' | 'already_fired'; messages: QueuedMessage[] }
  | { outcome: 'done' | 'superseded' | 'gone'; messages: [] }

export interface ReminderTimerResult {
  outcome: FireDecision['outcome'] | 'stood_down'
  notices: { channel: string; status: string; error?: string }[]
}

/** One run per reminder and schedule revision. */
export const reminderTimerWorkflowId = (keys: Pick<ReminderTimerInput, 'companyId' | 'reminderId' | 'revision'>) => `reminder:${keys.companyId}:${keys.reminderId}:${keys.revision}`

/** The run of an earlier revision stops waiting and ends. */
export const standDownSignal = defineSignal('standDown')

export interface ReminderTimerActivities extends SendMessageActivities {
  /** Decides from the database whether the reminder fires now, and sets fired_at once. */
  fireReminder(input: { companyId: string; reminderId: string; revision: number }): Promise<FireDecision>
}

const { fireReminder } = proxyActivities<ReminderTimerActivities>(DATABASE_STEP)
const { sendMessage } = proxyActivities<ReminderTimerActivities>(MESSAGE_SEND)

/** When the database and this worker's clock disagree by a little, wait at least this long. */
const MIN_RECHECK_MS = 1_000

export async function reminderTimer(input: ReminderTimerInput): Promise<ReminderTimerResult> {
  let stoodDown = false
  setHandler(standDownSignal, () => { stoodDown = true })

  if (input.revision > 1) {
    try {
      await getExternalWorkflowHandle(input.previousWorkflowId).signal(standDownSignal)
    } catch {
      // Already finished (fired, stood down) or never started: nothing to stop.
    }
  }
  if (!input.armed) return { outcome: 'stood_down', notices: [] }

  let dueAt = Date.parse(input.dueAt)
  for (;;) {
    const wait = dueAt - Date.now()
    if (wait > 0 && (await condition(() => stoodDown, wait))) return { outcome: 'stood_down', notices: [] }
    if (stoodDown) return { outcome: 'stood_down', notices: [] }
    const decision = await fireReminder({ companyId: input.companyId, reminderId: input.reminderId, revision: input.revision })
    if (decision.outcome === 'not_due') {
      dueAt = Math.max(Date.parse(decision.dueAt), Date.now() + MIN_RECHECK_MS)
      continue
    }
    const notices: ReminderTimerResult['notices'] = []
    for (const message of decision.messages) {
      try {
        const outcome = await sendMessage({ companyId: input.companyId, ...message })
        notices.push({ channel: message.channel, status: outcome.status, ...(outcome.reason ? { error: outcome.reason } : {}) })
      } catch (error) {
        notices.push({ channel: message.channel, status: 'failed', error: (error as Error).message })
      }
    }
    return { outcome: decision.outcome, notices }
  }
}
