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
