// Cashflow SQL: recurring costs (recurring-costs.ts) and the forecast's items (forecast.ts). Every
// function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import { addDays } from '../../core/period.js'
import type { RecurringCostSchema } from './schema.js'

export interface CostRow {
  id: string; name: string; amount_cents: string; frequency: Static<typeof RecurringCostSchema>['frequency']
  starts_on: string; ends_on: string | null; active: boolean; next_on: string | null; created_at: Date; updated_at: Date
}

/** The cost's columns, with its next date on or after `today` (the company's local date) within 400 days. */
const columns = (tx: postgres.TransactionSql, today: string) => tx`
  c.id, c.name, c.amount_cents, c.frequency, to_char(c.starts_on, 'YYYY-MM-DD') as starts_on, to_char(c.ends_on, 'YYYY-MM-DD') as ends_on,
  c.active, c.created_at, c.updated_at,
  (select to_char(min(o.on_date), 'YYYY-MM-DD') from recurring_cost_occurrences(${today}::date, ${addDays(today, 400)}::date) o where o.cost_id = c.id) as next_on`

/** Newest first, at most 1000; only active ones unless includeInactive. */
export async function listCostRows(tx: postgres.TransactionSql, today: string, includeInactive: boolean | undefined): Promise<CostRow[]> {
  return tx<CostRow[]>`
      select ${columns(tx, today)} from recurring_costs c
      ${includeInactive ? tx`` : tx`where c.active`} order by c.created_at desc, c.id desc limit 1000`
}

export async function findCostRow(tx: postgres.TransactionSql, id: string, today: string): Promise<CostRow | undefined> {
  const [row] = await tx<CostRow[]>`select ${columns(tx, today)} from recurring_costs c where c.id = ${id}`
  return row
}

export async function countActiveCosts(tx: postgres.TransactionSql): Promise<number> {
  const [active] = await tx<{ n: number }[]>`select count(*)::int as n from recurring_costs where active`
  return active!.n
}

export interface NewCost {
  name: string
  amount_cents: number
  frequency: CostRow['frequency']
  starts_on: string
  ends_on: string | null
}

