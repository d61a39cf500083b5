// An accepted quote opens its job at once (status Quoted, no date yet), in the transaction that
// accepts it, whether the client accepted on the quote page or the owner recorded it with
// quotes.update. The agent's next step is then to schedule that job, not to discover that it must
// make one. A company that books jobs its own way turns this off (company.update_profile
// create_job_on_acceptance); workflows.quote_to_invoice and jobs.create then make it later, and
// find this one when it exists (one job per quote: jobs_quote_unique).
import type postgres from 'postgres'
import type { Emit } from '../../core/reactions.js'
import { inSavepoint, isUniqueViolation } from '../../db/sql.js'
import { insertNewJob } from './service.js'
import { findCreateJobOnAcceptance, findJobIdOfQuote } from './queries.js'

export interface JobOnAcceptance {
  job_id: string
  /** True when the acceptance made it; false when the quote had its job already. */
  created: boolean
}

/** The accepted quote's job: the one it has, a new one (setting on), or null (setting off, none yet). */
export async function openJobOnAcceptance(
  tx: postgres.TransactionSql, emit: Emit, companyId: string, quote: { id: string; lead_id: string }, now: Date,
): Promise<JobOnAcceptance | null> {
  const existing = await findJobIdOfQuote(tx, quote.id)
  if (existing) return { job_id: existing, created: false }
  if (!(await findCreateJobOnAcceptance(tx))) return null
  try {
    // A savepoint: a jobs.create racing this acceptance wins the unique index without undoing the acceptance.
    const job = await inSavepoint(tx, 'job_on_acceptance', () => insertNewJob(tx, emit, companyId, { lead_id: quote.lead_id, quote_id: quote.id }, now))
    return { job_id: job.id, created: true }
  } catch (error) {
    if (!isUniqueViolation(error, 'jobs_quote_unique')) throw error
    return { job_id: (await findJobIdOfQuote(tx, quote.id))!, created: false }
  }
}
