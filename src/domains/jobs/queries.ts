// Job SQL: the job with the lead and quote it links to, its writes (costs, extras, completion, the
// review request), profit and on-my-way notices. Every function takes the tenant transaction.
import type postgres from 'postgres'
import { centsToDollars } from '../../core/money.js'
import { listPage, timestampFilter, type Page } from '../../core/paging.js'
import type { JobStatus } from './schema.js'

export interface JobRow {
  id: string
  lead_id: string
  quote_id: string | null
  title: string
  status: JobStatus
  scheduled_date: Date | null
  address: string | null
  amount_cents: string | null
  technician: string | null
  subcontractor_id: string | null
  notes: string | null
  completed_at: Date | null
  satisfaction_rating: number | null
  review_requested_at: Date | null
  created_at: Date
  updated_at: Date
  lead_name: string
  lead_phone: string | null
  lead_email: string | null
  quote_number: string | null
  quote_status: string | null
  quote_total_cents: string | null
  invoice: { id: string; number: string; kind: string; status: string; total_cents: number; balance_cents: number; due_date: string } | null
  invoicing: { invoiced_cents: number; paid_cents: number; outstanding_cents: number; count: number }
}

const columns = (tx: postgres.TransactionSql) => tx`
  j.id, j.lead_id, j.quote_id, j.title, j.status, j.scheduled_date, j.address, j.amount_cents, j.technician, j.subcontractor_id, j.notes,
  j.completed_at, j.satisfaction_rating, j.review_requested_at, j.created_at, j.updated_at,
  l.name as lead_name, l.phone as lead_phone, l.email as lead_email,
  q.quote_number, q.status as quote_status, q.total_cents as quote_total_cents,
  (select json_build_object('id', i.id, 'number', i.invoice_number, 'kind', i.kind, 'status', i.status, 'total_cents', i.total_cents,
            'balance_cents', i.total_cents - i.amount_paid_cents - i.amount_credited_cents, 'due_date', i.due_date)
     from invoices i where i.job_id = j.id and i.status <> 'Void' and i.kind <> 'credit_note' order by i.created_at desc, i.invoice_number desc limit 1) as invoice,
  (select json_build_object(
            'invoiced_cents', coalesce(sum(case when i.kind = 'credit_note' then -i.total_cents else i.total_cents end), 0),
            'paid_cents', coalesce(sum(i.amount_paid_cents), 0),
            'outstanding_cents', coalesce(sum(case when i.kind = 'credit_note' then 0 else i.total_cents - i.amount_paid_cents - i.amount_credited_cents end), 0),
            'count', count(*) filter (where i.kind <> 'credit_note'))
     from invoices i where i.job_id = j.id and i.status <> 'Void') as invoicing`
const from = (tx: postgres.TransactionSql) => tx`from jobs j join leads l on l.id = j.lead_id left join quotes q on q.id = j.quote_id`

/** today (the company's local date, YYYY-MM-DD) decides whether the latest invoice reads Overdue. */
export function presentJob(row: JobRow, today: string) {
  const inv = row.invoice
  const overdue = inv && (inv.status === 'Sent' || inv.status === 'Partially Paid') && inv.due_date < today
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    scheduledDate: row.scheduled_date?.toISOString() ?? null,
    address: row.address,
    amount: row.amount_cents === null ? null : centsToDollars(Number(row.amount_cents)),
    technician: row.technician,
    subcontractor_id: row.subcontractor_id,
    notes: row.notes,
    lead_id: row.lead_id,
    quoteId: row.quote_id,
    lead: { id: row.lead_id, name: row.lead_name, phone: row.lead_phone, email: row.lead_email },
    quote: row.quote_id
      ? { id: row.quote_id, quoteNumber: row.quote_number!, status: row.quote_status!, total: centsToDollars(Number(row.quote_total_cents)) }
      : null,
    completed_at: row.completed_at?.toISOString() ?? null,
    satisfaction_rating: row.satisfaction_rating,
    review_requested_at: row.review_requested_at?.toISOString() ?? null,
    invoice: inv
      ? { id: inv.id, number: inv.number, kind: inv.kind, status: overdue ? 'Overdue' : inv.status, total: centsToDollars(inv.total_cents), balance: centsToDollars(inv.balance_cents), due_date: inv.due_date }
      : null,
    invoicing: {
      invoiced: centsToDollars(row.invoicing.invoiced_cents), paid: centsToDollars(row.invoicing.paid_cents),
      outstanding: centsToDollars(row.invoicing.outstanding_cents), invoice_count: row.invoicing.count,
    },
    createdAt: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  }
}
export type Job = ReturnType<typeof presentJob>

