// The automation_runs record an automation's workflow keeps current (src/domains/automations/
// run-progress.ts implements these activities): each step once, where the run is now, its close.

export interface RunStepRecord {
  companyId: string
  workflowId: string
  step: string
  result: string
  /** Replaces the run's progress when given. */
  progress?: Record<string, unknown>
}

export interface RunFinishRecord {
  companyId: string
  workflowId: string
  status: 'completed' | 'stopped' | 'failed'
  outcome: string
  progress?: Record<string, unknown>
}

export interface AutomationRunActivities {
  recordAutomationStep(input: RunStepRecord): Promise<void>
  finishAutomationRun(input: RunFinishRecord): Promise<void>
}
