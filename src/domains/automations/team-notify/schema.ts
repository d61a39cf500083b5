// Schemas of workflows.team_notify.
import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../../core/schema-helpers.js'
import { Channel, closed, Id } from '../../shared-schema.js'
import { PendingMessageSchema } from '../engine/control-schema.js'

export const TeamNotifyInputSchema = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 1000, description: 'What to tell the team' }),
    job_id: Type.Optional(Id('Job the message is about; its title, address and scheduled time are added')),
    recipients: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 254 }), {
      minItems: 1, maxItems: 50,
      description: "Who to tell: Australian mobile numbers, email addresses, or team members' names or user ids; the whole team (the owner and every user) when omitted",
    })),
    channel: Type.Optional(Channel),
  },
  closed,
)

export const TeamNotifyResponse = Type.Object({
  workflowId: Type.String({ description: 'Temporal workflow id; inspect the run in the Temporal UI' }),
  status: StringEnum(['sending', 'pending_approval'] as const, { description: 'sending: on its way now; pending_approval: waiting in workflows.pending_actions' }),
  actionId: Nullable(Type.String({ description: 'The pending action to approve or reject (when pending_approval)' })),
  expiresAt: Nullable(DateTime({ description: 'When the pending action expires unsent' })),
  messages: Type.Array(PendingMessageSchema, { description: 'What is (or would be) sent to whom' }),
  skipped: Type.Array(Type.Object({ recipient: Type.String(), reason: Type.String() }), { description: 'Recipients the channel cannot reach' }),
  started: Type.Boolean({ description: 'False when the start could not be confirmed yet; it will be retried automatically' }),
})
