// Invoice SQL. The stored status never says Overdue: a Sent or Partially Paid invoice past its due
// date (a calendar date local to the company) reads as Overdue everywhere, as a Sent quote past its date reads Expired.
import type postgres from 'postgres'
import { centsToDollars } from '../../core/money.js'
import { listPage, type Page } from '../../core/paging.js'
import type { Invoice, InvoiceKind, InvoiceStatus } from './document.js'

export interface InvoiceRow {
  id: string
  company_id: string
  lead_id: string
  job_id: string | null
  quote_id: string | null
  invoice_number: string
  kind: InvoiceKind
  status: InvoiceStatus
  stored_status: Exclude<InvoiceStatus, 'Overdue'>
  subtotal_cents: string
  gst_cents: string
  total_cents: string
  amount_paid_cents: string
  amount_credited_cents: string
  issue_date: string
  due_date: string
  notes: string | null
  public_token: string
  claim: { percent?: number; amount_cents?: number; positions?: number[]; payment_claim?: boolean; deposit?: boolean } | null
  credits_invoice_id: string | null
  replaces_invoice_id: string | null
  void_reason: string | null
  voided_at: Date | null
  sent_count: number
  sent_at: Date | null
  paid_at: Date | null
  created_at: Date
  updated_at: Date
  client_name: string
}

export interface InvoiceLineRow {
  invoice_id: string
  position: number
  description: string
  quantity: string
  unit_price_cents: string
  total_cents: string
  gst_cents: string
  source: string
  source_position: number | null
}

/**
 * Overdue, the one rule every list, summary and scan reads: sent and not settled (Sent or Partially
 * Paid), not a credit note, due before today (the company's local date; invoice dates are local dates). Computed when read,
 * never stored. `table` is the invoices alias in the query, when it has one.
 */
export function overdueCondition(tx: postgres.TransactionSql, today: string, table?: string) {
  const column = (name: string) => tx(table ? `${table}.${name}` : name)
  return tx`${column('status')} in ('Sent', 'Partially Paid') and ${column('kind')} <> 'credit_note' and ${column('due_date')} < ${today}::date`
}

const columns = (tx: postgres.TransactionSql, today: string) => tx`
  i.id, i.company_id, i.lead_id, i.job_id, i.quote_id, i.invoice_number, i.kind,
  case when ${overdueCondition(tx, today, 'i')} then 'Overdue' else i.status end as status,
  i.status as stored_status, i.subtotal_cents, i.gst_cents, i.total_cents, i.amount_paid_cents, i.amount_credited_cents,
  to_char(i.issue_date, 'YYYY-MM-DD') as issue_date, to_char(i.due_date, 'YYYY-MM-DD') as due_date, i.notes, i.public_token,
  i.claim, i.credits_invoice_id, i.replaces_invoice_id, i.void_reason, i.voided_at, i.sent_count, i.sent_at, i.paid_at,
  i.created_at, i.updated_at, l.name as client_name`

export const balanceCents = (row: Pick<InvoiceRow, 'kind' | 'stored_status' | 'total_cents' | 'amount_paid_cents' | 'amount_credited_cents'>) =>
  row.kind === 'credit_note' || row.stored_status === 'Void' ? 0 : Number(row.total_cents) - Number(row.amount_paid_cents) - Number(row.amount_credited_cents)

export const publicInvoiceUrl = (siteRoot: string, token: string) => `${siteRoot}/i/${token}`

