// workflows.team_notify, the first automation whose actions can wait for approval.
import { defineOperation } from '../../../core/operation.js'
import { SEND } from '../../../core/annotations.js'
import { TeamNotifyInputSchema, TeamNotifyResponse } from './schema.js'
import { notifyTeam } from './team-notify.js'

const domain = 'workflows'

export const teamNotifyOperation = defineOperation({
  name: 'workflows.team_notify', domain, title: 'Notify the team',
  description:
    "Send a message to the team by SMS and/or email (default sms), optionally about a job, whose title, address and scheduled time are added. Recipients: Australian mobiles, email addresses, or users by name or id; the whole team (the owner's mobile and email, and every user's email) when omitted. When the company requires approval for team notices (workflows.toggle), it waits in workflows.pending_actions instead of sending.",
  input: TeamNotifyInputSchema, output: TeamNotifyResponse, access: { permission: 'write' }, cost: 'write', annotations: SEND,
  run: (ctx, input) => notifyTeam(ctx.deps, ctx.principal!, input),
})
