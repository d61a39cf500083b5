// The reminder's timer workflow (workflows/reminder-timer.ts): its definition, how a schedule is
// started, and the activity that fires a reminder when it falls due.
import type { Deps } from '../../core/deps.js'
import { escapeHtml } from '../../core/html-escape.js'
import { isAuMobile } from '../../core/phone.js'
import { localDateTime } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../temporal/contract.js'
import { reminderTimer, reminderTimerWorkflowId, type FireDecision, type ReminderTimerInput, type ReminderTimerResult, type ReminderTimerActivities } from './workflows/reminder-timer.js'
import type { QueuedMessage } from '../../../workflows/messages.js'
import { lockReminderToFire, markReminderFired, type FireRow } from './queries.js'

export type { FireDecision, ReminderTimerInput, ReminderTimerResult }

export const reminderTimerDefinition = defineWorkflow<ReminderTimerActivities>()({
  workflow: reminderTimer,
  id: reminderTimerWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Sleeps on a durable timer until a reminder is due, then marks it fired and tells the owner. One run per reminder and schedule revision: moving the due time or marking it done starts the next revision, which stands the previous run down.',
})

export function reminderTimerStart(companyId: string, reminderId: string, revision: number, dueAt: Date, armed: boolean) {
  return workflowStart(reminderTimerDefinition, {
    companyId, reminderId, revision, armed, dueAt: dueAt.toISOString(),
    previousWorkflowId: reminderTimerWorkflowId({ companyId, reminderId, revision: revision - 1 }),
  })
}

/**
 * Decides, under the reminder's row lock, whether it fires now: not when a later revision took
 * over, when it is done, or when it is not due yet (by this clock). fired_at is set once; a retry
 * finds it set and returns the same notices, whose keys make sending them again a no-op.
 */
export async function fireReminder(deps: Deps, input: { companyId: string; reminderId: string; revision: number }): Promise<FireDecision> {
  const now = deps.clock.now()
  return withTenant(deps.db, input.companyId, async (tx) => {
    const row = await lockReminderToFire(tx, input.reminderId)
    if (!row) return { outcome: 'gone', messages: [] }
    if (row.schedule_revision !== input.revision) return { outcome: 'superseded', messages: [] }
    if (row.done_at) return { outcome: 'done', messages: [] }
    if (row.fired_at) return { outcome: 'already_fired', messages: ownerNotices(row, input) }
    if (row.due_at.getTime() > now.getTime()) return { outcome: 'not_due', dueAt: row.due_at.toISOString(), messages: [] }
    await markReminderFired(tx, input.reminderId, now)
    return { outcome: 'fired', messages: ownerNotices(row, input) }
  })
}

/** The owner's notice on the channels asked for; a channel the company cannot be reached on is left out. */
function ownerNotices(row: FireRow, input: { reminderId: string; revision: number }): QueuedMessage[] {
  const local = localDateTime(row.due_at, row.time_zone).replace('T', ' ').slice(0, 16)
  const about = [row.lead_name && `Lead: ${row.lead_name}.`, row.job_title && `Job: ${row.job_title}.`].filter(Boolean).join(' ')
  const text = `Reminder: ${row.title} (due ${local}).${about ? ` ${about}` : ''}`
  const key = `reminder:${input.reminderId}:${input.revision}`
  const messages: QueuedMessage[] = []
  const channel = row.notify_channel
  if ((channel === 'sms' || channel === 'both') && row.phone && isAuMobile(row.phone)) {
    messages.push({ messageType: 'reminder', channel: 'sms', to: row.phone, body: text, idempotencyKey: `${key}:sms` })
  }
  if (channel === 'email' || channel === 'both') {
    const notes = row.notes ? `<p>${escapeHtml(row.notes).replace(/\n/g, '<br>')}</p>` : ''
    messages.push({
      messageType: 'reminder', channel: 'email', to: row.contact_email, subject: `Reminder: ${row.title}`,
      body: `<p>${escapeHtml(text)}</p>${notes}`, text: row.notes ? `${text}\n\n${row.notes}` : text, idempotencyKey: `${key}:email`,
    })
  }
  return messages
}
