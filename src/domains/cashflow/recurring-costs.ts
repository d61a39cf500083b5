// Recurring costs the company records (rent, leases, insurance, wages): REST only, read by the
// forecast and by GET /financials (cash out). Removing one deactivates it: its past dates still
// happened and stay in past cash flow; from the day after, it no longer falls due.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { notFound, validationError } from '../../core/errors.js'
import { centsToDollars, parseDollars } from '../../core/money.js'
import { addDays } from '../../core/period.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { companyTimeZone, isCalendarDate } from '../analytics/window.js'
import type { CreateRecurringCostInput, ListRecurringCostsInput, RecurringCostSchema } from './schema.js'

interface CostRow {
  id: string; name: string; amount_cents: string; frequency: Static<typeof RecurringCostSchema>['frequency']
  starts_on: string; ends_on: string | null; active: boolean; next_on: string | null; created_at: Date; updated_at: Date
}

/** Active costs at most; a business records a handful, and the forecast reads them all. */
const MAX_ACTIVE = 200

const columns = (tx: postgres.TransactionSql, today: string) => tx`
  c.id, c.name, c.amount_cents, c.frequency, to_char(c.starts_on, 'YYYY-MM-DD') as starts_on, to_char(c.ends_on, 'YYYY-MM-DD') as ends_on,
  c.active, c.created_at, c.updated_at,
  (select to_char(min(o.on_date), 'YYYY-MM-DD') from recurring_cost_occurrences(${today}::date, ${addDays(today, 400)}::date) o where o.cost_id = c.id) as next_on`

const present = (r: CostRow): Static<typeof RecurringCostSchema> => ({
  id: r.id, name: r.name, amount: centsToDollars(Number(r.amount_cents)), frequency: r.frequency, starts_on: r.starts_on, ends_on: r.ends_on,
  active: r.active, next_on: r.next_on, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString(),
})

async function today(deps: Deps, tx: postgres.TransactionSql) {
  return localDate(deps.clock.now(), await companyTimeZone(tx))
}

export async function listRecurringCosts(deps: Deps, principal: Principal, input: Static<typeof ListRecurringCostsInput>) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const rows = await tx<CostRow[]>`
      select ${columns(tx, await today(deps, tx))} from recurring_costs c
      ${input.include_inactive ? tx`` : tx`where c.active`} order by c.created_at desc, c.id desc limit 1000`
    return { recurring_costs: rows.map(present) }
  })
}

export async function createRecurringCost(deps: Deps, principal: Principal, input: Static<typeof CreateRecurringCostInput>) {
  const cents = parseDollars(input.amount, 'amount')
  const problems: string[] = []
  if (cents < 1) problems.push('amount: at least 0.01')
  if (input.starts_on !== undefined && !isCalendarDate(input.starts_on)) problems.push('starts_on: must be a calendar date YYYY-MM-DD')
  if (input.ends_on !== undefined && !isCalendarDate(input.ends_on)) problems.push('ends_on: must be a calendar date YYYY-MM-DD')
  if (!input.name.trim()) problems.push('name: must not be blank')
  if (problems.length) throw validationError(problems)
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const now = deps.clock.now()
    const local = await today(deps, tx)
    const startsOn = input.starts_on ?? local
    if (startsOn < '2000-01-01' || startsOn > '2999-12-31') throw validationError(['starts_on: must be between 2000-01-01 and 2999-12-31'])
    if (input.ends_on !== undefined && input.ends_on < startsOn) throw validationError(['ends_on: must be on or after starts_on'])
    const [active] = await tx<{ n: number }[]>`select count(*)::int as n from recurring_costs where active`
    if (active!.n >= MAX_ACTIVE) throw validationError([`name: at most ${MAX_ACTIVE} active recurring costs; remove one first (DELETE /api/v1/recurring-costs/{id})`])
    const [row] = await tx<{ id: string }[]>`
      insert into recurring_costs (company_id, name, amount_cents, frequency, starts_on, ends_on, created_at, updated_at)
      values (${principal.companyId}, ${input.name.trim()}, ${cents}, ${input.frequency}, ${startsOn}, ${input.ends_on ?? null}, ${now}, ${now})
      returning id`
    const [created] = await tx<CostRow[]>`select ${columns(tx, local)} from recurring_costs c where c.id = ${row!.id}`
    return { recurring_cost: present(created!) }
  })
}

export async function deactivateRecurringCost(deps: Deps, principal: Principal, id: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const now = deps.clock.now()
    const local = await today(deps, tx)
    // A second DELETE changes nothing and answers the same (the end date stays the first one).
    const [found] = await tx<{ id: string }[]>`
      update recurring_costs set
        ends_on = case when active then least(coalesce(ends_on, ${local}::date), ${local}::date) else ends_on end,
        deactivated_at = coalesce(deactivated_at, ${now}), updated_at = case when active then ${now} else updated_at end, active = false
      where id = ${id} returning id`
    if (!found) throw notFound('Recurring cost')
    const [row] = await tx<CostRow[]>`select ${columns(tx, local)} from recurring_costs c where c.id = ${id}`
    return { recurring_cost: present(row!) }
  })
}
