// Chase SQL: overdue invoices with their reminders, each invoice's payment-chase run, and the
// reminders sent by hand (invoicing.chase). Every function takes the tenant transaction.
import type postgres from 'postgres'
import { overdueCondition } from '../queries.js'

export type Tone = 'friendly' | 'firm' | 'final'

export interface OverdueRow {
  id: string
  invoice_number: string
  job_id: string | null
  lead_id: string
  client_name: string
  client_phone: string | null
  client_email: string | null
  public_token: string
  due_date: string
  days_overdue: number
  balance_cents: string
  last_tone: string | null
  last_sent_at: Date | null
  reminders: number
}

/** Unpaid invoices past their due date (the company's local today), most overdue first. */
export async function listOverdueInvoices(tx: postgres.TransactionSql, today: string, filter: { jobId?: string; minDays?: number } = {}): Promise<OverdueRow[]> {
  return tx<OverdueRow[]>`
    select i.id, i.invoice_number, i.job_id, i.lead_id, l.name as client_name, l.phone as client_phone, l.email as client_email, i.public_token,
           to_char(i.due_date, 'YYYY-MM-DD') as due_date, (${today}::date - i.due_date) as days_overdue,
           i.total_cents - i.amount_paid_cents - i.amount_credited_cents as balance_cents,
           r.tone as last_tone, r.created_at as last_sent_at, coalesce(rc.n, 0)::int as reminders
    from invoices i join leads l on l.id = i.lead_id
    left join lateral (select tone, created_at from invoice_reminders where invoice_id = i.id order by created_at desc limit 1) r on true
    left join lateral (select count(*) as n from invoice_reminders where invoice_id = i.id) rc on true
    where ${overdueCondition(tx, today, 'i')}
      and (${today}::date - i.due_date) >= ${filter.minDays ?? 1}
      ${filter.jobId ? tx`and i.job_id = ${filter.jobId}` : tx``}
    order by i.due_date, i.invoice_number
    limit 500`
}

export interface ChaseRunRow {
  subject_id: string
  workflow_id: string
  status: string
  outcome: string | null
  progress: { tier?: Tone | null; steps_sent?: number; steps_planned?: number; next?: { step: string; at: string } | null } | null
}

/** Each invoice's latest payment-chase run (workflows.chase_payment), by invoice id. */
export async function listChaseRuns(tx: postgres.TransactionSql, invoiceIds: string[]): Promise<Map<string, ChaseRunRow>> {
  if (!invoiceIds.length) return new Map()
  const rows = await tx<ChaseRunRow[]>`
    select distinct on (subject_id) subject_id::text, workflow_id, status, outcome, progress
    from automation_runs where automation = 'chase_payment' and subject_type = 'invoice' and subject_id = any(${invoiceIds}::uuid[])
    order by subject_id, started_at desc`
  return new Map(rows.map((r) => [r.subject_id, r]))
}

/** The job, when it exists (the id the chase and the recovery options were asked about). */
export async function findJobId(tx: postgres.TransactionSql, jobId: string): Promise<{ id: string } | undefined> {
  const [job] = await tx<{ id: string }[]>`select id from jobs where id = ${jobId}`
  return job
}

export interface NewReminder {
  companyId: string
  invoiceId: string
  tone: Tone
  daysOverdue: number
  channels: string[]
  workflowId: string
  now: Date
}

export async function insertInvoiceReminder(tx: postgres.TransactionSql, r: NewReminder): Promise<void> {
  await tx`insert into invoice_reminders (company_id, invoice_id, tone, days_overdue, channels, workflow_id, created_at)
             values (${r.companyId}, ${r.invoiceId}, ${r.tone}, ${r.daysOverdue}, ${r.channels}, ${r.workflowId}, ${r.now})`
}
