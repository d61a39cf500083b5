// The control tools (workflows.list, toggle, pending_actions, approve_action, reject_action), over
// the catalogue assembled from the feature list (automations/index.ts).
import { afterApproveAction, afterRejectAction, afterToggle } from './next-steps.js'
import { defineOperation } from '../../../core/operation.js'
import { READ, SEND, WRITE } from '../../../core/annotations.js'
import type { AutomationCatalogue } from './catalogue.js'
import { decideAction, listPendingActions, previewApproval } from './approval.js'
import { listWorkflows, toggleWorkflow } from './control.js'
import {
  ApproveActionInput, ApproveResponse, DecisionResponse, ListWorkflowsInput, ListWorkflowsResponse, PendingActionsInput, PendingActionsResponse,
  RejectActionInput, ToggleWorkflowInput, WorkflowResponse,
} from './control-schema.js'

const domain = 'workflows'

export const controlOperations = (catalogue: AutomationCatalogue) => [
  defineOperation({
    name: 'workflows.list', domain, title: 'List workflows',
    description:
      'List the workflow automations available to the company: what triggers each, what it does, whether it is enabled, whether its actions wait for approval (and whether it supports that), its settings with their schema, and its last runs with outcomes. Filter by enabled.',
    input: ListWorkflowsInput, output: ListWorkflowsResponse, access: { permission: 'read' }, cost: 'read', annotations: READ,
    rest: { method: 'GET', path: '/workflows' },
    run: (ctx, input) => listWorkflows(ctx.deps, catalogue, ctx.principal!, input),
  }),
  defineOperation({
    name: 'workflows.toggle', domain, title: 'Enable or disable a workflow',
    description:
      'Turn a workflow automation on or off for the company, choose whether its actions run straight away or wait in workflows.pending_actions for approval (only workflows that support approval), and set its settings (checked against its settingsSchema from workflows.list). With only workflow_id, flips on/off.',
    input: ToggleWorkflowInput, output: WorkflowResponse, access: { permission: 'admin' }, cost: 'write', annotations: { ...WRITE, idempotentHint: false },
    rest: { method: 'PATCH', path: '/workflows/:workflow_id', status: 200 },
    nextSteps: afterToggle,
    run: (ctx, input) => toggleWorkflow(ctx.deps, catalogue, ctx.principal!, input),
  }),
  defineOperation({
    name: 'workflows.pending_actions', domain, title: 'Pending workflow actions',
    description:
      'Actions proposed by workflows that are waiting for approval (for example an SMS to send), oldest first, with what each would send to whom and when it expires unsent. Approve with workflows.approve_action or reject with workflows.reject_action.',
    input: PendingActionsInput, output: PendingActionsResponse, access: { permission: 'read' }, cost: 'read', annotations: READ,
    rest: { method: 'GET', path: '/workflows/pending-actions' },
    run: (ctx, input) => listPendingActions(ctx.deps, catalogue, ctx.principal!, input),
  }),
  defineOperation({
    name: 'workflows.approve_action', domain, title: 'Approve a pending action',
    description:
      'Approve an action pending approval: it is executed immediately (which may send messages) and the action is returned with its outcome. Approving again returns the first outcome (alreadyDecided) and executes nothing more; an action that was rejected or expired is a conflict.',
    input: ApproveActionInput, output: ApproveResponse, access: { permission: 'admin' }, cost: 'write', annotations: { ...SEND, idempotentHint: true },
    rest: { method: 'POST', path: '/workflows/pending-actions/:action_id/approve', status: 200 },
    nextSteps: afterApproveAction,
    run: async (ctx, input) => input.dry_run
      ? previewApproval(ctx.deps, ctx.principal!, input.action_id)
      : { ...(await decideAction(ctx.deps, ctx.principal!, { actionId: input.action_id, decision: 'approve', note: input.note })), dry_run: false, messages: [] },
  }),
  defineOperation({
    name: 'workflows.reject_action', domain, title: 'Reject a pending action',
    description: 'Reject an action pending approval: it is marked rejected and never executed. Rejecting again changes nothing; an action already approved or expired is a conflict.',
    input: RejectActionInput, output: DecisionResponse, access: { permission: 'admin' }, cost: 'write', annotations: { ...WRITE, idempotentHint: true },
    rest: { method: 'POST', path: '/workflows/pending-actions/:action_id/reject', status: 200 },
    nextSteps: afterRejectAction,
    run: (ctx, input) => decideAction(ctx.deps, ctx.principal!, { actionId: input.action_id, decision: 'reject', note: input.reason }),
  }),
]
