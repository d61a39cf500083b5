// workflows.quote_to_invoice: the quote's job (made when missing), a durable wait until that job
// is Completed, then the invoice and its payment link (invoice-steps.ts). The wait is a Temporal
// condition woken by the "jobChanged" signal (the jobs service sends it when a job with a quote
// is completed or cancelled) or by the periodic recheck, whichever comes first; the database has
// the last word each time. A Cancelled (or deleted) job stops the run.
import { condition, defineSignal, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow'
import type { Activities } from '../activities/index.js'
import { DATABASE_STEP } from './activity-options.js'
import { invoiceAndSend } from './invoice-steps.js'
import type { QuoteToInvoiceInput, QuoteToInvoiceResult } from '../src/domains/automations/job-flow/quote-to-invoice.js'

export const jobChangedSignal = defineSignal('jobChanged')

const { ensureQuoteJob, jobStatusNow, recordAutomationStep, finishAutomationRun } = proxyActivities<Activities>(DATABASE_STEP)

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
