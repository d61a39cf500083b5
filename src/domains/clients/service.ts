// Clients are leads with jobs. The spec describes two views: the MCP tool lists leads with at
// least one job; the REST endpoint lists leads with a completed job. Both come from here.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { centsToDollars } from '../../core/money.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import type { ListClientsInput } from './schema.js'
import { listClientRows, type ClientFilter } from './queries.js'

export async function listClients(deps: Deps, principal: Principal, input: Static<typeof ListClientsInput>, require: ClientFilter['require']) {
  const page = pageFrom(input)
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => listClientRows(tx, { require, search: input.search }, page))
  const clients = rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    address: [r.address, r.suburb].filter(Boolean).join(', ') || null,
    createdAt: r.created_at.toISOString(),
    jobCount: r.job_count,
    completedJobCount: r.completed_job_count,
    quoteCount: r.quote_count,
    totalRevenue: centsToDollars(Number(r.revenue_cents)),
  }))
  return { clients, ...pageEnvelope(clients, total, page) }
}
