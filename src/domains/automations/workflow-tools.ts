import type { AnyOperation } from '../../core/operation.js'
import { workflowRunPlannedTools } from './workflow-runs.js'

// workflows.list, toggle, pending_actions, approve_action and reject_action are real (control-operations.ts).
export const workflowsPlannedTools: AnyOperation[] = [...workflowRunPlannedTools]
