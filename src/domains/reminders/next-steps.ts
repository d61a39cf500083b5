// What follows a reminder change (core/next-steps.ts): an open reminder is marked done when dealt
// with, so it stops firing; a done one needs nothing.
import type { NextStep } from '../../core/next-steps.js'

interface ReminderView { id: string; status: string; dueAtLocal: string; timeZone: string; notify: string | null }

export function afterReminderChange(output: { reminder: ReminderView }): NextStep[] {
  const r = output.reminder
  if (r.status === 'done') return []
  const when = r.status === 'fired'
    ? 'It has fallen due'
    : `It falls due at ${r.dueAtLocal} (${r.timeZone})${r.notify ? `, telling the owner by ${r.notify}` : ''}`
  return [{ tool: 'reminders.update', why: `${when}; once dealt with, mark it done: true (id ${r.id}).` }]
}
