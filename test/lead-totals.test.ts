// The lead list's kept total (migration 048): the unfiltered list reads the company's lead_totals
// row instead of counting. The oracle is a count(*) of the leads table per company, taken on the
// owner connection, after writes of every kind that can change it: the API, bulk and multi-company
// inserts, deletes, a truncate, and concurrent creates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  a = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(() => app?.stop())

const listTotal = async (key: string, query = '') => {
  const res = await app.call('GET', `/api/v1/leads?limit=1${query}`, { key })
  expect(res.status).toBe(200)
  return res.body.total as number
}
const counted = async (companyId: string) =>
  Number((await app.owner<{ n: string }[]>`select count(*) as n from leads where company_id = ${companyId}`)[0]!.n)
const kept = async () =>
  new Map((await app.owner<{ company_id: string; n: string }[]>`select company_id, n from lead_totals`).map((r) => [r.company_id, Number(r.n)]))
/** Every company's kept total equals its count of leads, and no company has a total without leads. */
async function expectTotalsMatchCounts() {
  const counts = await app.owner<{ company_id: string; n: string }[]>`select company_id, count(*) as n from leads group by company_id`
  const totals = await kept()
  for (const { company_id, n } of counts) expect(totals.get(company_id) ?? 0, company_id).toBe(Number(n))
  for (const [companyId, n] of totals) if (!counts.some((c) => c.company_id === companyId)) expect(n, companyId).toBe(0)
}

describe('the lead list total kept by lead_totals', () => {
  it('follows creates through REST and MCP, per company, and the filtered lists still count', async () => {
    expect(await listTotal(a.api_key)).toBe(0)
    for (let i = 0; i < 3; i++) await app.call('POST', '/api/v1/leads', { key: a.api_key, body: { name: `A ${i}`, priority: i ? 'Normal' : 'Urgent' } })
    await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.create', arguments: { name: 'A by MCP' } } }, { key: a.api_key })
    await app.call('POST', '/api/v1/leads', { key: b.api_key, body: { name: 'B 0' } })
    expect(await listTotal(a.api_key)).toBe(await counted(a.company_id))
    expect(await counted(a.company_id)).toBe(4)
    expect(await listTotal(b.api_key)).toBe(1)
    expect(await listTotal(a.api_key, '&priority=Urgent')).toBe(1)
    expect(await listTotal(a.api_key, '&status=New')).toBe(4)
    await expectTotalsMatchCounts()
  })

  it('follows bulk and multi-company inserts and deletes made outside the API', async () => {
    await app.owner`
      insert into leads (company_id, name, created_at, updated_at)
      select c, 'Bulk ' || i, now(), now() from unnest(${[a.company_id, b.company_id]}::uuid[]) c, generate_series(1, 25) i`
    expect(await listTotal(a.api_key)).toBe(await counted(a.company_id))
    expect(await listTotal(b.api_key)).toBe(26)
    await app.owner`delete from leads where name like 'Bulk %' and (company_id = ${b.company_id} or name in ('Bulk 1', 'Bulk 2'))`
    expect(await listTotal(a.api_key)).toBe(4 + 23)
    expect(await listTotal(b.api_key)).toBe(1)
    await expectTotalsMatchCounts()
  })

  it('agrees with the count after concurrent creates for one company', async () => {
    const before = await counted(a.company_id)
    await Promise.all(Array.from({ length: 20 }, (_, i) =>
      app.call('POST', '/api/v1/leads', { key: a.api_key, body: { name: `Concurrent ${i}` } })))
    expect(await counted(a.company_id)).toBe(before + 20)
    expect(await listTotal(a.api_key)).toBe(before + 20)
    await expectTotalsMatchCounts()
  })

  it('a page past the end has no leads and still the total; pages in order cover every lead once', async () => {
    const total = await counted(a.company_id)
    const past = await app.call('GET', `/api/v1/leads?offset=${total}`, { key: a.api_key })
    expect(past.body).toMatchObject({ leads: [], total, offset: total, nextCursor: null })
    const seen: string[] = []
    for (let offset = 0; offset < total + 7; offset += 7) {
      const res = await app.call('GET', `/api/v1/leads?limit=7&offset=${offset}`, { key: a.api_key })
      expect(res.body.total).toBe(total)
      seen.push(...res.body.leads.map((l: { id: string }) => l.id))
    }
    const expected = await app.owner<{ id: string }[]>`select id from leads where company_id = ${a.company_id} order by created_at desc, id desc`
    expect(seen).toEqual(expected.map((r) => r.id))
  })

  it('a rolled-back insert changes no total', async () => {
    const before = await listTotal(a.api_key)
    await app.owner.begin(async (tx) => {
      await tx`insert into leads (company_id, name, created_at, updated_at) values (${a.company_id}, 'Undone', now(), now())`
      await tx`select 1/0`
    }).catch(() => {})
    expect(await listTotal(a.api_key)).toBe(before)
  })

  it('refuses to move a lead to another company (both totals would be wrong)', async () => {
    const [lead] = await app.owner<{ id: string }[]>`select id from leads where company_id = ${a.company_id} limit 1`
    await expect(app.owner`update leads set company_id = ${b.company_id} where id = ${lead!.id}`).rejects.toThrow(/cannot move to another company/)
    await expectTotalsMatchCounts()
  })

  it('the app role reads its own company total only and cannot write totals', async () => {
    const { db } = app.runtime.deps
    const [own] = await db.app.begin(async (tx) => {
      await tx`select set_config('app.company_id', ${b.company_id}, true)`
      return tx<{ company_id: string }[]>`select company_id from lead_totals`
    })
    expect(own).toEqual({ company_id: b.company_id })
    await expect(db.app.begin(async (tx) => {
      await tx`select set_config('app.company_id', ${b.company_id}, true)`
      await tx`update lead_totals set n = 0`
    })).rejects.toThrow(/permission denied/)
  })

  it('a truncate empties the totals', async () => {
    await app.owner.unsafe('truncate leads cascade')
    expect(await listTotal(a.api_key)).toBe(0)
    expect(await listTotal(b.api_key)).toBe(0)
    expect((await kept()).size).toBe(0)
  })
})
