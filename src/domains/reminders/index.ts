import { defineDomain } from '../../core/domain.js'
import { remindersPlannedTools } from './operations.js'

export const remindersDomain = defineDomain({
  name: 'reminders',
  description: 'Reminders and follow-ups for the team.',
  resources: [
    { uri: 'service://reminders', name: 'Reminders', scope: 'leads', description: 'Reminders and follow-ups.', capability: 'Communications and reminders' },
  ],
  operations: [...remindersPlannedTools],
})
