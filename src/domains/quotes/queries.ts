// Quote SQL. The stored status never says Expired on its own: a Sent or Viewed quote past its
// valid-until date (a calendar date local to the company) reads as Expired everywhere, and is written as
// Expired when someone tries to act on it.
import type postgres from 'postgres'
import { centsToDollars } from '../../core/money.js'
import { percentOfCents } from '../../core/gst.js'
import { listPage, type Page } from '../../core/paging.js'
import type { Sql } from '../../db/sql.js'
import type { QuoteStatus } from './schema.js'

export interface QuoteRow {
  id: string
  lead_id: string
  quote_number: string
  status: QuoteStatus
  subtotal_cents: string
  gst_cents: string
  total_cents: string
  valid_until: string
  notes: string | null
  public_token: string
  sent_count: number
  sent_at: Date | null
  viewed_at: Date | null
  accepted_at: Date | null
  accepted_name: string | null
  declined_at: Date | null
  decline_reason: string | null
  created_at: Date
  updated_at: Date
  client_name: string | null
  deposit_percent: string | null
  deposit_cents: string | null
  deposit_invoice_id: string | null
  job_id: string | null
}

export interface LineRow {
  quote_id: string
  position: number
  description: string
  quantity: string
  unit_price_cents: string
  total_cents: string
  unit_cost_cents: string | null
  service_id: string | null
}

/** Columns with the effective status on `today`, the company's local date. */
const columns = (tx: postgres.TransactionSql, today: string) => tx`
  q.id, q.lead_id, q.quote_number,
  case when q.status in ('Sent', 'Viewed') and q.valid_until < ${today}::date then 'Expired' else q.status end as status,
  q.subtotal_cents, q.gst_cents, q.total_cents, to_char(q.valid_until, 'YYYY-MM-DD') as valid_until, q.notes, q.public_token,
  q.sent_count, q.sent_at, q.viewed_at, q.accepted_at, q.accepted_name, q.declined_at, q.decline_reason,
  q.created_at, q.updated_at, l.name as client_name, q.deposit_percent, q.deposit_cents,
  (select i.id from invoices i where i.quote_id = q.id and i.kind = 'deposit' and i.status <> 'Void' limit 1) as deposit_invoice_id,
  (select j.id from jobs j where j.quote_id = q.id) as job_id`

