// The engine every automation runs on: the catalogue (workflows.list, workflows.toggle), each
// company's choices, run records and progress, approval of held actions, templates, cursors and
// business days. Its activities serve every automation's workflows; its control tools read the
// catalogue assembled from the feature list (automations/index.ts).
import type { Deps } from '../../../core/deps.js'
import { recordPendingAction, settlePendingAction } from './approval.js'
import { finishAutomationRun, recordAutomationStep, type RunFinishRecord, type RunStepRecord } from './run-progress.js'

export { controlOperations } from './control-operations.js'
export { AutomationCatalogue, defineAutomation, defineFeature, featureActivities, featureWorkflows, type AutomationEntry, type AutomationFeature } from './catalogue.js'

/** Internal event (reactions only): workflows.toggle saved a company's choice for automation `key`. */
export const AUTOMATION_TOGGLED = 'automation.toggled'

export const engineActivities = (deps: Deps) => ({
  // Approval-gated actions (workflows/approval.ts).
  recordPendingAction: (input: Parameters<typeof recordPendingAction>[1]) => recordPendingAction(deps, input),
  settlePendingAction: (input: Parameters<typeof settlePendingAction>[1]) => settlePendingAction(deps, input),
  // The long-running automations' run records (quote follow-ups, payment chase).
  recordAutomationStep: (input: RunStepRecord) => recordAutomationStep(deps, input),
  finishAutomationRun: (input: RunFinishRecord) => finishAutomationRun(deps, input),
})