/** The new cost's id. */
export async function insertCost(tx: postgres.TransactionSql, companyId: string, cost: NewCost, now: Date): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
      insert into recurring_costs (company_id, name, amount_cents, frequency, starts_on, ends_on, created_at, updated_at)
      values (${companyId}, ${cost.name}, ${cost.amount_cents}, ${cost.frequency}, ${cost.starts_on}, ${cost.ends_on}, ${now}, ${now})
      returning id`
  return row!.id
}

/**
 * Deactivates the cost, ending it on `local` (the company's date) at the latest; a second call
 * changes nothing (the end date stays the first one). Undefined when no cost has that id.
 */
export async function deactivateCost(tx: postgres.TransactionSql, id: string, local: string, now: Date): Promise<{ id: string } | undefined> {
  const [found] = await tx<{ id: string }[]>`
      update recurring_costs set
        ends_on = case when active then least(coalesce(ends_on, ${local}::date), ${local}::date) else ends_on end,
        deactivated_at = coalesce(deactivated_at, ${now}), updated_at = case when active then ${now} else updated_at end, active = false
      where id = ${id} returning id`
  return found
}

/** The company's payment terms in days; undefined before invoicing settings exist. */
export async function findPaymentTermsDays(tx: postgres.TransactionSql): Promise<number | undefined> {
  const [settings] = await tx<{ days: number }[]>`select payment_terms_days as days from invoicing_settings`
  return settings?.days
}

/** One forecast item, in cents (as text), with its client's record and its week (1 = this week). */
export interface ForecastItemRow {
  type: 'invoice' | 'job' | 'recurring_cost'; id: string; label: string; date: string; amount: string; expected: string
  paid: number; history: number; week: number; detail: string | null
}

/** The client's record: how many of its other invoices are Paid, of those Paid or past due. */
const history = (tx: postgres.TransactionSql, self: postgres.Fragment, today: string) => tx`
  cross join lateral (
    select (count(*) filter (where h.status = 'Paid'))::int as paid, count(*)::int as history
    from invoices h
    where h.lead_id = l.id and ${self} and h.kind <> 'credit_note' and h.status <> 'Void' and (h.status = 'Paid' or h.due_date < ${today}::date)
  ) hist`

/** The amount weighted by the client's record, or by defaultWeight for a client with no history. */
const weighted = (tx: postgres.TransactionSql, amount: postgres.Fragment, defaultWeight: number) =>
  tx`round(case when hist.history = 0 then ${amount} * ${defaultWeight}::numeric else ${amount}::numeric * hist.paid / hist.history end)::bigint::text`

/** Invoices owed, due by `last`, on their due date or today when overdue. */
export async function listInvoiceItems(tx: postgres.TransactionSql, today: string, last: string, defaultWeight: number): Promise<ForecastItemRow[]> {
  const balance = tx`(i.total_cents - i.amount_paid_cents - i.amount_credited_cents)`
  return tx<ForecastItemRow[]>`
    select 'invoice' as type, i.id, i.invoice_number || ' · ' || l.name as label, to_char(greatest(i.due_date, ${today}::date), 'YYYY-MM-DD') as date,
           ${balance}::text as amount, ${weighted(tx, balance, defaultWeight)} as expected, hist.paid, hist.history,
           (greatest(i.due_date, ${today}::date) - ${today}::date) / 7 + 1 as week,
           i.status || case when i.due_date < ${today}::date then ', overdue since ' || to_char(i.due_date, 'YYYY-MM-DD') else ', due ' || to_char(i.due_date, 'YYYY-MM-DD') end as detail
    from invoices i join leads l on l.id = i.lead_id
    ${history(tx, tx`h.id <> i.id`, today)}
    where i.status in ('Draft', 'Sent', 'Partially Paid') and i.kind <> 'credit_note' and i.due_date <= ${last}::date and ${balance} > 0
    order by i.due_date, i.invoice_number`
}

/** Jobs booked, or completed without a final invoice: what is not yet invoiced, expected `terms` days after the job (or today). */
export async function listJobItems(tx: postgres.TransactionSql, today: string, last: string, tz: string, terms: number, defaultWeight: number): Promise<ForecastItemRow[]> {
  const localDay = tx`greatest(coalesce(case when j.status = 'Completed' then null else (j.scheduled_date at time zone ${tz})::date end, ${today}::date), ${today}::date)`
  const invoiced = tx`(select coalesce(sum(i.total_cents - i.amount_credited_cents), 0) from invoices i
                       where (i.job_id = j.id or (j.quote_id is not null and i.quote_id = j.quote_id and i.job_id is null))
                         and i.kind <> 'credit_note' and i.status <> 'Void')`
  const remaining = tx`(j.amount_cents - ${invoiced})`
  return tx<ForecastItemRow[]>`
    select * from (
      select 'job' as type, j.id, j.title || ' · ' || l.name as label, to_char(${localDay} + ${terms}::int, 'YYYY-MM-DD') as date,
             ${remaining}::text as amount, ${weighted(tx, remaining, defaultWeight)} as expected, hist.paid, hist.history,
             (${localDay} + ${terms}::int - ${today}::date) / 7 + 1 as week,
             j.status || case when j.status = 'Completed' then ', not yet invoiced' else ' for ' || to_char((j.scheduled_date at time zone ${tz})::date, 'YYYY-MM-DD') end as detail,
             ${localDay} + ${terms}::int as on_date, ${remaining} as left_cents
      from jobs j join leads l on l.id = j.lead_id
      ${history(tx, tx`true`, today)}
      where j.status in ('Scheduled', 'In Progress', 'Completed') and j.amount_cents > 0
        and (j.status = 'Completed' or j.scheduled_date is not null)
        and not exists (select 1 from invoices f where f.job_id = j.id and f.kind = 'final' and f.status <> 'Void')
    ) x where x.on_date <= ${last}::date and x.left_cents > 0
    order by x.on_date, x.id`
}

/** Each date a recurring cost falls due from today to `last`, in full. */
export async function listRecurringCostItems(tx: postgres.TransactionSql, today: string, last: string): Promise<ForecastItemRow[]> {
  return tx<ForecastItemRow[]>`
    select 'recurring_cost' as type, cost_id as id, name as label, to_char(on_date, 'YYYY-MM-DD') as date, amount_cents::text as amount,
           amount_cents::text as expected, 0 as paid, 0 as history, (on_date - ${today}::date) / 7 + 1 as week, frequency as detail
    from recurring_cost_occurrences(${today}::date, ${last}::date) order by on_date, name`
}