/** paymentsActive: the company has a payment account that can take payments now. */
export function presentInvoice(row: InvoiceRow, lines: InvoiceLineRow[], siteRoot: string, paymentsActive: boolean): Invoice {
  const balance = balanceCents(row)
  const url = publicInvoiceUrl(siteRoot, row.public_token)
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    kind: row.kind,
    status: row.status,
    jobId: row.job_id,
    quoteId: row.quote_id,
    leadId: row.lead_id,
    clientName: row.client_name,
    lineItems: lines.map((l) => ({
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: centsToDollars(Number(l.unit_price_cents)),
      total: centsToDollars(Number(l.total_cents)),
      gst: centsToDollars(Number(l.gst_cents)),
    })),
    subtotal: centsToDollars(Number(row.subtotal_cents)),
    gst: centsToDollars(Number(row.gst_cents)),
    total: centsToDollars(Number(row.total_cents)),
    amountPaid: centsToDollars(Number(row.amount_paid_cents)),
    balance: centsToDollars(balance),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    notes: row.notes,
    publicUrl: url,
    pdfUrl: `${url}/pdf`,
    paymentUrl: paymentsActive && balance > 0 ? `${url}/pay` : null,
    creditsInvoiceId: row.credits_invoice_id,
    replacesInvoiceId: row.replaces_invoice_id,
    voidedAt: row.voided_at?.toISOString() ?? null,
    voidReason: row.void_reason,
    sentAt: row.sent_at?.toISOString() ?? null,
    paidAt: row.paid_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

export async function findInvoice(tx: postgres.TransactionSql, id: string, today: string, options: { forUpdate?: boolean } = {}): Promise<InvoiceRow | null> {
  const lock = options.forUpdate ? tx`for no key update of i` : tx``
  const [row] = await tx<InvoiceRow[]>`select ${columns(tx, today)} from invoices i join leads l on l.id = i.lead_id where i.id = ${id} ${lock}`
  return row ?? null
}

export async function findInvoiceByToken(tx: postgres.TransactionSql, token: string, today: string): Promise<InvoiceRow | null> {
  const [row] = await tx<InvoiceRow[]>`select ${columns(tx, today)} from invoices i join leads l on l.id = i.lead_id where i.public_token = ${token} for no key update of i`
  return row ?? null
}

/** Every invoice of a job (and the deposit invoices of its quote), oldest first. */
export async function invoicesOfJob(tx: postgres.TransactionSql, jobId: string, quoteId: string | null, today: string): Promise<InvoiceRow[]> {
  const ofQuote = quoteId ? tx`or (i.quote_id = ${quoteId} and i.job_id is null)` : tx``
  return tx<InvoiceRow[]>`
    select ${columns(tx, today)} from invoices i join leads l on l.id = i.lead_id
    where i.job_id = ${jobId} ${ofQuote} order by i.created_at, i.invoice_number`
}

export async function linesOf(tx: postgres.TransactionSql, invoiceIds: string[]): Promise<Map<string, InvoiceLineRow[]>> {
  const map = new Map<string, InvoiceLineRow[]>(invoiceIds.map((id) => [id, []]))
  if (!invoiceIds.length) return map
  const rows = await tx<InvoiceLineRow[]>`
    select invoice_id, position, description, quantity, unit_price_cents, total_cents, gst_cents, source, source_position
    from invoice_line_items where invoice_id = any(${invoiceIds}::uuid[]) order by invoice_id, position`
  for (const r of rows) map.get(r.invoice_id)!.push(r)
  return map
}

export interface InvoiceFilter {
  status?: InvoiceStatus
  kind?: InvoiceKind
  jobId?: string
}

/** A stored-status condition equal to "the effective status is `status`", served by the status index. */
function effectiveStatusIs(tx: postgres.TransactionSql, status: InvoiceStatus, today: string) {
  if (status === 'Overdue') return overdueCondition(tx, today, 'i')
  if (status === 'Sent' || status === 'Partially Paid') return tx`i.status = ${status} and (i.kind = 'credit_note' or i.due_date >= ${today}::date)`
  return tx`i.status = ${status}`
}

export async function listInvoiceRows(tx: postgres.TransactionSql, f: InvoiceFilter, page: Page, today: string) {
  const matching = [
    f.status && effectiveStatusIs(tx, f.status, today),
    f.kind && tx`i.kind = ${f.kind}`,
    f.jobId && tx`i.job_id = ${f.jobId}`,
  ]
  return listPage<InvoiceRow>(tx, page, {
    select: tx`select ${columns(tx, today)} from invoices i join leads l on l.id = i.lead_id`,
    from: tx`from invoices i`,
    alias: 'i',
    matching,
  })
}

/** Gapless per company and series: the counter row is locked until this transaction ends. */
export async function nextInvoiceNumber(tx: postgres.TransactionSql, companyId: string, series: 'INV' | 'CN'): Promise<string> {
  const [row] = await tx<{ last_number: number }[]>`
    insert into invoice_counters as c (company_id, series, last_number) values (${companyId}, ${series}, 1)
    on conflict (company_id, series) do update set last_number = c.last_number + 1
    returning last_number`
  return `${series}-${String(row!.last_number).padStart(5, '0')}`
}

/** Whether the company's payment account can take payments now. */
export async function paymentsActive(tx: postgres.TransactionSql, provider: string): Promise<boolean> {
  const [row] = await tx<{ charges_enabled: boolean }[]>`select charges_enabled from payment_accounts where provider = ${provider}`
  return row?.charges_enabled ?? false
}

/** An invoice row to insert; the number, dates, totals and page token are worked out by issueInvoice. */
export interface InvoiceInsert {
  companyId: string
  leadId: string
  jobId: string | null
  quoteId: string | null
  invoiceNumber: string
  kind: InvoiceKind
  sent: boolean
  subtotalCents: number
  gstCents: number
  issueDate: string
  dueDate: string
  notes: string | null
  publicToken: string
  claim: Record<string, unknown> | null | undefined
  creditsInvoiceId: string | null
  replacesInvoiceId: string | null
  now: Date
}

export async function insertInvoice(tx: postgres.TransactionSql, inv: InvoiceInsert): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    insert into invoices (company_id, lead_id, job_id, quote_id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents,
                          issue_date, due_date, notes, public_token, claim, credits_invoice_id, replaces_invoice_id,
                          sent_count, sent_at, created_at, updated_at)
    values (${inv.companyId}, ${inv.leadId}, ${inv.jobId}, ${inv.quoteId}, ${inv.invoiceNumber}, ${inv.kind}, ${inv.sent ? 'Sent' : 'Draft'},
            ${inv.subtotalCents}, ${inv.gstCents}, ${inv.subtotalCents + inv.gstCents}, ${inv.issueDate}, ${inv.dueDate}, ${inv.notes},
            ${inv.publicToken}, ${inv.claim ? tx.json(inv.claim as postgres.JSONValue) : null},
            ${inv.creditsInvoiceId}, ${inv.replacesInvoiceId}, ${inv.sent ? 1 : 0}, ${inv.sent ? inv.now : null}, ${inv.now}, ${inv.now})
    returning id`
  return row!.id
}

export interface InvoiceLineInsert {
  company_id: string
  invoice_id: string
  position: number
  description: string
  quantity: number
  unit_price_cents: number
  total_cents: number
  gst_cents: number
  source: string
  source_position: number | null
  source_invoice_id: string | null
}

export async function insertInvoiceLines(tx: postgres.TransactionSql, lines: InvoiceLineInsert[]): Promise<void> {
  await tx`insert into invoice_line_items ${tx(lines)}`
}

/** A send: the first moves a Draft to Sent; every one counts. */
export async function markInvoiceSent(tx: postgres.TransactionSql, id: string, sendCount: number, now: Date): Promise<void> {
  await tx`
    update invoices set status = case when status = 'Draft' then 'Sent' else status end, sent_count = ${sendCount},
           sent_at = coalesce(sent_at, ${now}), updated_at = ${now}
    where id = ${id}`
}

/** The quote's deposit invoice that is not void, if any. */
export async function findLiveDepositInvoice(tx: postgres.TransactionSql, quoteId: string): Promise<{ id: string } | undefined> {
  const [row] = await tx<{ id: string }[]>`select id from invoices where quote_id = ${quoteId} and kind = 'deposit' and status <> 'Void'`
  return row
}

export interface JobExtraRow {
  description: string
  quantity: string
  unit_price_cents: string
  total_cents: string
}

/** The extras recorded on a job, in the order they were added. */
export async function listJobExtras(tx: postgres.TransactionSql, jobId: string): Promise<JobExtraRow[]> {
  return tx<JobExtraRow[]>`
        select description, quantity, unit_price_cents, total_cents from job_extras where job_id = ${jobId} order by created_at, id`
}
