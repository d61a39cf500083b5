// Schemas of the control tools (workflows.list, toggle, pending_actions, approve_action,
// reject_action).
import Type from 'typebox'
import { DateTime, Nullable, StringEnum } from '../../../core/schema-helpers.js'
import { closed, DryRun, Id, MessageOutputFields, Paging, SentMessage } from '../../shared-schema.js'

const AutomationRef = (description: string) => Type.String({ minLength: 1, maxLength: 100, description })

export const ListWorkflowsInput = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'true for enabled workflows only, false for disabled only' })),
    ...Paging,
  },
  closed,
)

export const ToggleWorkflowInput = Type.Object(
  {
    workflow_id: AutomationRef('Workflow to change: its id from workflows.list (e.g. team_notify) or its tool name (workflows.team_notify)'),
    enabled: Type.Optional(Type.Boolean({ description: 'true to enable, false to disable; omitted: flipped when nothing else is given, otherwise kept' })),
    require_approval: Type.Optional(Type.Boolean({ description: 'true to hold its actions for approval (only workflows whose supportsApproval is true), false to run them immediately' })),
    settings: Type.Optional(Type.Object({}, {
      additionalProperties: true,
      description: "The workflow's settings, replacing the current ones; checked against its settingsSchema from workflows.list (defaults fill what is left out)",
    })),
  },
  closed,
)

const RunSchema = Type.Object({
  temporalWorkflowId: Type.String({ description: 'The run in the Temporal UI (filter by CompanyId)' }),
  status: StringEnum(['running', 'completed', 'stopped', 'failed'] as const),
  outcome: Nullable(Type.String({ description: 'What the run did, in a few words' })),
  subjectType: Nullable(Type.String({ description: 'quote, invoice, job, lead or company' })),
  subjectId: Nullable(Type.String()),
  startedAt: DateTime(),
  finishedAt: Nullable(DateTime()),
})

export const WorkflowSchema = Type.Object({
  workflowId: Type.String({ description: 'Pass as workflow_id to workflows.toggle' }),
  tool: Type.String({ description: 'The tool that runs it on demand' }),
  title: Type.String(),
  trigger: Type.String({ description: 'What starts it' }),
  action: Type.String({ description: 'What it does' }),
  enabled: Type.Boolean(),
  requireApproval: Type.Boolean({ description: 'Its actions wait in workflows.pending_actions for approval' }),
  supportsApproval: Type.Boolean({ description: 'Whether require_approval can be turned on for it' }),
  settings: Type.Object({}, { additionalProperties: true, description: 'Current settings, defaults filled in' }),
  settingsSchema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of its settings (for workflows.toggle)' }),
  lastRuns: Type.Array(RunSchema, { description: 'Its latest runs (up to 5), newest first, with outcomes' }),
})

export const ListWorkflowsResponse = Type.Object({
  workflows: Type.Array(WorkflowSchema),
  total: Type.Integer({ description: 'Workflows matching the filter' }),
  limit: Type.Integer(),
  nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
})

export const WorkflowResponse = Type.Object({ workflow: WorkflowSchema })

export const ACTION_STATUSES = ['pending', 'approved', 'executed', 'failed', 'rejected', 'expired'] as const

export const PendingMessageSchema = Type.Object({
  channel: StringEnum(['sms', 'email'] as const),
  to: Type.String({ description: 'Mobile number (E.164) or email address' }),
  name: Nullable(Type.String({ description: 'Who that is, when known' })),
  subject: Nullable(Type.String()),
  text: Type.String({ description: 'The text that would be sent' }),
})

export const PendingActionSchema = Type.Object({
  id: Type.String({ description: 'Pass as action_id to workflows.approve_action or workflows.reject_action' }),
  workflow: Type.String({ description: 'The automation that proposed it (workflows.list workflowId)' }),
  temporalWorkflowId: Type.String({ description: 'The workflow waiting for the decision' }),
  summary: Type.String({ description: 'What it would do' }),
  messages: Type.Array(PendingMessageSchema, { description: 'What would be sent to whom' }),
  status: StringEnum(ACTION_STATUSES, { description: 'pending; approved (executing); executed; failed; rejected; expired (nothing executed)' }),
  createdAt: DateTime(),
  expiresAt: DateTime({ description: 'Unanswered by then, it expires and executes nothing' }),
  decidedAt: Nullable(DateTime()),
  decidedBy: Nullable(Type.String({ description: 'API key id that approved or rejected it' })),
  note: Nullable(Type.String({ description: 'Approval note or rejection reason' })),
  outcome: Type.Unknown({ description: 'What executing it did (messages sent and failed); null until executed' }),
})

export const PendingActionsInput = Type.Object(
  {
    workflow_id: Type.Optional(AutomationRef('Only actions of this workflow: its id from workflows.list, its tool name, or a Temporal workflow id')),
    ...Paging,
  },
  closed,
)

export const PendingActionsResponse = Type.Object({
  actions: Type.Array(PendingActionSchema, { description: 'Pending actions, oldest first' }),
  total: Type.Integer(),
  limit: Type.Integer(),
  nextCursor: Nullable(Type.String({ description: 'Pass as cursor for the next page; null on the last page' })),
})

const ActionId = Id('Pending action (see workflows.pending_actions)')

export const ApproveActionInput = Type.Object(
  { action_id: ActionId, note: Type.Optional(Type.String({ maxLength: 500, description: 'Note kept with the approval' })), dry_run: DryRun },
  closed,
)
export const RejectActionInput = Type.Object(
  { action_id: ActionId, reason: Type.Optional(Type.String({ maxLength: 500, description: 'Why it was rejected' })) },
  closed,
)

export const DecisionResponse = Type.Object({
  action: PendingActionSchema,
  alreadyDecided: Type.Boolean({ description: 'true when an earlier call had already made this decision: nothing was done again' }),
})

/** approve_action: the decision, and on a dry run what approving would send. */
export const ApproveResponse = Type.Object({
  ...DecisionResponse.properties,
  dry_run: MessageOutputFields.dry_run,
  messages: Type.Array(SentMessage, { description: 'Dry run: exactly what approving would send now; [] on a real call (action.outcome says what went)' }),
})
