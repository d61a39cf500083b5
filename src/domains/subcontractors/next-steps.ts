// What follows a subcontractor change (core/next-steps.ts): a pending one is verified, a verified
// one activated.
import { steps, type NextStep } from '../../core/next-steps.js'

interface SubcontractorResult { subcontractor: { id: string; name: string; status: string } }

export function afterSubcontractorChange(output: SubcontractorResult): NextStep[] {
  const s = output.subcontractor
  return steps(
    s.status === 'pending' && { tool: 'subcontractors.verify', why: `Check ${s.name}'s licence and insurance (subcontractor_id ${s.id}).` },
    s.status === 'verified' && { tool: 'subcontractors.verify', why: `Activate ${s.name} with action activate (subcontractor_id ${s.id}).` },
  )
}

interface DispatchResult { workflow_id: string | null; dry_run: boolean; held_for_approval: boolean; pending_action_id: string | null; candidates: { subcontractor_id: string }[] }

/** After a dispatch: a dry run is sent for real; one held for approval is approved; a started one is watched on the job. */
export function afterDispatch(output: DispatchResult): NextStep[] {
  return steps(
    output.dry_run && output.candidates.length > 0 && {
      tool: 'subcontractors.dispatch', why: `Start it: the same call without dry_run${output.held_for_approval ? ' (it then waits for your approval before the first offer)' : ''}.`,
    },
    output.pending_action_id !== null && { tool: 'workflows.approve_action', why: `Nothing is offered until approved: action_id ${output.pending_action_id} (or workflows.reject_action).` },
    !output.dry_run && { tool: 'jobs.list', why: `The job gets its subcontractor when one accepts (run ${output.workflow_id}).` },
  )
}
