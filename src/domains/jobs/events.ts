// Events jobs emits for reactions only (core/reactions.ts): never written, not webhooks. The public
// ones (job.created, job.scheduled, job.completed) are in index.ts `events`.
export const JOB_INTERNAL_EVENTS = ['job.changed', 'job.completion_recorded'] as const

/** job.changed: jobs.update or jobs.complete changed the job (now `status`). */
export interface JobChanged { jobId: string; quoteId: string | null; status: string }

/** job.completion_recorded: jobs.complete closed the job out, with the client's rating when given. */
export interface JobCompletionRecorded { jobId: string; rating: number | null }
