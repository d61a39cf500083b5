// The quote-to-invoice run of a quote waits for its job to be Completed (or Cancelled). The
// job-flow reaction to job.changed calls this after a job's change commits, so the run looks at the
// database at once rather than at its next periodic recheck.
import type { WorkflowDispatcher } from '../../../temporal/outbox.js'
import { jobChangedSignal, quoteToInvoiceWorkflowId } from './workflows/quote-to-invoice.js'

/** Fire and forget: the run may not exist (no quote_to_invoice for this quote), which is fine. */
export function nudgeQuoteToInvoice(deps: { workflows: WorkflowDispatcher }, companyId: string, job: { status: string; quoteId: string | null }): void {
  if (!job.quoteId || (job.status !== 'Completed' && job.status !== 'Cancelled')) return
  void deps.workflows.signal(quoteToInvoiceWorkflowId({ companyId, quoteId: job.quoteId }), jobChangedSignal)
}
