import { defineDomain } from '../../core/domain.js'
import { jobOperations } from './operations.js'
import { listJobs } from './service.js'
import { JOB_INTERNAL_EVENTS } from './events.js'

export const jobsDomain = defineDomain({
  name: 'jobs',
  description: 'Jobs: schedule, update, complete, on-my-way notices and profit.',
  operations: jobOperations,
  resources: [{
    uri: 'service://jobs', name: 'Jobs', scope: 'jobs', description: 'Jobs with schedules, technicians and completion status (newest 100, with the total).',
    read: (deps, principal) => listJobs(deps, principal, { limit: 100 }),
  }],
  events: ['job.created', 'job.scheduled', 'job.completed'],
  internalEvents: JOB_INTERNAL_EVENTS,
  usageCounts: { jobs: 'select count(*)::int from jobs' },
})
