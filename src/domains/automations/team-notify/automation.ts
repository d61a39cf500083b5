import Type from 'typebox'
import { ApprovalExpiryHours, closed, defineAutomation } from '../engine/catalogue.js'

/** workflows.team_notify: only the approval window. */
export const TeamNotifySettings = Type.Object({ approval_expiry_hours: Type.Optional(ApprovalExpiryHours) }, closed)

export const teamNotifyAutomation = defineAutomation({
  key: 'team_notify', tool: 'workflows.team_notify', title: 'Team notice',
  trigger: 'on request (workflows.team_notify)', action: 'SMS and/or email to the team or named technicians; with approval on, it waits in workflows.pending_actions',
  enabledByDefault: true, settings: TeamNotifySettings, supportsApproval: true,
})
