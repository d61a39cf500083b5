import { defineAutomation, NoSettings } from '../engine/catalogue.js'

export const syncContactAutomation = defineAutomation({
  key: 'sync_contact', tool: 'workflows.sync_contact', title: 'Contact sync',
  trigger: 'on request (workflows.sync_contact)', action: 'pushes a lead or client to the connected accounting integration; none can be connected in this deployment yet, so it records that nothing was pushed',
  enabledByDefault: true, settings: NoSettings,
})
