// Recurring costs the company records (rent, leases, insurance, wages): read by the
// forecast and by GET /financials (cash out). Removing one deactivates it: its past dates still
// happened and stay in past cash flow; from the day after, it no longer falls due.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../core/access.js'
import type { Deps } from '../../core/deps.js'
import { notFound, validationError } from '../../core/errors.js'
import { centsToDollars, parseDollars } from '../../core/money.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { companyTimeZone, isCalendarDate } from '../analytics/window.js'
import type { CreateRecurringCostInput, ListRecurringCostsInput, RecurringCostSchema } from './schema.js'
import { countActiveCosts, deactivateCost, findCostRow, insertCost, listCostRows, type CostRow } from './queries.js'

/** Active costs at most; a business records a handful, and the forecast reads them all. */
const MAX_ACTIVE = 200

const present = (r: CostRow): Static<typeof RecurringCostSchema> => ({
  id: r.id, name: r.name, amount: centsToDollars(Number(r.amount_cents)), frequency: r.frequency, starts_on: r.starts_on, ends_on: r.ends_on,
  active: r.active, next_on: r.next_on, created_at: r.created_at.toISOString(), updated_at: r.updated_at.toISOString(),
})

async function today(deps: Deps, tx: postgres.TransactionSql) {
  return localDate(deps.clock.now(), await companyTimeZone(tx))
}

export async function listRecurringCosts(deps: Deps, principal: Principal, input: Static<typeof ListRecurringCostsInput>) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const rows = await listCostRows(tx, await today(deps, tx), input.include_inactive)
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
    if ((await countActiveCosts(tx)) >= MAX_ACTIVE) throw validationError([`name: at most ${MAX_ACTIVE} active recurring costs; remove one first (DELETE /api/v1/recurring-costs/{id})`])
    const id = await insertCost(tx, principal.companyId, {
      name: input.name.trim(), amount_cents: cents, frequency: input.frequency, starts_on: startsOn, ends_on: input.ends_on ?? null,
    }, now)
    const created = await findCostRow(tx, id, local)
    return { recurring_cost: present(created!) }
  })
}

export async function deactivateRecurringCost(deps: Deps, principal: Principal, id: string) {
  return withTenant(deps.db, principal.companyId, async (tx) => {
    const now = deps.clock.now()
    const local = await today(deps, tx)
    // A second DELETE changes nothing and answers the same (the end date stays the first one).
    const found = await deactivateCost(tx, id, local, now)
    if (!found) throw notFound('Recurring cost')
    const row = await findCostRow(tx, id, local)
    return { recurring_cost: present(row!) }
  })
}
