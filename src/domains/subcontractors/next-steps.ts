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

interface DispatchResult { workflow_id: string | null; dry_run: boolean; candidates: { subcontractor_id: string }[] }

/** After a dispatch: a dry run is sent for real; a started one is watched on the job. */
export function afterDispatch(output: DispatchResult): NextStep[] {
  return steps(
    output.dry_run && output.candidates.length > 0 && { tool: 'subcontractors.dispatch', why: 'Send the first offer: the same call without dry_run.' },
    !output.dry_run && { tool: 'jobs.list', why: `The job gets its subcontractor when one accepts (run ${output.workflow_id}).` },
  )
}
