import { defineDomain } from '../../core/domain.js'
import { reminderOperations } from './operations.js'
import { listReminders } from './service.js'
import { fireReminder, reminderTimerDefinition } from './timer.js'
import type { ReminderTimerActivities } from './workflows/reminder-timer.js'

export const remindersDomain = defineDomain({
  name: 'reminders',
  description: 'Reminders and follow-ups for the team, fired on time by a durable timer.',
  resources: [{
    uri: 'service://reminders', name: 'Reminders', scope: 'leads',
    description: 'Open reminders and follow-ups, soonest first (first 100, with the total).',
    read: (deps, principal) => listReminders(deps, principal, { limit: 100 }),
  }],
  operations: reminderOperations,
  activities: (deps) => ({
    fireReminder: (input) => fireReminder(deps, input),
  }) satisfies Omit<ReminderTimerActivities, 'sendMessage'>, // sendMessage: comms
  workflows: [reminderTimerDefinition],
  usageCounts: { reminders: 'select count(*)::int from reminders' },
})
