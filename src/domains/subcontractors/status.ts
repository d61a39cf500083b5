// The subcontractor status moves, one guarded move for subcontractors.verify (the spec names only
// pending, verified and active; see docs/decisions.md, "Subcontractor status moves"). Each action
// leads to one status; where it may be applied from:
//
//   action      -> to         allowed from
//   verify      -> verified   pending, verified (a re-check), active, suspended, inactive
//   activate    -> active     verified
//   suspend     -> suspended  verified, active
//   deactivate  -> inactive   pending, verified, active, suspended
//
// So nobody is activated without a check first, a suspended or inactive subcontractor comes back
// only through a fresh verify, and every other move is refused naming the ones allowed.
import { AppError } from '../../core/errors.js'
import type { SubcontractorStatus, VerifyAction } from './schema.js'

export const ACTION_TARGET: Record<VerifyAction, SubcontractorStatus> = {
  verify: 'verified', activate: 'active', suspend: 'suspended', deactivate: 'inactive',
}

export const ALLOWED_FROM: Record<VerifyAction, SubcontractorStatus[]> = {
  verify: ['pending', 'verified', 'active', 'suspended', 'inactive'],
  activate: ['verified'],
  suspend: ['verified', 'active'],
  deactivate: ['pending', 'verified', 'active', 'suspended'],
}

/** The actions open to a subcontractor in this status. */
export const actionsFrom = (status: SubcontractorStatus): VerifyAction[] =>
  (Object.keys(ALLOWED_FROM) as VerifyAction[]).filter((a) => ALLOWED_FROM[a].includes(status))

/** The status the action leads to, or a conflict naming the actions allowed from the current one. */
export function subcontractorMove(from: SubcontractorStatus, action: VerifyAction): SubcontractorStatus {
  if (ALLOWED_FROM[action].includes(from)) return ACTION_TARGET[action]
  const allowed = actionsFrom(from)
  throw new AppError('conflict', `A ${from} subcontractor cannot be given action ${action}. From ${from} the allowed actions are: ${allowed.join(', ')}.`, {
    current_status: from, requested_action: action, allowed_actions: allowed,
  })
}
