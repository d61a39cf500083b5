// Allowed job status moves (the spec leaves them open; see docs/decisions.md):
//   Quoted      -> Scheduled (needs a date), In Progress, Completed, Cancelled
//   Scheduled   -> Scheduled (reschedule), In Progress, Completed, Cancelled
//   In Progress -> Scheduled (back another day), Completed, Cancelled
//   Completed and Cancelled are final: nothing leaves them.
import { AppError } from '../../core/errors.js'
import type { JobStatus } from './schema.js'

export const JOB_MOVES: Record<JobStatus, JobStatus[]> = {
  Quoted: ['Scheduled', 'In Progress', 'Completed', 'Cancelled'],
  Scheduled: ['Scheduled', 'In Progress', 'Completed', 'Cancelled'],
  'In Progress': ['Scheduled', 'Completed', 'Cancelled'],
  Completed: [],
  Cancelled: [],
}

export function assertJobMove(from: JobStatus, to: JobStatus): void {
  if (from === to && to !== 'Scheduled') return
  if (!JOB_MOVES[from].includes(to)) {
    const allowed = JOB_MOVES[from]
    throw new AppError('conflict', `A ${from} job cannot move to ${to}. ${allowed.length ? `From ${from} it can move to: ${allowed.join(', ')}.` : `${from} is final.`}`, {
      current_status: from, requested_status: to, allowed,
    })
  }
}
