// The plain baseline for GET /api/v1/leads?limit=50: Koa + postgres.js doing the least the same
// answer needs, one key lookup by hash, then the real leads list query and its count (listLeadRows,
// so it follows changes to that query). Used by the ratio benchmark and the profiler.
import Koa from 'koa'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import type postgres from 'postgres'
import { connect } from '../src/db/sql.js'
import { bearerToken } from '../src/core/auth.js'
import { hashApiKey } from '../src/core/credentials.js'
import { pageEnvelope, pageFrom } from '../src/core/paging.js'
import { listLeadRows, presentLead } from '../src/domains/leads/queries.js'

export interface PlainLeads {
  url: string
  stop(): Promise<void>
}

/**
 * Connects as the database owner: it has no tenant to scope to (one company in this database), so
 * it pays for no RLS, no transaction and no quota. Same pool size as the service.
 */
export async function startPlainLeads(databaseUrl: string, poolMax: number): Promise<PlainLeads> {
  const sql = connect(databaseUrl, { max: poolMax })
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
    const { rows, total } = await listLeadRows(sql as unknown as postgres.TransactionSql, {}, page)
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
    },
  }
}
