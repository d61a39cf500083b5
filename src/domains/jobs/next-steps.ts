// What follows each job change (core/next-steps.ts): a job is scheduled, done, then invoiced.
import { realCallStep, steps, type NextStep } from '../../core/next-steps.js'

interface JobView { id: string; status: string; review_requested_at: string | null; invoice: { id: string; kind: string; balance: number } | null }

function forStatus(job: JobView): NextStep[] {
  switch (job.status) {
    case 'Quoted':
      return [{ tool: 'jobs.update', why: `Schedule it: job_id ${job.id} with scheduled_date (or workflows.schedule_job for the next business day).` }]
    case 'Scheduled':
    case 'In Progress':
      return steps(
        job.status === 'Scheduled' && { tool: 'jobs.send_eta', why: 'On the day: tell the client the technician is on the way.' },
        { tool: 'jobs.complete', why: `When the work is done: job_id ${job.id}.` },
      )
    case 'Completed':
      return steps(
        job.invoice?.kind !== 'final' && { tool: 'invoicing.generate', why: `Issue the final invoice (job_id ${job.id}): the job's lines net of any deposit; send_email or send_sms sends it.` },
        job.invoice?.kind === 'final' && job.invoice.balance > 0 && { tool: 'payments.send_link', why: `Send the client the link to pay the $${job.invoice.balance.toFixed(2)} owing (job_id ${job.id}).` },
        !job.review_requested_at && { tool: 'reviews.request', why: `Ask the client for a review (job_id ${job.id}).` },
      )
    default:
      return []
  }
}

export function afterJobChange(output: { job: JobView }): NextStep[] {
  return forStatus(output.job)
}

export function afterEta(output: { job: JobView; dry_run: boolean }): NextStep[] {
  if (output.dry_run) return [realCallStep('jobs.send_eta')]
  return [{ tool: 'jobs.complete', why: `When the work is done: job_id ${output.job.id}.` }]
}

export function afterComplete(output: { job: JobView; dry_run: boolean }): NextStep[] {
  if (output.dry_run) return [realCallStep('jobs.complete')]
  return forStatus(output.job)
}
