// Keyset cursors and stored time precision (migration 050). A cursor carries its boundary row's time
// as a JS Date has it, to the millisecond; rows stored with microseconds that shared the boundary's
// millisecond were skipped by the next page. The oracle for a walk is the set of rows the owner
// inserted; for the schema, the catalogue itself: every timestamptz an index orders just before id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
})
afterAll(() => app?.stop())

/** Every id a cursor walk of `path` reads, page by page, with the given page size. */
async function walkRest(path: string, key: string, field: string, limit: number): Promise<string[]> {
  const seen: string[] = []
  let cursor = ''
  for (let pages = 0; pages < 100; pages++) {
    const res = await app.call('GET', `${path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { key })
    expect(res.status).toBe(200)
    seen.push(...res.body[field].map((row: { id: string }) => row.id))
    if (!res.body.nextCursor) return seen
    cursor = res.body.nextCursor
  }
  throw new Error('the walk did not end in 100 pages')
}

describe('keyset times are stored to the millisecond a cursor carries', () => {
  it('every timestamptz an index orders just before id has millisecond precision', async () => {
    const columns = await app.owner<{ relation: string; column: string; type: string }[]>`
      select distinct t.relname as relation, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[x.indnkeyatts - 2]
      join pg_attribute last on last.attrelid = t.oid and last.attnum = x.indkey[x.indnkeyatts - 1]
      where t.relnamespace = 'public'::regnamespace and x.indnkeyatts >= 2 and last.attname = 'id'
        and a.atttypid = 'timestamptz'::regtype`
    // The lists' keyset indexes, at least these (an empty result would pass the check below vacuously).
    expect(columns.map((c) => `${c.relation}.${c.column}`)).toEqual(expect.arrayContaining(['leads.created_at', 'jobs.created_at', 'quotes.created_at', 'reminders.due_at']))
    for (const c of columns) expect(`${c.relation}.${c.column} ${c.type}`).toBe(`${c.relation}.${c.column} timestamp(3) with time zone`)
  })

  it('a cursor walk reads rows written with the database clock, many to one microsecond, each once', async () => {
    // One statement: every row gets the same now(), with microseconds; ties are broken by id.
    const bulk = await app.owner<{ id: string }[]>`
      insert into leads (company_id, name) select ${company.company_id}, 'Bulk ' || i from generate_series(1, 25) i returning id`
    const spread = await app.owner<{ id: string }[]>`
      insert into leads (company_id, name, created_at, updated_at)
      select ${company.company_id}, 'Spread ' || i, now() - i * interval '1.2345 ms', now() from generate_series(1, 22) i returning id`
    const jobs = await app.owner<{ id: string }[]>`
      insert into jobs (company_id, lead_id, title, status) select company_id, id, 'Job for ' || name, 'Scheduled' from leads where company_id = ${company.company_id} returning id`
    const leads = [...bulk, ...spread].map((r) => r.id).sort()
    for (const limit of [1, 7, 10]) {
      const walked = await walkRest('/api/v1/leads', company.api_key, 'leads', limit)
      expect(walked.length, `leads, pages of ${limit}`).toBe(leads.length)
      expect([...walked].sort()).toEqual(leads)
      const walkedJobs = await walkRest('/api/v1/jobs', company.api_key, 'jobs', limit)
      expect([...walkedJobs].sort(), `jobs, pages of ${limit}`).toEqual(jobs.map((r) => r.id).sort())
    }
    // The same walk over MCP, through the filtered (counted) path of the lead list.
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: { status: 'New', limit: 9, ...(cursor ? { cursor } : {}) } } }, { key: company.api_key })
      const page = res.body.result.structuredContent
      seen.push(...page.leads.map((l: { id: string }) => l.id))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen.sort()).toEqual(leads)
  })
})
