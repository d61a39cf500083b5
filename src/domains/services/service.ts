// The service catalogue: priced items a quote's line items can reference.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { notFound, validationError } from '../../core/errors.js'
import { centsToDollars, parseDollars } from '../../core/money.js'
import { containsPattern, listPage, pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import type { CreateServiceInput, ListServicesInput, UpdateServiceInput } from './schema.js'

export interface ServiceRow {
  id: string
  name: string
  description: string | null
  category: string | null
  unit: 'each' | 'hour' | 'metre' | 'square_metre' | 'fixed'
  unit_price_cents: string | number
  active: boolean
  created_at: Date
  updated_at: Date
}

const columns = (tx: postgres.TransactionSql) => tx`id, name, description, category, unit, unit_price_cents, active, created_at, updated_at`

export function presentService(row: ServiceRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    category: row.category,
    unit: row.unit,
    price: centsToDollars(Number(row.unit_price_cents)),
    active: row.active,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

export async function findServices(tx: postgres.TransactionSql, ids: string[]): Promise<Map<string, ServiceRow>> {
  if (!ids.length) return new Map()
  const rows = await tx<ServiceRow[]>`select ${columns(tx)} from services where id = any(${ids}::uuid[])`
  return new Map(rows.map((r) => [r.id, r]))
}

export async function listServices(deps: Deps, principal: Principal, input: Static<typeof ListServicesInput>) {
  const page = pageFrom(input)
  const search = containsPattern(input.search)
  const { rows, total } = await withTenant(deps.db, principal.companyId, async (tx) => {
    // Only the filters given reach the WHERE clause, each served by its index (migration 009).
    const matching = [
      // Written out, not a parameter: a plan for 'active = $1' made once and reused (a generic plan)
      // cannot tell the rare inactive services from the many active ones; two texts, two plans.
      input.active !== undefined && (input.active ? tx`active` : tx`not active`),
      input.category !== undefined && tx`category = ${input.category}`,
      search && tx`(name ilike ${search} or description ilike ${search})`,
    ]
    return listPage<ServiceRow>(tx, page, { select: tx`select ${columns(tx)} from services`, from: tx`from services`, matching })
  })
  const services = rows.map(presentService)
  return { services, ...pageEnvelope(services, total, page) }
}

export async function createService(deps: Deps, principal: Principal, input: Static<typeof CreateServiceInput>) {
  const cents = parseDollars(input.price, 'price')
  const now = deps.clock.now()
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    const [created] = await tx<ServiceRow[]>`
      insert into services (company_id, name, description, category, unit, unit_price_cents, active, created_at, updated_at)
      values (${principal.companyId}, ${input.name.trim()}, ${input.description ?? null}, ${input.category ?? null},
              ${input.unit ?? 'each'}, ${cents}, ${input.active ?? true}, ${now}, ${now})
      returning ${columns(tx)}`
    return created!
  })
  return { service: presentService(row) }
}

export async function updateService(deps: Deps, principal: Principal, input: Static<typeof UpdateServiceInput>) {
  const changes: Record<string, unknown> = {}
  if (input.price !== undefined) changes.unit_price_cents = parseDollars(input.price, 'price')
  if (input.description !== undefined) changes.description = input.description
  if (input.active !== undefined) changes.active = input.active
  if (input.name !== undefined) changes.name = input.name.trim()
  if (input.unit !== undefined) changes.unit = input.unit
  if (input.category !== undefined) changes.category = input.category
  if (!Object.keys(changes).length) throw validationError(['body: give at least one field to change besides service_id'])
  const row = await withTenant(deps.db, principal.companyId, async (tx) => {
    const [updated] = await tx<ServiceRow[]>`
      update services set ${tx(changes, ...Object.keys(changes))}, updated_at = ${deps.clock.now()}
      where id = ${input.service_id} returning ${columns(tx)}`
    return updated
  })
  if (!row) throw notFound('Service')
  return { service: presentService(row) }
}
