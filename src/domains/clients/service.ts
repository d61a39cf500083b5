// Clients are leads with jobs. The spec describes two views: the MCP tool lists leads with at
// least one job; the REST endpoint lists leads with a completed job. Both come from here.
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { centsToDollars } from '../../core/money.js'
import { containsPattern, keysetAfter, limitOffset, pageEnvelope, pageFrom } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import type { ListClientsInput } from './schema.js'

interface ClientRow {
  id: string
  name: string
  email: string | null
  phone: string | null
  address: string | null
  suburb: string | null
  created_at: Date
  job_count: number
  completed_job_count: number
  quote_count: number
  revenue_cents: string
}

export async function listClients(deps: Deps, principal: Principal, input: Static<typeof ListClientsInput>, require: 'any_job' | 'completed_job') {
  const page = pageFrom(input)
  const search = containsPattern(input.search)
  const { rows, total } = await withTenant(deps.db, principal.companyId, async (tx) => {
    const where = tx`
      where exists (select 1 from jobs j where j.lead_id = l.id ${require === 'completed_job' ? tx`and j.status = 'Completed'` : tx``})
        and (${search}::text is null or l.name ilike ${search} or l.email ilike ${search} or l.phone ilike ${search}
             or l.address ilike ${search} or l.suburb ilike ${search})`
    const [rows, [count]] = await Promise.all([
      tx<ClientRow[]>`
        select l.id, l.name, l.email, l.phone, l.address, l.suburb, l.created_at,
          (select count(*)::int from jobs j where j.lead_id = l.id) as job_count,
          (select count(*)::int from jobs j where j.lead_id = l.id and j.status = 'Completed') as completed_job_count,
          (select count(*)::int from quotes q where q.lead_id = l.id) as quote_count,
          (select coalesce(sum(j.amount_cents), 0) from jobs j where j.lead_id = l.id and j.status = 'Completed') as revenue_cents
        from leads l ${where} ${keysetAfter(tx, page, 'l.created_at')}
        order by l.created_at desc, l.id desc ${limitOffset(tx, page)}`,
      tx<{ total: number }[]>`select count(*)::int as total from leads l ${where}`,
    ])
    return { rows, total: count!.total }
  })
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
