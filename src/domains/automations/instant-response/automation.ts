import { defineAutomation, NoSettings } from '../engine/catalogue.js'

export const instantResponseAutomation = defineAutomation({
  key: 'instant_response', tool: 'workflows.instant_response', title: 'Instant lead response',
  trigger: 'a new lead', action: 'SMS (and email) reply within 30 seconds; lead marked Contacted', enabledByDefault: true, settings: NoSettings,
})
