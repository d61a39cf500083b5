// The unfiltered lead list as one statement, lead_list_page (migration 049): the function sets the
// tenant itself, so what it may see rests on row level security and on the setting ending with the
// statement. The oracle for its rows is an owner-role query with the company in the WHERE clause
// (no RLS, no function), in the list's order; for its total, a count(*) on the owner connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { capturePlans } from './helpers/query-plans.js'
import { connect, withTenant } from '../src/db/sql.js'
import { appDatabaseUrl } from '../src/config.js'
import { listLeads } from '../src/domains/leads/service.js'
import type { Principal } from '../src/core/access.js'

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
const A_LEADS = 23
const B_LEADS = 5
// Distinct second timestamps, and pairs sharing one, so the keyset's id tie-break is exercised.
const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, Math.floor(i / 2)))

beforeAll(async () => {
  app = await startTestApp()
  a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  for (const [company, n] of [[a.company_id, A_LEADS], [b.company_id, B_LEADS]] as const) {
    const rows = Array.from({ length: n }, (_, i) => ({ company_id: company, name: `${company.slice(0, 4)} ${i}`, suburb: 'Penrith', created_at: at(i), updated_at: at(i) }))
    await app.owner`insert into leads ${app.owner(rows)}`
  }
})
afterAll(() => app?.stop())

const principal = (companyId: string) => ({ companyId }) as Principal
/** The company's leads in list order, read by the owner without RLS: the oracle. */
const expectedIds = async (companyId: string) =>
  (await app.owner<{ id: string }[]>`select id from leads where company_id = ${companyId} order by created_at desc, id desc`).map((r) => r.id)

describe('lead_list_page: the unfiltered lead list in one statement', () => {
  it('reads the pages a tenant transaction would, by offset and by cursor, with the counted total', async () => {
    for (const company of [a.company_id, b.company_id]) {
      const ids = await expectedIds(company)
      const total = ids.length
      for (const limit of [1, 4, 50]) {
        // By offset, past the end included.
        for (let offset = 0; offset <= total; offset += limit) {
          const page = await listLeads(app.runtime.deps, principal(company), { limit, offset })
          expect(page.leads.map((l) => l.id)).toEqual(ids.slice(offset, offset + limit))
          expect(page.total).toBe(total)
        }
        // By cursor, to the end.
        const seen: string[] = []
        let cursor: string | undefined
        do {
          const page = await listLeads(app.runtime.deps, principal(company), { limit, cursor })
          expect(page.total).toBe(total)
          seen.push(...page.leads.map((l) => l.id))
          cursor = page.nextCursor ?? undefined
        } while (cursor)
        expect(seen).toEqual(ids)
      }
    }
  })

  it('returns every column a lead has, as the owner reads them', async () => {
    const [first] = (await listLeads(app.runtime.deps, principal(a.company_id), { limit: 1 })).leads
    const [row] = await app.owner`select * from leads where id = ${first!.id}`
    expect(first).toMatchObject({ id: row!.id, name: row!.name, suburb: row!.suburb, status: row!.status, priority: row!.priority, createdAt: row!.created_at.toISOString() })
  })

  it('never sees another company, and its company ends with the statement', async () => {
    // One app-role connection, so the statement after the call runs where the call ran.
    const sql = connect(appDatabaseUrl(app.config), { max: 1 })
    try {
      const page = await sql<{ id: string }[]>`select * from lead_list_page(${b.company_id}, 100, 0, null, null)`
      expect(page.map((r) => r.id)).toEqual(await expectedIds(b.company_id))
      const [after] = await sql<{ setting: string | null; visible: number }[]>`
        select current_setting('app.company_id', true) as setting, (select count(*)::int from leads) as visible`
      expect(after!.setting ?? '').toBe('')
      expect(after!.visible).toBe(0)
    } finally {
      await sql.end()
    }
    // Its queries name the company too: the owner, whom row level security does not bind, reads one company.
    const asOwner = await app.owner<{ id: string; list_total: number }[]>`select * from lead_list_page(${b.company_id}, 100, 0, null, null)`
    expect(asOwner.map((r) => r.id)).toEqual(await expectedIds(b.company_id))
    expect(asOwner[0]!.list_total).toBe(B_LEADS)
  })

  it('refuses inside a transaction that has another company set, and bad arguments', async () => {
    await expect(withTenant(app.runtime.deps.db, a.company_id, (tx) => tx`select * from lead_list_page(${b.company_id}, 10, 0, null, null)`))
      .rejects.toMatchObject({ code: '42501' })
    // Its own company in its own transaction is allowed (nothing changes).
    const own = await withTenant(app.runtime.deps.db, a.company_id, (tx) => tx`select * from lead_list_page(${a.company_id}, 10, 0, null, null)`)
    expect(own).toHaveLength(10)
    const sql = app.runtime.deps.db.app
    for (const [limit, offset, createdAt, id] of [[0, 0, null, null], [101, 0, null, null], [10, -1, null, null], [10, 0, new Date(), null]] as const) {
      await expect(sql`select * from lead_list_page(${a.company_id}, ${limit}, ${offset}, ${createdAt}, ${id})`).rejects.toMatchObject({ code: '22023' })
    }
  })

  it('reads the page through the company index in list order, no sort, with a generic plan', async () => {
    const firstPage = await capturePlans(app, (deps) => listLeads(deps, principal(a.company_id), { limit: 50 }))
    const [page] = firstPage.filter((p) => p.nodes.some((n) => n['Relation Name'] === 'leads'))
    expect(page!.nodes.map((n) => n['Node Type'])).not.toContain('Sort')
    expect(page!.nodes.find((n) => n['Relation Name'] === 'leads')).toMatchObject({ 'Node Type': 'Index Scan', 'Index Name': 'leads_company_created' })
    // A keyset page: a generic plan keeps the function's parameters in the index condition (a custom
    // plan would show the cursor's time as a constant), on the first call and every one after.
    const cursor = (await listLeads(app.runtime.deps, principal(a.company_id), { limit: 5 })).nextCursor!
    const keysetPages = await capturePlans(app, async (deps) => {
      for (let i = 0; i < 7; i++) await listLeads(deps, principal(a.company_id), { limit: 5, cursor })
    })
    const conditions = keysetPages.flatMap((p) => p.nodes.filter((n) => n['Relation Name'] === 'leads').map((n) => n['Index Cond'] ?? ''))
    expect(conditions).toHaveLength(7)
    for (const condition of conditions) expect(condition).toMatch(/ROW\(created_at, id\) < ROW\(\$\d+, \$\d+\)/)
  })
})
