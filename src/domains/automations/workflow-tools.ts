import Type from 'typebox'
import type { AnyOperation } from '../../core/operation.js'
import { plannedTool, READ, WRITE } from '../../core/planned.js'
import { closed, Id, Paging } from '../shared-schema.js'
import { workflowRunPlannedTools } from './workflow-runs.js'

const capability = 'Automations'
const ActionId = Id('Pending action (see workflows.pending_actions)')

const workflowControlPlannedTools: AnyOperation[] = [
  plannedTool({
    name: 'workflows.list',
    title: 'List workflows',
    description:
      'List the workflow automations (templates) available to the company, with what triggers each, what it does, whether it is enabled and whether its actions wait for approval. Cursor-paginated.',
    input: Type.Object(
      {
        enabled: Type.Optional(Type.Boolean({ description: 'true for enabled workflows only, false for disabled only' })),
        ...Paging,
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'workflows.toggle',
    title: 'Enable or disable a workflow',
    description: 'Turn a workflow automation on or off for the company, and choose whether its actions run straight away or wait in workflows.pending_actions for approval.',
    input: Type.Object(
      {
        workflow_id: Id('Workflow to change (see workflows.list)'),
        enabled: Type.Optional(Type.Boolean({ description: 'true to enable, false to disable; omit to flip the current state' })),
        require_approval: Type.Optional(Type.Boolean({ description: 'true to hold its actions for approval, false to run them immediately' })),
      },
      closed,
    ),
    access: { permission: 'admin' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.pending_actions',
    title: 'Pending workflow actions',
    description:
      'Actions proposed by workflows that are waiting for approval (for example an SMS to send or an invoice to issue), oldest first, with what each would do. Approve with workflows.approve_action or reject with workflows.reject_action. Cursor-paginated.',
    input: Type.Object(
      {
        workflow_id: Type.Optional(Id('Only actions from this workflow')),
        ...Paging,
      },
      closed,
    ),
    access: { permission: 'read' },
    cost: 'read',
    annotations: READ,
    capability,
  }),
  plannedTool({
    name: 'workflows.approve_action',
    title: 'Approve a pending action',
    description: 'Approve an action pending approval: it is executed immediately (which may send messages or create records) and the result is returned.',
    input: Type.Object(
      {
        action_id: ActionId,
        note: Type.Optional(Type.String({ maxLength: 500, description: 'Note kept with the approval' })),
      },
      closed,
    ),
    access: { permission: 'admin' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
  plannedTool({
    name: 'workflows.reject_action',
    title: 'Reject a pending action',
    description: 'Reject an action pending approval: it is marked ignored and never executed.',
    input: Type.Object(
      {
        action_id: ActionId,
        reason: Type.Optional(Type.String({ maxLength: 500, description: 'Why it was rejected' })),
      },
      closed,
    ),
    access: { permission: 'admin' },
    cost: 'write',
    annotations: WRITE,
    capability,
  }),
]

export const workflowsPlannedTools: AnyOperation[] = [...workflowControlPlannedTools, ...workflowRunPlannedTools]
