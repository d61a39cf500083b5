// What follows filing a document (core/next-steps.ts): an unmatched one is attached to its job; a
// receipt or supplier invoice on a job counts toward that job's costs; an invalid ABN is checked.
import { steps, type NextStep } from '../../core/next-steps.js'

interface FiledResult {
  document: { id: string; document_type: string; job_id: string | null; lead_id: string | null; abn: string | null; abn_valid: boolean | null; total_cents: number | null }
}

export function afterFiling(output: FiledResult): NextStep[] {
  const d = output.document
  const cost = d.document_type === 'receipt' || d.document_type === 'supplier_invoice'
  return steps(
    d.job_id === null && d.lead_id === null && {
      tool: 'jobs.list', why: 'No job or lead was matched: find the job, then call documents.auto_file again with the same file and its job_id (the file is attached, not stored twice).',
    },
    d.abn_valid === false && { tool: 'subcontractors.list', why: `The ABN ${d.abn} fails the ABR checksum: check the supplier's ABN before claiming GST on document ${d.id}.` },
    cost && d.job_id !== null && { tool: 'jobs.profit_summary', why: `Document ${d.id} is a cost of job ${d.job_id}${d.total_cents !== null ? ` (${(d.total_cents / 100).toFixed(2)} inc GST)` : ''}: see the job's margin.` },
  )
}
