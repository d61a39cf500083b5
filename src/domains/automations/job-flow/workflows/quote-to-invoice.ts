// workflows.quote_to_invoice: the quote's job (made when missing), a durable wait until that job
// is Completed, then the invoice and its payment link (invoice-steps.ts). The wait is a Temporal
// condition woken by the "jobChanged" signal (the jobs service sends it when a job with a quote
// is completed or cancelled) or by the periodic recheck, whichever comes first; the database has
// the last word each time. A Cancelled (or deleted) job stops the run.
import { condition, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow'
import { DATABASE_STEP } from '../../../../../workflows/activity-options.js'
import { invoiceAndSend, type InvoiceStepsActivities, type InvoiceSummary, type SendStep } from '../../../../../workflows/invoice-steps.js'
import type { ChannelChoice } from '../../../../../workflows/messages.js'

export interface QuoteToInvoiceInput {
  companyId: string
  quoteId: string
  channel: ChannelChoice
  /** Policy: how often the run looks at the job without a nudge (a day; tests use a second). */
  recheckMs: number
}

export interface QuoteToInvoiceResult {
  stopped: boolean
  outcome: string
  jobId: string | null
  invoice: InvoiceSummary | null
  send: SendStep | null
}

/** One run per quote. */
export const quoteToInvoiceWorkflowId = (keys: Pick<QuoteToInvoiceInput, 'companyId' | 'quoteId'>) => `quote-to-invoice:${keys.companyId}:${keys.quoteId}`

/** The quote's job was completed or cancelled: look at the database now. */
export const jobChangedSignal = defineSignal('jobChanged')

export type QuoteJobStep = { stop: string; jobId: null; created: false; title: null } | { stop: null; jobId: string; created: boolean; title: string }

export interface QuoteToInvoiceActivities extends InvoiceStepsActivities {
  /** The quote's job: the one it has, or a new one. */
  ensureQuoteJob(input: { companyId: string; quoteId: string }): Promise<QuoteJobStep>
  /** The job's status now; null when it no longer exists. */
  jobStatusNow(input: { companyId: string; jobId: string }): Promise<{ status: string | null }>
}

const { ensureQuoteJob, jobStatusNow, recordAutomationStep, finishAutomationRun } = proxyActivities<QuoteToInvoiceActivities>(DATABASE_STEP)

export async function quoteToInvoice(input: QuoteToInvoiceInput): Promise<QuoteToInvoiceResult> {
  let nudged = false
  setHandler(jobChangedSignal, () => { nudged = true })
  const { workflowId } = workflowInfo()
  const { companyId } = input
  const stop = async (outcome: string, jobId: string | null): Promise<QuoteToInvoiceResult> => {
    await finishAutomationRun({ companyId, workflowId, status: 'stopped', outcome: `stopped: ${outcome}`, progress: { job_id: jobId, waiting_for: null } })
    return { stopped: true, outcome: `stopped: ${outcome}`, jobId, invoice: null, send: null }
  }

  const job = await ensureQuoteJob({ companyId, quoteId: input.quoteId })
  if (job.stop !== null) return stop(job.stop, null)
  const jobId = job.jobId
  await recordAutomationStep({
    companyId, workflowId, step: 'job', result: `${job.created ? 'created' : 'linked'} job "${job.title}" (${jobId})`,
    progress: { job_id: jobId, waiting_for: 'the job to be Completed' },
  })

  for (;;) {
    nudged = false // a nudge during the check below wakes the next wait at once
    const { status } = await jobStatusNow({ companyId, jobId })
    if (status === 'Completed') break
    if (status === 'Cancelled') return stop('the job was cancelled', jobId)
    if (status === null) return stop('the job no longer exists', jobId)
    await condition(() => nudged, input.recheckMs)
  }
  await recordAutomationStep({ companyId, workflowId, step: 'job completed', result: 'the job is Completed', progress: { job_id: jobId, waiting_for: null } })

  const done = await invoiceAndSend({ companyId, workflowId, jobId, channel: input.channel })
  if (done.stop !== null) return stop(done.summary, jobId)
  await finishAutomationRun({ companyId, workflowId, status: 'completed', outcome: done.summary })
  return { stopped: false, outcome: done.summary, jobId, invoice: done.invoice, send: done.send }
}
