// Payment chase SQL: the invoices to chase (a job's open ones, or the overdue ones without a live
// chase first), the invoice's state before each step, who a reminder goes to, the company's own
// reminder templates, and the chase's run record. Every function takes the tenant transaction.
import type postgres from 'postgres'
import { workflowIdSql } from '../../../temporal/contract.js'
import { invoiceChaseWorkflowId } from './workflows/invoice-chase.js'

export interface OpenInvoice { id: string; invoice_number: string; due_date: string }

/** Sent and not settled: what a chase may remind about. */
const openInvoice = (tx: postgres.TransactionSql) =>
  tx`i.status in ('Sent', 'Partially Paid') and i.kind <> 'credit_note' and i.total_cents - i.amount_paid_cents - i.amount_credited_cents > 0`

export async function findJobId(tx: postgres.TransactionSql, jobId: string): Promise<{ id: string } | undefined> {
  const [job] = await tx<{ id: string }[]>`select id from jobs where id = ${jobId}`
  return job
}

/** The job's open invoices, earliest due first. */
export async function listOpenJobInvoices(tx: postgres.TransactionSql, jobId: string): Promise<OpenInvoice[]> {
  return tx<OpenInvoice[]>`
        select i.id, i.invoice_number, to_char(i.due_date, 'YYYY-MM-DD') as due_date from invoices i
        where i.job_id = ${jobId} and ${openInvoice(tx)} order by i.due_date, i.invoice_number`
}

/** Open invoices due before `today` (a local date), at most `limit`: those without a live chase first. */
export async function listOverdueInvoicesToChase(tx: postgres.TransactionSql, today: string, limit: number): Promise<OpenInvoice[]> {
  return tx<OpenInvoice[]>`
        select i.id, i.invoice_number, to_char(i.due_date, 'YYYY-MM-DD') as due_date from invoices i
        where ${openInvoice(tx)} and i.due_date < ${today}::date
        -- Invoices without a live chase first, so more than SCAN_LIMIT overdue invoices are all reached over repeated calls.
        order by exists (select 1 from automation_runs r
                         where r.company_id = i.company_id and r.workflow_id = ${workflowIdSql(tx, invoiceChaseWorkflowId, { companyId: tx`i.company_id`, invoiceId: tx`i.id` })} and r.status <> 'failed'),
                 i.due_date, i.invoice_number
        limit ${limit}`
}

export interface ChaseRunRow {
  status: string
  outcome: string | null
  progress: { tier?: string | null } | null
}

export async function findChaseRun(tx: postgres.TransactionSql, workflowId: string): Promise<ChaseRunRow | undefined> {
  const [run] = await tx<ChaseRunRow[]>`
    select status, outcome, progress from automation_runs where workflow_id = ${workflowId}`
  return run
}

/** Removes the run record of a failed chase, so the chase can be started again. */
export async function deleteFailedRun(tx: postgres.TransactionSql, workflowId: string): Promise<void> {
  await tx`delete from automation_runs where workflow_id = ${workflowId} and status = 'failed'`
}

/** The first progress of a chase just recorded (a run that has one already keeps it). */
export async function setInitialProgress(tx: postgres.TransactionSql, workflowId: string, progress: Record<string, unknown>): Promise<void> {
  await tx`update automation_runs set progress = ${tx.json(progress as postgres.JSONValue)}
           where workflow_id = ${workflowId} and progress is null`
}

export async function findTimeZone(tx: postgres.TransactionSql): Promise<{ time_zone: string } | undefined> {
  const [company] = await tx<{ time_zone: string }[]>`select time_zone from companies`
  return company
}

export interface ChasedInvoiceRow {
  invoice_number: string
  kind: string
  status: string
  balance_cents: string
  due_date: string
  public_token: string
  lead_id: string
  job_id: string | null
}

/** The invoice as a chase step sees it, read FOR SHARE (a payment or void being committed is waited for). */
export async function findChasedInvoice(tx: postgres.TransactionSql, invoiceId: string): Promise<ChasedInvoiceRow | undefined> {
  const [row] = await tx<ChasedInvoiceRow[]>`
    select invoice_number, kind, status, total_cents - amount_paid_cents - amount_credited_cents as balance_cents,
           to_char(due_date, 'YYYY-MM-DD') as due_date, public_token, lead_id, job_id
    from invoices where id = ${invoiceId} for share`
  return row
}

export async function findClientContact(tx: postgres.TransactionSql, leadId: string): Promise<{ name: string; phone: string | null; email: string | null } | undefined> {
  const [lead] = await tx<{ name: string; phone: string | null; email: string | null }[]>`select name, phone, email from leads where id = ${leadId}`
  return lead
}

export async function findSenderAndZone(tx: postgres.TransactionSql): Promise<{ business_name: string; time_zone: string } | undefined> {
  const [company] = await tx<{ business_name: string; time_zone: string }[]>`select business_name, time_zone from companies`
  return company
}

/** The company's own template under this key, if it wrote one. */
export async function findMessageTemplate(tx: postgres.TransactionSql, key: string): Promise<{ subject: string | null; body: string } | undefined> {
  const [own] = await tx<{ subject: string | null; body: string }[]>`select subject, body from message_templates where key = ${key}`
  return own
}
