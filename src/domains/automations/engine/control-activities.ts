// Activities of the approval-gated workflows (workflows/approval.ts, workflows/team-notify.ts).
import type { Deps } from '../../../core/deps.js'
import { recordPendingAction, settlePendingAction } from './approval.js'
import { finishTeamNotify } from '../team-notify/team-notify.js'

export const controlActivities = (deps: Deps) => ({
  recordPendingAction: (input: Parameters<typeof recordPendingAction>[1]) => recordPendingAction(deps, input),
  settlePendingAction: (input: Parameters<typeof settlePendingAction>[1]) => settlePendingAction(deps, input),
  finishTeamNotify: (input: Parameters<typeof finishTeamNotify>[1]) => finishTeamNotify(deps, input),
})
