// What follows a review step (core/next-steps.ts): a request waits on the client, and the review
// booster can ask every completed job's client without a call each time; a review link set up
// makes requests possible.
import { realCallStep, type NextStep } from '../../core/next-steps.js'
import { PLATFORM_NAMES, type ReviewPlatform } from './schema.js'

interface RequestResult {
  sent: boolean
  already_requested: boolean
  request: { jobId: string; createdAt: string } | null
  dry_run: boolean
}

export function afterReviewRequest(output: RequestResult, input: { job_id: string }): NextStep[] {
  if (output.dry_run) return [realCallStep('reviews.request')]
  if (output.already_requested) {
    return [{ tool: 'reviews.request', why: `Already asked on ${output.request!.createdAt}, so nothing was sent: pass force: true to ask again (job_id ${input.job_id}).` }]
  }
  // Review requests go one call per job unless the booster sends them (off by default).
  return [{ tool: 'workflows.toggle', why: "Optional: workflow_id review_booster, enabled: true asks each completed job's client by itself, with one reminder (off by default; workflows.list shows it)." }]
}

export function afterReviewSettings(output: { default_platform: ReviewPlatform | null }): NextStep[] {
  if (!output.default_platform) return []
  return [{
    tool: 'reviews.request',
    why: `Ask a completed job's client for a review (job_id); it links to ${PLATFORM_NAMES[output.default_platform]} unless platform says otherwise. jobs.complete with request_review: true asks on completion.`,
  }]
}
