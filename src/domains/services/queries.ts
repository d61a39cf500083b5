// Service catalogue SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import { listPage, type Page } from '../../core/paging.js'

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

export async function findServices(tx: postgres.TransactionSql, ids: string[]): Promise<Map<string, ServiceRow>> {
  if (!ids.length) return new Map()
  const rows = await tx<ServiceRow[]>`select ${columns(tx)} from services where id = any(${ids}::uuid[])`
  return new Map(rows.map((r) => [r.id, r]))
}

export interface ServiceFilter {
  active?: boolean
  category?: string
  /** An ILIKE pattern (containsPattern) for the name or description. */
  search: string | null
}

/** A page, newest first, and the matching services counted up to COUNT_CAP + 1 (see cappedCount). */
export async function listServiceRows(tx: postgres.TransactionSql, filter: ServiceFilter, page: Page): Promise<{ rows: ServiceRow[]; total: number }> {
  const search = filter.search
  // Only the filters given reach the WHERE clause, each served by its index (migration 009).
  const matching = [
    // Written out, not a parameter: a plan for 'active = $1' made once and reused (a generic plan)
    // cannot tell the rare inactive services from the many active ones; two texts, two plans.
    filter.active !== undefined && (filter.active ? tx`active` : tx`not active`),
    filter.category !== undefined && tx`category = ${filter.category}`,
    search && tx`(name ilike ${search} or description ilike ${search})`,
  ]
  return listPage<ServiceRow>(tx, page, { select: tx`select ${columns(tx)} from services`, from: tx`from services`, matching })
}

export interface NewService {
  name: string
  description: string | null
  category: string | null
  unit: ServiceRow['unit']
  unit_price_cents: number
  active: boolean
}

export async function insertService(tx: postgres.TransactionSql, companyId: string, service: NewService, now: Date): Promise<ServiceRow> {
  const [created] = await tx<ServiceRow[]>`
      insert into services (company_id, name, description, category, unit, unit_price_cents, active, created_at, updated_at)
      values (${companyId}, ${service.name}, ${service.description}, ${service.category},
              ${service.unit}, ${service.unit_price_cents}, ${service.active}, ${now}, ${now})
      returning ${columns(tx)}`
  return created!
}

/** The updated service, or undefined when no service has that id. */
export async function updateServiceRow(tx: postgres.TransactionSql, id: string, changes: Record<string, unknown>, now: Date): Promise<ServiceRow | undefined> {
  const [updated] = await tx<ServiceRow[]>`
      update services set ${tx(changes, ...Object.keys(changes))}, updated_at = ${now}
      where id = ${id} returning ${columns(tx)}`
  return updated
}
