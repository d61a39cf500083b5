// The service catalogue: priced items a quote's line items can reference.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { notFound, validationError } from '../../core/errors.js'
import { centsToDollars, parseDollars } from '../../core/money.js'
import { containsPattern, pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import type { CreateServiceInput, ListServicesInput, UpdateServiceInput } from './schema.js'
import { insertService, listServiceRows, updateServiceRow, type ServiceRow } from './queries.js'

// quotes/service.ts reads the catalogue through this module.
export { findServices } from './queries.js'

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

export async function listServices(deps: Deps, principal: Principal, input: Static<typeof ListServicesInput>) {
  const page = pageFrom(input)
  const search = containsPattern(input.search)
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) =>
    listServiceRows(tx, { active: input.active, category: input.category, search }, page))
  const services = rows.map(presentService)
  return { services, ...pageEnvelope(services, total, page) }
}

export async function createService(deps: Deps, principal: Principal, input: Static<typeof CreateServiceInput>) {
  const cents = parseDollars(input.price, 'price')
  const now = deps.clock.now()
  const row = await withTenant(deps.db, principal.companyId, (tx) => insertService(tx, principal.companyId, {
    name: input.name.trim(), description: input.description ?? null, category: input.category ?? null,
    unit: input.unit ?? 'each', unit_price_cents: cents, active: input.active ?? true,
  }, now))
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
  const row = await withTenant(deps.db, principal.companyId, (tx) => updateServiceRow(tx, input.service_id, changes, deps.clock.now()))
  if (!row) throw notFound('Service')
  return { service: presentService(row) }
}
