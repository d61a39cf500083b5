// The plain baseline for GET /api/v1/leads?limit=50: Koa + postgres.js doing the least the same
// answer needs, one key lookup by hash, then the leads list query and its count for the key's
// company, as a plain multi-tenant handler writes them (company_id in the WHERE clause, where the
// service has row level security), through the service's own listPage and columns so it follows
// changes to them. Used by the ratio benchmark and the profiler. With count: false it is the handler
// the README-start benchmark compares with (bench/readme-start-vs-plain.ts): key lookup and the list
// query only, as a plain handler without a total would be written. With `tenantUrl` (the app role's
// URL) it reads the way the service does instead (readLeadPage as the app role: the page and its
// kept total under row level security), which splits the service's cost into its read's part and
// the rest (bench/readme-start-vs-plain.ts, BENCH_PLAIN=tenant).
import Koa from 'koa'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import type postgres from 'postgres'
import { connect, createDb } from '../src/db/sql.js'
import { bearerToken } from '../src/core/auth.js'
import { hashApiKey } from '../src/core/credentials.js'
import { listPage, pageEnvelope, pageFrom } from '../src/core/paging.js'
import { leadColumns, presentLead, readLeadPage, type LeadRow } from '../src/domains/leads/queries.js'

export interface PlainLeads {
  url: string
  stop(): Promise<void>
}

/**
 * Connects as the database owner, so it pays for no RLS, no transaction and no quota; it scopes to
 * the key's company itself. Same pool size as the service.
 */
export async function startPlainLeads(databaseUrl: string, poolMax: number, options: { count?: boolean; tenantUrl?: string } = {}): Promise<PlainLeads> {
  const count = options.count ?? true
  const sql = connect(databaseUrl, { max: poolMax })
  const tenantDb = options.tenantUrl ? createDb(options.tenantUrl, { max: poolMax }) : null
  const plain = new Koa()
  plain.use(async (ctx) => {
    const token = bearerToken(ctx.get('authorization') || undefined)
    const [key] = token
      ? await sql<{ company_id: string }[]>`select company_id from api_keys where key_hash = ${hashApiKey(token)} and revoked_at is null`
      : []
    if (!key) {
      ctx.status = 401
      ctx.body = { error: 'unauthorized', message: 'Invalid API key.' }
      return
    }
    const page = pageFrom({ limit: Number(ctx.query.limit ?? 50) })
    if (tenantDb) {
      const { rows, total } = await readLeadPage(tenantDb, key.company_id, {}, page)
      const leads = rows.map(presentLead)
      ctx.body = { leads, ...pageEnvelope(leads, total, page) }
      return
    }
    const tx = sql as unknown as postgres.TransactionSql
    if (!count) {
      const rows = await tx<LeadRow[]>`
        select ${leadColumns(tx)} from leads where company_id = ${key.company_id}
        order by created_at desc, id desc limit ${page.limit} offset ${page.offset}`
      ctx.body = { leads: rows.map(presentLead), limit: page.limit, offset: page.offset }
      return
    }
    const { rows, total } = await listPage<LeadRow>(tx, page, {
      select: tx`select ${leadColumns(tx)} from leads`,
      from: tx`from leads`,
      matching: [tx`company_id = ${key.company_id}`],
    })
    const leads = rows.map(presentLead)
    ctx.body = { leads, ...pageEnvelope(leads, total, page) }
  })
  const server: Server = await new Promise((resolve) => {
    const s = plain.listen(0, '127.0.0.1', () => resolve(s))
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/leads?limit=50`,
    async stop() {
      server.close()
      await sql.end()
      await tenantDb?.close()
    },
  }
}

/**
 * Other companies' leads in the same table, as in production: `companies` companies with `leadsEach`
 * leads each, one a minute apart (the service's RLS and the plain handler's WHERE both skip them).
 */
export async function seedOtherCompanies(owner: postgres.Sql, companies: number, leadsEach: number): Promise<void> {
  await owner`
    with others as (
      insert into companies (id, business_name, contact_email)
      select gen_random_uuid(), 'Other ' || c, 'other' || c || '@example.com.au' from generate_series(1, ${companies}) c
      returning id)
    insert into leads (company_id, name, suburb, created_at, updated_at)
    select id, 'Other lead ' || i, 'Parramatta', now() - i * interval '1 minute', now() - i * interval '1 minute'
    from others, generate_series(1, ${leadsEach}) i`
}
