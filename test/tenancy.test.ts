import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connect, readWithTenant, withTenant } from '../src/db/sql.js'

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  a = await onboard(app, { business_name: 'Company A' })
  b = await onboard(app, { business_name: 'Company B' })
})
afterAll(() => app?.stop())

describe('row level security', () => {
  it('a query that forgets the company filter still sees only the current tenant', async () => {
    const db = app.runtime.deps.db
    const seen = await withTenant(db, a.company_id, async (tx) => ({
      companies: await tx`select id, business_name from companies`,
      users: await tx`select company_id from users`,
      keys: await tx`select company_id from api_keys`,
      subs: await tx`select company_id from subscriptions`,
      byId: await tx`select id from companies where id = ${b.company_id}`,
    }))
    expect(seen.companies.map((r) => r.business_name)).toEqual(['Company A'])
    expect(new Set(seen.users.map((r) => r.company_id))).toEqual(new Set([a.company_id]))
    expect(new Set(seen.keys.map((r) => r.company_id))).toEqual(new Set([a.company_id]))
    expect(seen.subs).toHaveLength(1)
    expect(seen.byId).toHaveLength(0)
    // The owner connection (no RLS) shows the rows really exist.
    expect((await app.owner`select id from companies where id = ${b.company_id}`)).toHaveLength(1)
  })

  it('with no tenant set, the app role sees nothing at all', async () => {
    const db = app.runtime.deps.db
    expect(await db.app`select * from companies`).toHaveLength(0)
    expect(await db.app`select * from api_keys`).toHaveLength(0)
    expect(await db.app`select * from users`).toHaveLength(0)
  })

  it('unfiltered writes touch only the current tenant, and writing another tenant\'s id is refused', async () => {
    const db = app.runtime.deps.db
    const updated = await withTenant(db, a.company_id, (tx) => tx`update users set name = 'changed by A'`)
    expect(updated.count).toBe(1)
    const [bUser] = await app.owner`select name from users where company_id = ${b.company_id}`
    expect(bUser!.name).not.toBe('changed by A')
    await expect(
      withTenant(db, a.company_id, (tx) => tx`insert into usage_counters (company_id, period, metric, count) values (${b.company_id}, '2026-11', 'sms', 1)`),
    ).rejects.toThrow(/row-level security/)
  })

  it('every table with company_id has RLS enabled and forced, and the app role cannot bypass it', async () => {
    const tables = await app.owner<{ relname: string; relrowsecurity: boolean; relforcerowsecurity: boolean; owner: string }[]>`
      select c.relname, c.relrowsecurity, c.relforcerowsecurity, pg_get_userbyid(c.relowner) as owner
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and (exists (select 1 from information_schema.columns col where col.table_name = c.relname and col.column_name = 'company_id') or c.relname = 'companies')`
    expect(tables.length).toBeGreaterThanOrEqual(7)
    for (const t of tables) {
      expect(t, t.relname).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true })
      expect(t.owner).not.toBe('tradie_app')
    }
    const [role] = await app.owner`select rolsuper, rolbypassrls from pg_roles where rolname = 'tradie_app'`
    expect(role).toMatchObject({ rolsuper: false, rolbypassrls: false })
    const [me] = await app.runtime.deps.db.app`select current_user`
    expect(me!.current_user).toBe('tradie_app')
  })

  it('over HTTP, a key of company B cannot touch an id of company A', async () => {
    const keys = await app.call('GET', '/api/v1/keys', { key: a.api_key })
    const aKeyId = keys.body.keys[0].id
    const res = await app.call('DELETE', `/api/v1/keys/${aKeyId}`, { key: b.api_key })
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
    const bKeys = await app.call('GET', '/api/v1/keys', { key: b.api_key })
    expect(bKeys.body.keys.map((k: any) => k.id)).not.toContain(aKeyId)
    expect((await app.call('GET', '/api/v1/usage', { key: a.api_key })).status).toBe(200)
  })

  // readWithTenant (db/sql.ts): a list page and its count sent with BEGIN and COMMIT in one write.
  it('readWithTenant: its statements run inside the tenant transaction; the connection comes back out of it', async () => {
    const single = { app: connect(app.config.DATABASE_URL, { max: 1 }), listener: null as never, close: async () => {} }
    try {
      await single.app`set role tradie_app`
      const [companies, setting] = await readWithTenant(single, a.company_id, (tx) => [
        tx<{ business_name: string }[]>`select business_name from companies`,
        tx<{ company: string }[]>`select current_setting('app.company_id') as company`,
      ])
      expect(companies.map((r) => r.business_name)).toEqual(['Company A'])
      expect(setting[0]!.company).toBe(a.company_id)
      // The same (only) connection afterwards: the transaction-local setting is gone with COMMIT.
      const [after] = await single.app`select current_setting('app.company_id', true) as company`
      expect(after!.company).toBe('')
      // A failing statement fails the call, and the connection is usable (and tenant-free) after it.
      await expect(readWithTenant(single, a.company_id, (tx) => [tx`select 1/0`, tx`select 1`])).rejects.toMatchObject({ code: '22012' })
      expect(await single.app`select * from companies`).toHaveLength(0)
    } finally {
      await single.app.end()
    }
  })
})
