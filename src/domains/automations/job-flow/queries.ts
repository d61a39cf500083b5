// Job-flow SQL (process_lead, schedule_job, trigger_invoice, quote_to_invoice): the company's zone
// and state, the jobs, quotes and invoices a run looks at, and the automation_runs rows that say
// whether a run exists. Every function takes the tenant transaction from withTenant().
import type postgres from 'postgres'
import type { AuStateCode } from '../engine/business-days.js'

export async function findTimeZone(tx: postgres.TransactionSql): Promise<{ time_zone: string } | undefined> {
  const [company] = await tx<{ time_zone: string }[]>`select time_zone from companies`
  return company
}

export async function findCompanyState(tx: postgres.TransactionSql): Promise<{ state: AuStateCode | null } | undefined> {
  const [company] = await tx<{ state: AuStateCode | null }[]>`select state from companies`
  return company
}

export async function findZoneAndState(tx: postgres.TransactionSql): Promise<{ time_zone: string; state: AuStateCode | null } | undefined> {
  const [company] = await tx<{ time_zone: string; state: AuStateCode | null }[]>`select time_zone, state from companies`
  return company
}

export async function findLeadName(tx: postgres.TransactionSql, leadId: string): Promise<{ name: string } | undefined> {
  const [lead] = await tx<{ name: string }[]>`select name from leads where id = ${leadId}`
  return lead
}

/** The lead's oldest reminder whose notes start with `notesPrefix` (the one this automation made). */
export async function findReminderByNotes(tx: postgres.TransactionSql, leadId: string, notesPrefix: string): Promise<{ id: string; due_at: Date } | undefined> {
  const [mine] = await tx<{ id: string; due_at: Date }[]>`select id, due_at from reminders where lead_id = ${leadId} and notes like ${`${notesPrefix}%`} order by created_at limit 1`
  return mine
}

/** Whether the lead's instant response has recorded any message. */
export async function instantResponseSent(tx: postgres.TransactionSql, leadId: string): Promise<boolean> {
  const [sent] = await tx`select 1 from communications where idempotency_key like ${`instant-response:${leadId}:%`} limit 1`
  return !!sent
}

export async function findRunStatus(tx: postgres.TransactionSql, workflowId: string): Promise<{ status: string } | undefined> {
  const [run] = await tx<{ status: string }[]>`select status from automation_runs where workflow_id = ${workflowId}`
  return run
}

export async function findRunStatusAndOutcome(tx: postgres.TransactionSql, workflowId: string): Promise<{ status: string; outcome: string | null } | undefined> {
  const [run] = await tx<{ status: string; outcome: string | null }[]>`select status, outcome from automation_runs where workflow_id = ${workflowId}`
  return run
}

/** Removes the run record of a failed run, so it can be started again. */
export async function deleteFailedRun(tx: postgres.TransactionSql, workflowId: string): Promise<void> {
  await tx`delete from automation_runs where workflow_id = ${workflowId} and status = 'failed'`
}

/** The automation's running run on this subject, if any. */
export async function findRunningRun(tx: postgres.TransactionSql, automation: string, subjectId: string): Promise<{ workflow_id: string } | undefined> {
  const [running] = await tx<{ workflow_id: string }[]>`
        select workflow_id from automation_runs where automation = ${automation} and subject_id = ${subjectId} and status = 'running' limit 1`
  return running
}

/** How many runs this automation had on this subject. */
export async function countRuns(tx: postgres.TransactionSql, automation: string, subjectId: string): Promise<number> {
  const [row] = await tx<{ n: number }[]>`select count(*)::int as n from automation_runs where automation = ${automation} and subject_id = ${subjectId}`
  return row!.n
}

/** The job's status, its row locked until the transaction ends. */
export async function lockJobStatus(tx: postgres.TransactionSql, jobId: string): Promise<{ status: string } | undefined> {
  const [job] = await tx<{ status: string }[]>`select status from jobs where id = ${jobId} for no key update`
  return job
}

export async function findJobStatus(tx: postgres.TransactionSql, jobId: string): Promise<{ status: string } | undefined> {
  const [row] = await tx<{ status: string }[]>`select status from jobs where id = ${jobId}`
  return row
}

/** The job made from the quote, if any. */
export async function findQuoteJob(tx: postgres.TransactionSql, quoteId: string): Promise<{ id: string; title: string } | undefined> {
  const [job] = await tx<{ id: string; title: string }[]>`select id, title from jobs where quote_id = ${quoteId}`
  return job
}

/** The job's first final invoice that is not void. */
export async function findLiveFinalInvoice(tx: postgres.TransactionSql, jobId: string): Promise<{ id: string } | undefined> {
  const [row] = await tx<{ id: string }[]>`select id from invoices where job_id = ${jobId} and kind = 'final' and status <> 'Void' order by created_at limit 1`
  return row
}

/** Whether the job has a final invoice that is not void. */
export async function liveFinalInvoiceExists(tx: postgres.TransactionSql, jobId: string): Promise<boolean> {
  const [final] = await tx`select 1 from invoices where job_id = ${jobId} and kind = 'final' and status <> 'Void'`
  return !!final
}