export function presentQuote(row: QuoteRow, lines: LineRow[], siteRoot: string) {
  return {
    id: row.id,
    quoteNumber: row.quote_number,
    status: row.status,
    subtotal: centsToDollars(Number(row.subtotal_cents)),
    gst: centsToDollars(Number(row.gst_cents)),
    total: centsToDollars(Number(row.total_cents)),
    clientName: row.client_name,
    leadId: row.lead_id,
    lineItems: lines.map((l) => ({
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: centsToDollars(Number(l.unit_price_cents)),
      total: centsToDollars(Number(l.total_cents)),
      serviceId: l.service_id,
    })),
    validUntil: row.valid_until,
    notes: row.notes,
    deposit: depositOf(row),
    job_id: row.job_id,
    publicUrl: row.sent_count > 0 ? publicQuoteUrl(siteRoot, row.public_token) : null,
    sentAt: row.sent_at?.toISOString() ?? null,
    viewedAt: row.viewed_at?.toISOString() ?? null,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
    acceptedName: row.accepted_name,
    declinedAt: row.declined_at?.toISOString() ?? null,
    declineReason: row.decline_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}
export type Quote = ReturnType<typeof presentQuote>

/** The deposit asked, in dollars incl. GST: a percentage of the total (rounded half up) or a fixed amount. */
export function depositCents(row: Pick<QuoteRow, 'total_cents' | 'deposit_percent' | 'deposit_cents'>): number | null {
  if (row.deposit_cents !== null) return Number(row.deposit_cents)
  if (row.deposit_percent === null) return null
  return percentOfCents(Number(row.total_cents), Number(row.deposit_percent))
}

function depositOf(row: QuoteRow) {
  const cents = depositCents(row)
  if (cents === null) return null
  return { percent: row.deposit_percent === null ? null : Number(row.deposit_percent), amount: centsToDollars(cents), invoiceId: row.deposit_invoice_id }
}

export const publicQuoteUrl = (siteRoot: string, token: string) => `${siteRoot}/q/${token}`

export async function findQuote(tx: postgres.TransactionSql, id: string, today: string, options: { forUpdate?: boolean } = {}): Promise<QuoteRow | null> {
  const lock = options.forUpdate ? tx`for no key update of q` : tx``
  const [row] = await tx<QuoteRow[]>`select ${columns(tx, today)} from quotes q join leads l on l.id = q.lead_id where q.id = ${id} ${lock}`
  return row ?? null
}

export async function findQuoteByToken(tx: postgres.TransactionSql, token: string, today: string): Promise<QuoteRow | null> {
  const [row] = await tx<QuoteRow[]>`select ${columns(tx, today)} from quotes q join leads l on l.id = q.lead_id where q.public_token = ${token} for no key update of q`
  return row ?? null
}

export async function lineItemsFor(tx: postgres.TransactionSql, quoteIds: string[]): Promise<Map<string, LineRow[]>> {
  const map = new Map<string, LineRow[]>(quoteIds.map((id) => [id, []]))
  if (!quoteIds.length) return map
  const rows = await tx<LineRow[]>`
    select quote_id, position, description, quantity, unit_price_cents, total_cents, unit_cost_cents, service_id
    from quote_line_items where quote_id = any(${quoteIds}::uuid[]) order by quote_id, position`
  for (const r of rows) map.get(r.quote_id)!.push(r)
  return map
}

export interface QuoteFilter {
  status?: QuoteStatus
  leadId?: string
}

/**
 * A stored-status condition equal to "the effective status is `status`" on `today`, written so the
 * (company_id, status, created_at, id) index serves it: Sent and Viewed hold only while valid, and
 * Expired is stored Expired or a Sent/Viewed quote past its valid-until date.
 */
function effectiveStatusIs(tx: postgres.TransactionSql, status: QuoteStatus, today: string) {
  if (status === 'Expired') {
    return tx`q.status in ('Expired', 'Sent', 'Viewed') and (q.status = 'Expired' or q.valid_until < ${today}::date)`
  }
  if (status === 'Sent' || status === 'Viewed') return tx`q.status = ${status} and q.valid_until >= ${today}::date`
  return tx`q.status = ${status}`
}

/** A page, newest first, and the matching quotes counted up to COUNT_CAP + 1 (see cappedCount). */
export async function listQuoteRows(tx: postgres.TransactionSql, filter: QuoteFilter, page: Page, today: string) {
  const matching = [
    filter.status && effectiveStatusIs(tx, filter.status, today),
    filter.leadId && tx`q.lead_id = ${filter.leadId}`,
  ]
  return listPage<QuoteRow>(tx, page, {
    select: tx`select ${columns(tx, today)} from quotes q join leads l on l.id = q.lead_id`,
    from: tx`from quotes q`,
    alias: 'q',
    matching,
  })
}

/** Gapless per company: the counter row is locked until this transaction ends. */
export async function nextQuoteNumber(tx: postgres.TransactionSql, companyId: string): Promise<string> {
  const [row] = await tx<{ last_number: number }[]>`
    insert into quote_counters as c (company_id, last_number) values (${companyId}, 1)
    on conflict (company_id) do update set last_number = c.last_number + 1
    returning last_number`
  return `Q-${String(row!.last_number).padStart(5, '0')}`
}

export interface NewLineItem {
  company_id: string; quote_id: string; position: number; description: string; quantity: number
  unit_price_cents: number; total_cents: number; unit_cost_cents: number | null; service_id: string | null
}

/** Replaces the quote's line items with these. */
export async function replaceLineItems(tx: postgres.TransactionSql, quoteId: string, rows: NewLineItem[]): Promise<void> {
  await tx`delete from quote_line_items where quote_id = ${quoteId}`
  await tx`insert into quote_line_items ${tx(rows)}`
}

export interface NewQuote {
  lead_id: string; quote_number: string; subtotal_cents: number; gst_cents: number; total_cents: number; valid_until: string
  notes: string | null; public_token: string; deposit_percent: number | null; deposit_cents: number | null
}

/** The new Draft quote's id. */
export async function insertQuote(tx: postgres.TransactionSql, companyId: string, q: NewQuote, now: Date): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
      insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until,
                          notes, public_token, deposit_percent, deposit_cents, created_at, updated_at)
      values (${companyId}, ${q.lead_id}, ${q.quote_number}, 'Draft', ${q.subtotal_cents}, ${q.gst_cents},
              ${q.total_cents}, ${q.valid_until}, ${q.notes},
              ${q.public_token}, ${q.deposit_percent}, ${q.deposit_cents}, ${now}, ${now})
      returning id`
  return row!.id
}

export async function updateQuoteTotals(tx: postgres.TransactionSql, id: string, t: { subtotalCents: number; gstCents: number; totalCents: number }): Promise<void> {
  await tx`update quotes set subtotal_cents = ${t.subtotalCents}, gst_cents = ${t.gstCents}, total_cents = ${t.totalCents} where id = ${id}`
}

/** Sets the given columns (names as in the table) on the quote. */
export async function updateQuoteRow(tx: postgres.TransactionSql, id: string, changes: Record<string, unknown>): Promise<void> {
  await tx`update quotes set ${tx(changes, ...Object.keys(changes))} where id = ${id}`
}

/** One more send: the status given, the count, the first sent time kept. */
export async function updateQuoteSent(tx: postgres.TransactionSql, id: string, status: QuoteStatus, sendCount: number, now: Date): Promise<void> {
  await tx`update quotes set status = ${status}, sent_count = ${sendCount}, sent_at = coalesce(sent_at, ${now}), updated_at = ${now} where id = ${id}`
}

/** What a quote's message names: the business, and the zone its follow-ups are timed in. */
export async function findSenderCompany(tx: postgres.TransactionSql): Promise<{ business_name: string; time_zone: string } | undefined> {
  const [company] = await tx<{ business_name: string; time_zone: string }[]>`select business_name, time_zone from companies`
  return company
}

// The public quote page (public.ts).

/** The company behind a public token (SECURITY DEFINER: before the tenant is known). */
export async function findCompanyByQuoteToken(sql: Sql, token: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select quote_company_by_token(${token}) as company_id`
  return row?.company_id ?? null
}

