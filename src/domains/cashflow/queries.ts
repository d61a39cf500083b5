// Cashflow SQL, recurring costs (recurring-costs.ts). Every function takes the tenant transaction from
// withTenant(); RLS scopes the rows. (forecast.ts still writes its own SQL: it moves here once the
// time-zone change to it has landed; see test/sql-placement.test.ts.)
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
