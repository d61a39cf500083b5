// What follows a SWMS draft (core/next-steps.ts): the competent person reviews, completes and signs
// it with the workers' sign-on before work starts; the signed copy is filed on the job.
import { steps, type NextStep } from '../../core/next-steps.js'

interface DraftResult { job_id: string | null; high_risk_work: unknown[]; document: { id: string } }

export function afterSwmsDraft(output: DraftResult): NextStep[] {
  return steps(
    {
      tool: 'documents.auto_file',
      why: `Draft ${output.document.id} is not for use yet: a competent person reviews, completes and signs it and the workers sign on before work starts; then file the signed copy${output.job_id ? ` with job_id ${output.job_id}` : ' with its job_id'}.`,
    },
    output.job_id === null && { tool: 'jobs.list', why: 'No job was given: find the job this work belongs to, so the signed SWMS is kept with it.' },
  )
}