export async function findJob(tx: postgres.TransactionSql, id: string, options: { forUpdate?: boolean } = {}): Promise<JobRow | null> {
  const lock = options.forUpdate ? tx`for no key update of j` : tx``
  const [row] = await tx<JobRow[]>`select ${columns(tx)} ${from(tx)} where j.id = ${id} ${lock}`
  return row ?? null
}

export interface JobFilter {
  status?: JobStatus
  leadId?: string
  technician?: string
  scheduledFrom?: string
  scheduledTo?: string
}

/**
 * A page, newest first, and the matching jobs counted up to COUNT_CAP + 1 (see cappedCount). Only
 * the filters given reach the WHERE clause, each served by its index (migration 009; lead_id by
 * jobs_lead). Scheduled bounds are checked before any SQL: see timestampFilter.
 */
export async function listJobRows(tx: postgres.TransactionSql, f: JobFilter, page: Page) {
  const scheduledFrom = timestampFilter(f.scheduledFrom, 'scheduled_from')
  const scheduledTo = timestampFilter(f.scheduledTo, 'scheduled_to')
  const matching = [
    f.status && tx`j.status = ${f.status}`,
    f.leadId && tx`j.lead_id = ${f.leadId}`,
    f.technician !== undefined && tx`j.technician = ${f.technician}`,
    scheduledFrom && tx`j.scheduled_date >= ${scheduledFrom}`,
    scheduledTo && tx`j.scheduled_date < ${scheduledTo}`,
  ]
  return listPage<JobRow>(tx, page, { select: tx`select ${columns(tx)} ${from(tx)}`, from: tx`from jobs j`, alias: 'j', matching })
}

export interface NewJob {
  lead_id: string
  quote_id: string | null
  title: string
  status: JobStatus
  scheduled_date: string | null
  address: string | null
  amount_cents: number | null
  technician: string | null
  notes: string | null
}