/** Stores Expired on a quote that reads as Expired (no change when already stored). */
export async function updateQuoteExpired(tx: postgres.TransactionSql, id: string, now: Date): Promise<void> {
  await tx`update quotes set status = 'Expired', updated_at = ${now} where id = ${id} and status <> 'Expired'`
}

export interface PageCompanyRow { business_name: string; abn: string | null; phone: string | null; contact_email: string; time_zone: string }

export async function findPageCompany(tx: postgres.TransactionSql): Promise<PageCompanyRow | undefined> {
  const [company] = await tx<PageCompanyRow[]>`
    select business_name, abn, phone, contact_email, time_zone from companies`
  return company
}

export interface ClientRow { name: string; address: string | null; suburb: string | null }

export async function findClient(tx: postgres.TransactionSql, leadId: string): Promise<ClientRow | undefined> {
  const [lead] = await tx<ClientRow[]>`
    select name, address, suburb from leads where id = ${leadId}`
  return lead
}

export async function updateQuoteViewed(tx: postgres.TransactionSql, id: string, now: Date): Promise<void> {
  await tx`update quotes set status = 'Viewed', viewed_at = ${now}, updated_at = ${now} where id = ${id}`
}

export async function updateQuoteAccepted(tx: postgres.TransactionSql, id: string, name: string, ip: string, now: Date): Promise<void> {
  await tx`
      update quotes set status = 'Accepted', accepted_at = ${now}, accepted_name = ${name}, accepted_ip = ${ip},
                        viewed_at = coalesce(viewed_at, ${now}), updated_at = ${now}
      where id = ${id}`
}

export async function updateQuoteDeclined(tx: postgres.TransactionSql, id: string, reason: string | null, now: Date): Promise<void> {
  await tx`
      update quotes set status = 'Declined', declined_at = ${now}, decline_reason = ${reason},
                        viewed_at = coalesce(viewed_at, ${now}), updated_at = ${now}
      where id = ${id}`
}