/** The new job's id; a second job for the same quote fails on jobs_quote_unique. */
export async function insertJob(tx: postgres.TransactionSql, companyId: string, job: NewJob, now: Date): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
        insert into jobs (company_id, lead_id, quote_id, title, status, scheduled_date, address, amount_cents, technician, notes, created_at, updated_at)
        values (${companyId}, ${job.lead_id}, ${job.quote_id}, ${job.title}, ${job.status}, ${job.scheduled_date},
                ${job.address}, ${job.amount_cents}, ${job.technician}, ${job.notes}, ${now}, ${now})
        returning id`
  return row!.id
}

/** Gives the job the quote's invoices that have none yet (a deposit invoiced on acceptance). */
export async function updateQuoteInvoicesJob(tx: postgres.TransactionSql, quoteId: string, jobId: string): Promise<void> {
  await tx`update invoices set job_id = ${jobId} where quote_id = ${quoteId} and job_id is null`
}

/** Sets the given columns (names as in the table) on the job. */
export async function updateJobRow(tx: postgres.TransactionSql, id: string, changes: Record<string, unknown>): Promise<void> {
  await tx`update jobs set ${tx(changes, ...Object.keys(changes))} where id = ${id}`
}

export async function insertJobCost(tx: postgres.TransactionSql, companyId: string, jobId: string, description: string, amountCents: number, now: Date): Promise<void> {
  await tx`insert into job_costs (company_id, job_id, description, amount_cents, created_at)
               values (${companyId}, ${jobId}, ${description}, ${amountCents}, ${now})`
}

/** The number of the job's final invoice that is not void, if one is issued. */
export async function findFinalInvoiceNumber(tx: postgres.TransactionSql, jobId: string): Promise<string | undefined> {
  const [final] = await tx<{ invoice_number: string }[]>`select invoice_number from invoices where job_id = ${jobId} and kind = 'final' and status <> 'Void'`
  return final?.invoice_number
}

export interface NewJobExtra {
  company_id: string
  job_id: string
  description: string
  quantity: number
  unit_price_cents: number
  total_cents: number
  created_at: Date
}

export async function insertJobExtras(tx: postgres.TransactionSql, rows: NewJobExtra[]): Promise<void> {
  await tx`insert into job_extras ${tx(rows)}`
}

export interface Completion {
  notes: string | null
  satisfaction_rating: number | null
  amount_cents: string | number | null
}

export async function updateJobCompleted(tx: postgres.TransactionSql, id: string, c: Completion, now: Date): Promise<void> {
  await tx`
      update jobs set status = 'Completed', completed_at = ${now}, updated_at = ${now}, notes = ${c.notes},
             satisfaction_rating = ${c.satisfaction_rating},
             amount_cents = ${c.amount_cents}
      where id = ${id}`
}

export interface ProfitRow {
  id: string
  title: string
  status: JobStatus
  revenue_cents: string
  materials_cents: string
  recorded_cents: string
}

/**
 * Revenue, material costs (the quote's line-item unit costs) and recorded costs: of one job when
 * jobId is given, else of the jobs completed in the period (local dates in timeZone).
 */
export async function listProfitRows(tx: postgres.TransactionSql, jobId: string | undefined, timeZone: string, period: { from: string; to: string } | null): Promise<ProfitRow[]> {
  const rows = await tx<ProfitRow[]>`
      select j.id, j.title, j.status, coalesce(j.amount_cents, 0) as revenue_cents,
        coalesce((select sum(round(li.quantity * li.unit_cost_cents)) from quote_line_items li where li.quote_id = j.quote_id and li.unit_cost_cents is not null), 0) as materials_cents,
        coalesce((select sum(c.amount_cents) from job_costs c where c.job_id = j.id), 0) as recorded_cents
      from jobs j
      where ${jobId
        ? tx`j.id = ${jobId}`
        : tx`j.status = 'Completed' and (j.completed_at at time zone ${timeZone})::date between ${period!.from}::date and ${period!.to}::date`}
      order by j.completed_at nulls last, j.created_at`
  return rows
}

/** What an on-my-way notice names: the business, its phone and zone. */
export async function findNoticeCompany(tx: postgres.TransactionSql): Promise<{ business_name: string; phone: string | null; time_zone: string } | undefined> {
  const [company] = await tx<{ business_name: string; phone: string | null; time_zone: string }[]>`select business_name, phone, time_zone from companies`
  return company
}

/** Counts one more on-my-way notice for the job; the new count numbers it. */
export async function updateEtaCount(tx: postgres.TransactionSql, jobId: string): Promise<number> {
  const [numbered] = await tx<{ eta_count: number }[]>`update jobs set eta_count = eta_count + 1 where id = ${jobId} returning eta_count`
  return numbered!.eta_count
}

/** Whether an accepted quote opens its job at once (companies.create_job_on_acceptance, on by default). */
export async function findCreateJobOnAcceptance(tx: postgres.TransactionSql): Promise<boolean> {
  const [row] = await tx<{ create_job_on_acceptance: boolean }[]>`select create_job_on_acceptance from companies`
  return row?.create_job_on_acceptance ?? true
}

/** The quote's job, if it has one (jobs_quote_unique: at most one). */
export async function findJobIdOfQuote(tx: postgres.TransactionSql, quoteId: string): Promise<string | null> {
  const [row] = await tx<{ id: string }[]>`select id from jobs where quote_id = ${quoteId}`
  return row?.id ?? null
}
