// List paging at its edges: hostile offsets and cursors on REST and MCP, every filter's rows, cursor
// walks, `total` against rows counted here, the count cap, and each filter served by an index.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { capturePlans, type PlanNode } from './helpers/query-plans.js'
import { COUNT_CAP, MAX_OFFSET } from '../src/core/paging.js'
import { connect } from '../src/db/sql.js'
import type { Principal } from '../src/core/access.js'
import { LEAD_PRIORITIES, LEAD_STATUSES } from '../src/domains/leads/schema.js'
import { JOB_STATUSES } from '../src/domains/jobs/schema.js'
import { QUOTE_STATUSES } from '../src/domains/quotes/schema.js'
import { listLeads } from '../src/domains/leads/service.js'
import { listJobs } from '../src/domains/jobs/service.js'
import { listQuotes } from '../src/domains/quotes/service.js'
import { listClients } from '../src/domains/clients/service.js'
import { listServices } from '../src/domains/services/service.js'
import { listInvoices } from '../src/domains/invoicing/service.js'
import { listReminders } from '../src/domains/reminders/service.js'
import { listMessages } from '../src/domains/comms/service.js'
import { createRegistry } from '../src/domains/index.js'

type Company = Awaited<ReturnType<typeof onboard>>
interface Row { id: string; created_at: Date }

let app: TestApp
let small: Company
let big: Company
const seeded = { leads: [] as (Row & { name: string; status: string; priority: string })[], jobs: [] as (Row & { status: string; technician: string | null; scheduled_date: Date | null })[], quotes: [] as (Row & { status: string; effective: string })[] }

const minute = 60_000
const day = 24 * 60 * minute
const smallBase = Date.parse('2025-03-01T00:00:00.000Z')
const PAST = '2020-01-31'
const FUTURE = '2099-12-31'
const BIG_LEADS = COUNT_CAP + 50
const BIG_OTHERS = 3000
/** A message history outgrows every other table: each lead, quote, invoice and reminder sends some. */
const BIG_MESSAGES = 2 * COUNT_CAP

/** Newest first, the id breaking ties: the order every list promises. */
const newestFirst = <T extends Row>(rows: T[]) =>
  [...rows].sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
const ids = (rows: Row[]) => newestFirst(rows).map((r) => r.id)

async function seedSmall(companyId: string) {
  const leads = Array.from({ length: 40 }, (_, i) => {
    // Leads 10-14 share one created_at, so only the id orders them.
    const at = new Date(smallBase + (i >= 10 && i < 15 ? 10 : i) * minute)
    return { company_id: companyId, name: `Small ${i}`, status: LEAD_STATUSES[i % 6], priority: LEAD_PRIORITIES[Math.floor(i / 6) % 4], created_at: at, updated_at: at }
  })
  seeded.leads = await app.owner`insert into leads ${app.owner(leads)} returning id, name, status, priority, created_at`
  const byName = new Map(seeded.leads.map((l) => [l.name, l.id]))
  const jobs = Array.from({ length: 30 }, (_, i) => ({
    company_id: companyId, lead_id: byName.get(`Small ${i}`)!, title: `Job ${i}`, status: JOB_STATUSES[i % 5],
    technician: i % 4 === 3 ? null : ['Ana', 'Ben', 'Cy'][i % 3]!, scheduled_date: i % 5 === 0 ? null : new Date(Date.parse('2025-04-01T00:00:00Z') + i * day),
    created_at: new Date(smallBase + i * minute), updated_at: new Date(smallBase + i * minute),
  }))
  seeded.jobs = await app.owner`insert into jobs ${app.owner(jobs)} returning id, status, technician, scheduled_date, created_at`
  const stored = ['Draft', 'Sent', 'Viewed', 'Accepted', 'Declined', 'Expired']
  const quotes = Array.from({ length: 30 }, (_, i) => ({
    company_id: companyId, lead_id: byName.get(`Small ${i}`)!, quote_number: `Q-${String(i + 1).padStart(5, '0')}`, status: stored[i % 6]!,
    subtotal_cents: 1000, gst_cents: 100, total_cents: 1100, valid_until: i % 4 === 0 ? PAST : FUTURE,
    public_token: randomBytes(12).toString('hex'), created_at: new Date(smallBase + i * minute), updated_at: new Date(smallBase + i * minute),
  }))
  const inserted: (Row & { status: string; valid_until: string })[] = await app.owner`
    insert into quotes ${app.owner(quotes)} returning id, status, to_char(valid_until, 'YYYY-MM-DD') as valid_until, created_at`
  // The spec's rule, computed here on its own: a Sent or Viewed quote past its date reads Expired.
  seeded.quotes = inserted.map((q) => ({ ...q, effective: ['Sent', 'Viewed'].includes(q.status) && q.valid_until === PAST ? 'Expired' : q.status }))
}

/** Thousands of rows in one company, in bulk, then statistics, as a real company would have. */
async function seedBig(companyId: string) {
  await app.owner`
    insert into leads (company_id, name, email, suburb, status, priority, created_at, updated_at)
    select ${companyId}, 'Big ' || i, 'big' || i || '@example.com.au', (array['Penrith', 'Bondi'])[1 + i % 2],
      (${LEAD_STATUSES as unknown as string[]}::text[])[1 + i % 6], (${LEAD_PRIORITIES as unknown as string[]}::text[])[1 + i % 4],
      timestamptz '2024-01-01' + i * interval '1 second', timestamptz '2024-01-01' + i * interval '1 second'
    from generate_series(1, ${BIG_LEADS}) i`
  await app.owner`
    insert into jobs (company_id, lead_id, title, status, technician, scheduled_date, created_at, updated_at)
    select company_id, id, 'Job', (${JOB_STATUSES as unknown as string[]}::text[])[1 + n % 5], 'Tech ' || n % 10,
      timestamptz '2024-06-01' + n * interval '1 hour', created_at, created_at
    from (select *, row_number() over (order by created_at) n from leads where company_id = ${companyId}) l where n <= ${BIG_OTHERS}`
  await app.owner`
    insert into quotes (company_id, lead_id, quote_number, status, subtotal_cents, gst_cents, total_cents, valid_until, public_token, created_at, updated_at)
    select company_id, id, 'B-' || n, (array['Draft', 'Sent', 'Viewed', 'Accepted', 'Declined'])[1 + n % 5], 1000, 100, 1100,
      case when n % 2 = 0 then date '2020-01-01' else date '2099-01-01' end, md5(random()::text || n), created_at, created_at
    from (select *, row_number() over (order by created_at) n from leads where company_id = ${companyId}) l where n <= ${BIG_OTHERS}`
  await app.owner`
    insert into services (company_id, name, category, unit_price_cents, active, created_at, updated_at)
    select ${companyId}, 'Service ' || i, (array['Drainage', 'Hot water', 'Roofing'])[1 + i % 3], 1000, i % 10 <> 0,
      timestamptz '2024-01-01' + i * interval '1 second', timestamptz '2024-01-01' + i * interval '1 second'
    from generate_series(1, ${BIG_OTHERS}) i`
  // One invoice in ten is a progress claim: selective enough that the kind index is the plan to use.
  await app.owner`
    insert into invoices (company_id, lead_id, job_id, invoice_number, kind, status, subtotal_cents, gst_cents, total_cents, issue_date, due_date,
                          public_token, created_at, updated_at)
    select company_id, lead_id, id, 'INV-B' || n, case when n % 10 = 0 then 'progress' when n % 2 = 0 then 'deposit' else 'final' end,
      (array['Draft', 'Sent', 'Partially Paid', 'Paid', 'Void'])[1 + n % 5], 1000, 100, 1100, date '2024-06-01',
      case when n % 2 = 0 then date '2020-01-01' else date '2099-01-01' end, md5(random()::text || n), created_at, created_at
    from (select *, row_number() over (order by created_at) n from jobs where company_id = ${companyId}) j`
  // Reminders a year and a bit apart by 3 hours: the past nine tenths fired, and four in five of those
  // were ticked off; a third are about a lead, a third about a job.
  await app.owner`
    insert into reminders (company_id, title, due_at, lead_id, job_id, notify_channel, fired_at, done_at, created_at, updated_at)
    select ${companyId}, 'Reminder ' || n, due, l.id, j.id, (array['sms', 'email', 'both', null])[1 + n % 4],
      case when n <= ${BIG_OTHERS * 0.9} then due end, case when n <= ${BIG_OTHERS * 0.9} and n % 5 <> 0 then due + interval '1 hour' end,
      due - interval '2 days', due - interval '2 days'
    from (select n, timestamptz '2024-06-01' + n * interval '3 hours' due from generate_series(1, ${BIG_OTHERS}) n) r
    left join (select id, row_number() over (order by created_at) k from leads where company_id = ${companyId}) l on n % 3 = 0 and l.k = 1 + n % ${BIG_LEADS}
    left join (select id, row_number() over (order by created_at) k from jobs where company_id = ${companyId}) j on n % 3 = 1 and j.k = 1 + n % ${BIG_OTHERS}`
  // Messages ten minutes apart: two in three by SMS, a few types (review requests one in twenty), one
  // in 29 an inbound reply, about one in a hundred failed. Half are about a job (and its lead), most of
  // the rest about a lead.
  await app.owner`
    insert into communications (company_id, channel, direction, message_type, to_address, body, lead_id, job_id, provider, status,
                                idempotency_key, created_at, handed_to_provider_at, status_updated_at)
    select ${companyId}, channel, direction,
      case when direction = 'inbound' then 'reply' else (array['instant_response', 'instant_response', 'instant_response', 'instant_response',
        'instant_response', 'instant_response', 'quote', 'quote', 'quote', 'quote', 'invoice', 'invoice', 'invoice', 'eta', 'eta',
        'reminder', 'review_request', 'manual', 'manual', 'marketing'])[1 + n % 20] end,
      case when channel = 'sms' then '+614' || lpad((n % 100000000)::text, 8, '0') else 'client' || n || '@example.com.au' end,
      'Message ' || n, coalesce(j.lead_id, l.id), j.id, case when channel = 'sms' then 'twilio' else 'smtp' end,
      case when direction = 'inbound' then 'received' when n % 97 = 0 then 'failed' when n % 89 = 0 then 'undelivered'
        when n > ${BIG_MESSAGES - 20} then 'queued' when channel = 'email' then 'sent' else 'delivered' end,
      'seed:' || n, created, created, created
    from (select n, case when n % 3 = 0 then 'email' else 'sms' end channel,
            case when n % 29 = 0 and n % 3 <> 0 then 'inbound' else 'outbound' end direction,
            timestamptz '2024-01-01' + n * interval '10 minutes' created
          from generate_series(1, ${BIG_MESSAGES}) n) m
    left join (select id, lead_id, row_number() over (order by created_at) k from jobs where company_id = ${companyId}) j
      on n % 2 = 0 and j.k = 1 + (n / 2) % ${BIG_OTHERS}
    left join (select id, row_number() over (order by created_at) k from leads where company_id = ${companyId}) l
      on n % 2 = 1 and n % 25 <> 1 and l.k = 1 + n % ${BIG_LEADS}`
  for (const table of ['leads', 'jobs', 'quotes', 'services', 'invoices', 'reminders', 'communications']) await app.owner.unsafe(`vacuum analyze ${table}`)
}

beforeAll(async () => {
  app = await startTestApp()
  small = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  big = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  await seedSmall(small.company_id)
  await seedBig(big.company_id)
}, 120_000)
afterAll(() => app?.stop())

const get = (path: string, key = small.api_key) => app.call('GET', `/api/v1${path}`, { key })
const callTool = async (name: string, args: unknown, key = small.api_key) => {
  const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { key })
  return res.body.result as { isError?: boolean; structuredContent: any }
}
/** tools/call with the arguments written as raw JSON text, so numbers arrive exactly as written. */
const callToolRaw = async (name: string, rawArguments: string) => {
  const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${rawArguments}}}`
  return (await rpc(app, null, { key: small.api_key, raw })).body.result as { isError?: boolean; structuredContent: any }
}
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

function expectValidationError(body: any, field: string) {
  expect(body).toMatchObject({ error: 'validation_error', message: expect.any(String) })
  expect(body.messages.join('\n')).toMatch(new RegExp(`^${field}: `, 'm'))
}

describe('hostile offsets and cursors', () => {
  const hugeOffsets = ['1e308', '12345678901234567890', String(MAX_OFFSET + 1)]
  const uuid = randomUUID()
  const badCursors = {
    'a year past 9999 (the largest JS date)': cursorOf(['+275760-09-13T00:00:00Z', uuid]),
    'an expanded year in toISOString form': cursorOf(['+275760-09-13T00:00:00.000Z', uuid]),
    'year 0000, which Postgres refuses': cursorOf(['0000-01-01T00:00:00.000Z', uuid]),
    'a day that does not exist': cursorOf(['2025-02-30T00:00:00.000Z', uuid]),
    'an id that is not a uuid': cursorOf(['2025-01-01T00:00:00.000Z', "1' or '1'='1"]),
    'an extra element': cursorOf(['2025-01-01T00:00:00.000Z', uuid, 1]),
    'an object instead of a pair': cursorOf({ createdAt: '2025-01-01T00:00:00.000Z', id: uuid }),
    'numbers instead of strings': cursorOf([1735689600000, 1]),
    'characters outside base64url': '!!not-a-cursor!!',
    'base64 of something not JSON': Buffer.from('hello').toString('base64url'),
  }

  it.each(['/leads', '/quotes', '/jobs', '/clients'])('REST GET %s: a huge offset is a 400 naming offset; the documented maximum works', async (path) => {
    for (const offset of hugeOffsets) {
      const res = await get(`${path}?offset=${offset}`)
      expect(res.status, offset).toBe(400)
      expectValidationError(res.body, 'offset')
    }
    const deepest = await get(`${path}?offset=${MAX_OFFSET}`)
    expect(deepest.status).toBe(200)
    expect(deepest.body.offset).toBe(MAX_OFFSET)
  })

  it.each(['/leads', '/quotes', '/jobs', '/clients'])('REST GET %s: limit and offset that are not plain whole numbers are a 400 naming them, never read as another number', async (path) => {
    // Converted naively, "1.5" is 1, "0x10" is 16 and "1e1" is 10: the call would run with a number the caller never wrote.
    for (const [field, value] of [['limit', '1.5'], ['limit', '0x10'], ['limit', '1e1'], ['offset', '2.5'], ['offset', '0b11']]) {
      const res = await get(`${path}?${field}=${value}`)
      expect(res.status, `${field}=${value}`).toBe(400)
      expectValidationError(res.body, field!)
    }
    const plain = await get(`${path}?limit=%2007%20&offset=0`)
    expect(plain.status).toBe(200)
    expect(plain.body.limit).toBe(7)
  })

  it.each(['/leads', '/quotes', '/jobs', '/clients'])('REST GET %s: a forged cursor is a 400 naming cursor', async (path) => {
    for (const [what, cursor] of Object.entries(badCursors)) {
      const res = await get(`${path}?cursor=${encodeURIComponent(cursor)}`)
      expect(res.status, what).toBe(400)
      expectValidationError(res.body, 'cursor')
    }
  })

  it.each(['leads.list', 'quotes.list', 'jobs.list', 'clients.list', 'services.list'])('MCP %s: huge offsets and forged cursors are validation_error results', async (name) => {
    for (const offset of ['1e308', '12345678901234567890', String(MAX_OFFSET + 1)]) {
      const result = await callToolRaw(name, `{"offset":${offset}}`)
      expect(result.isError, offset).toBe(true)
      expectValidationError(result.structuredContent, 'offset')
    }
    for (const [what, cursor] of Object.entries(badCursors)) {
      const result = await callTool(name, { cursor })
      expect(result.isError, what).toBe(true)
      expectValidationError(result.structuredContent, 'cursor')
    }
  })

  it('a schedule bound in year 0000 (valid date-time format, refused by Postgres) is a 400 naming the field', async () => {
    for (const field of ['scheduled_from', 'scheduled_to']) {
      const res = await get(`/jobs?${field}=0000-01-01T00:00:00Z`)
      expect(res.status).toBe(400)
      expectValidationError(res.body, field)
    }
  })

  it('OpenAPI and the tool schemas publish the maximum offset and point past it to the cursor', async () => {
    const published = { maximum: MAX_OFFSET, description: expect.stringMatching(/cursor/) }
    const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/list' })
    const leadsList = res.body.result.tools.find((t: any) => t.name === 'leads.list')
    expect(leadsList.inputSchema.properties.offset).toMatchObject(published)
    const doc = (await app.call('GET', '/api/v1/openapi.json')).body
    for (const path of ['/leads', '/quotes', '/jobs', '/clients']) {
      const parameters = doc.paths[path].get.parameters
      expect(parameters.find((p: any) => p.name === 'offset').schema, path).toMatchObject(published)
      expect(parameters.map((p: any) => p.name), path).toContain('cursor')
    }
  })
})

describe('filters return exactly the matching rows', () => {
  it('leads by status and by priority (REST and MCP)', async () => {
    for (const status of LEAD_STATUSES) {
      const expected = seeded.leads.filter((l) => l.status === status)
      const res = await get(`/leads?status=${status}&limit=100`)
      expect(res.body.leads.map((l: any) => l.id), status).toEqual(ids(expected))
      expect(res.body).toMatchObject({ total: expected.length, totalCapped: false })
    }
    for (const priority of LEAD_PRIORITIES) {
      const expected = seeded.leads.filter((l) => l.priority === priority)
      const result = await callTool('leads.list', { priority, limit: 100 })
      expect(result.structuredContent.leads.map((l: any) => l.id), priority).toEqual(ids(expected))
      expect(result.structuredContent.total).toBe(expected.length)
    }
    const both = seeded.leads.filter((l) => l.status === 'New' && l.priority === 'High')
    expect(both.length).toBeGreaterThan(0)
    expect((await get('/leads?status=New&priority=High')).body.leads.map((l: any) => l.id)).toEqual(ids(both))
  })

  it('jobs by status, technician and scheduled range, alone and together', async () => {
    const from = new Date('2025-04-10T00:00:00Z')
    const to = new Date('2025-04-20T00:00:00Z')
    const cases: [string, (j: (typeof seeded.jobs)[number]) => boolean][] = [
      ...JOB_STATUSES.map((s) => [`status=${encodeURIComponent(s)}`, (j: any) => j.status === s] as [string, (j: any) => boolean]),
      ['technician=Ben', (j) => j.technician === 'Ben'],
      [`scheduled_from=${from.toISOString()}`, (j) => j.scheduled_date !== null && j.scheduled_date >= from],
      [`scheduled_to=${to.toISOString()}`, (j) => j.scheduled_date !== null && j.scheduled_date < to],
      [`scheduled_from=${from.toISOString()}&scheduled_to=${to.toISOString()}&technician=Ana`,
        (j) => j.scheduled_date !== null && j.scheduled_date >= from && j.scheduled_date < to && j.technician === 'Ana'],
    ]
    for (const [query, matches] of cases) {
      const expected = seeded.jobs.filter(matches)
      const res = await get(`/jobs?${query}&limit=100`)
      expect(res.body.jobs.map((j: any) => j.id), query).toEqual(ids(expected))
      expect(res.body.total, query).toBe(expected.length)
    }
  })

  it('quotes by effective status: a Sent or Viewed quote past its date is Expired, not Sent', async () => {
    for (const status of QUOTE_STATUSES) {
      const expected = seeded.quotes.filter((q) => q.effective === status)
      const res = await get(`/quotes?status=${status}&limit=100`)
      expect(res.body.quotes.map((q: any) => q.id), status).toEqual(ids(expected))
      expect(res.body.quotes.every((q: any) => q.status === status)).toBe(true)
      expect(res.body.total, status).toBe(expected.length)
    }
    // The seeding must exercise the rule, or the loop above proves nothing about it.
    expect(seeded.quotes.filter((q) => q.effective === 'Expired' && q.status !== 'Expired').length).toBeGreaterThan(0)
  })

  it('big company: filtered totals are exact below the cap, computed from the seeding formula', async () => {
    for (const [index, status] of LEAD_STATUSES.entries()) {
      let expected = 0
      for (let i = 1; i <= BIG_LEADS; i++) if (i % 6 === index) expected++
      const res = await get(`/leads?status=${status}&limit=1`, big.api_key)
      expect(res.body, status).toMatchObject({ total: expected, totalCapped: false })
    }
  })
})

describe('paging', () => {
  it('cursor pages walk every lead exactly once, in order, ties broken by id (REST)', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const res: any = await get(`/leads?limit=7${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.body.total).toBe(seeded.leads.length)
      seen.push(...res.body.leads.map((l: any) => l.id))
      cursor = res.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(ids(seeded.leads))
  })

  it('cursor pages walk a filtered list exactly once (MCP quotes.list, jobs.list)', async () => {
    for (const [name, key, args, expected] of [
      ['quotes.list', 'quotes', { status: 'Expired' }, seeded.quotes.filter((q) => q.effective === 'Expired')],
      ['jobs.list', 'jobs', { technician: 'Cy' }, seeded.jobs.filter((j) => j.technician === 'Cy')],
    ] as const) {
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page: any = (await callTool(name, { ...args, limit: 2, ...(cursor ? { cursor } : {}) })).structuredContent
        seen.push(...page[key].map((r: any) => r.id))
        cursor = page.nextCursor ?? undefined
      } while (cursor)
      expect(seen, name).toEqual(ids(expected as unknown as Row[]))
    }
  })

  it('a cursor walk through a big filtered list sees each row once and as many as total says', async () => {
    const seen = new Set<string>()
    let pages = 0
    let cursor: string | null = null
    let total = 0
    do {
      const res: any = await get(`/leads?status=Won&limit=100${cursor ? `&cursor=${cursor}` : ''}`, big.api_key)
      total = res.body.total
      for (const l of res.body.leads) {
        expect(seen.has(l.id)).toBe(false)
        seen.add(l.id)
      }
      cursor = res.body.nextCursor
      pages++
    } while (cursor)
    expect(seen.size).toBe(total)
    expect(pages).toBe(Math.ceil(total / 100) + (total % 100 === 0 ? 1 : 0))
  })

  it('offsets page the same order; the deepest offset reaches the oldest rows', async () => {
    const all = ids(seeded.leads)
    const page = await get('/leads?limit=5&offset=8')
    expect(page.body.leads.map((l: any) => l.id)).toEqual(all.slice(8, 13))
    const deepest = await get(`/leads?limit=100&offset=${MAX_OFFSET}`, big.api_key)
    // Big leads are named by i with created_at rising with i: past the newest MAX_OFFSET come i = 50..1.
    expect(deepest.body.leads.map((l: any) => l.name)).toEqual(Array.from({ length: BIG_LEADS - MAX_OFFSET }, (_, k) => `Big ${BIG_LEADS - MAX_OFFSET - k}`))
  })

  it(`total counts up to ${COUNT_CAP}; past it, total is ${COUNT_CAP} and totalCapped says so`, async () => {
    const res = await get('/leads?limit=1', big.api_key)
    expect(res.body).toMatchObject({ total: COUNT_CAP, totalCapped: true })
    const exact = await get('/leads?limit=1')
    expect(exact.body).toMatchObject({ total: seeded.leads.length, totalCapped: false })
  })
})

describe('every list filter is served by an index', () => {
  const principal = () => ({ companyId: big.company_id }) as Principal
  let bigLeadId = ''
  let bigJobId = ''
  beforeAll(async () => {
    const [lead] = await app.owner`select id from leads where company_id = ${big.company_id} and name = 'Big 1234'`
    bigLeadId = lead!.id
    const [job] = await app.owner`select id from jobs where company_id = ${big.company_id} order by created_at limit 1 offset 1234`
    bigJobId = job!.id
  })

  // The table each filter applies to, and what shows the index doing the filtering: the filter's
  // column in an index condition (or the index made for it). Tables a page only joins to (a job's
  // lead and quote) are looked up by primary key at scale; at a few thousand rows the planner may
  // rightly read them whole, so only the filtered table is checked.
  const cases: [string, string, RegExp, (deps: any) => Promise<unknown>][] = [
    ['leads.status', 'leads', /status = /, (d) => listLeads(d, principal(), { status: 'Won' })],
    ['leads.priority', 'leads', /priority = /, (d) => listLeads(d, principal(), { priority: 'Urgent' })],
    ['leads.status after a cursor', 'leads', /status = /, (d) => listLeads(d, principal(), { status: 'Won', cursor: cursorOf(['2024-01-01T01:00:00.000Z', randomUUID()]) })],
    ['jobs.status', 'jobs', /status = /, (d) => listJobs(d, principal(), { status: 'Completed' })],
    ['jobs.lead_id', 'jobs', /lead_id = /, (d) => listJobs(d, principal(), { lead_id: bigLeadId })],
    ['jobs.technician', 'jobs', /technician = /, (d) => listJobs(d, principal(), { technician: 'Tech 3' })],
    ['jobs.scheduled range', 'jobs', /scheduled_date >= .*scheduled_date < /, (d) => listJobs(d, principal(), { scheduled_from: '2024-06-10T00:00:00Z', scheduled_to: '2024-06-12T00:00:00Z' })],
    ['quotes.status Draft', 'quotes', /status = /, (d) => listQuotes(d, principal(), { status: 'Draft' })],
    ['quotes.status Sent', 'quotes', /status = /, (d) => listQuotes(d, principal(), { status: 'Sent' })],
    ['quotes.lead_id', 'quotes', /lead_id = /, (d) => listQuotes(d, principal(), { lead_id: bigLeadId })],
    ['quotes.status Expired', 'quotes', /status = ANY|quotes_company_expirable_created/, (d) => listQuotes(d, principal(), { status: 'Expired' })],
    ['clients.search', 'leads', /leads_search_trgm|lead_ids_matching/, (d) => listClients(d, principal(), { search: 'big1234@' }, 'any_job')],
    ['services.category', 'services', /category = /, (d) => listServices(d, principal(), { category: 'Roofing' })],
    ['services.active', 'services', /services_company_active_created .*active = false/, (d) => listServices(d, principal(), { active: false })],
    ['invoicing.status Paid', 'invoices', /status = /, (d) => listInvoices(d, principal(), { status: 'Paid' })],
    ['invoicing.status Overdue', 'invoices', /status = ANY|invoices_company_open_created|invoices_open_due/, (d) => listInvoices(d, principal(), { status: 'Overdue' })],
    ['invoicing.kind', 'invoices', /kind = /, (d) => listInvoices(d, principal(), { kind: 'progress' })],
    ['invoicing.job_id', 'invoices', /job_id = /, (d) => listInvoices(d, principal(), { job_id: bigJobId })],
    ['reminders.lead_id', 'reminders', /lead_id = /, (d) => listReminders(d, principal(), { lead_id: bigLeadId })],
    ['reminders.job_id', 'reminders', /job_id = /, (d) => listReminders(d, principal(), { job_id: bigJobId })],
    ['reminders.due range', 'reminders', /due_at >= .*due_at < /, (d) => listReminders(d, principal(), { due_from: '2024-09-01T00:00:00Z', due_to: '2024-09-03T00:00:00Z' })],
    // reminders_open_due holds only open reminders: once done ones are included, reminders_company_due
    // must serve the due range. Alone, either flag pages the company's reminders in due order from that
    // index (done ones are most of them), but the count reads the whole company, and here the company
    // is nearly the whole table, so the planner rightly counts with a sequential scan.
    ['reminders.include_completed', 'reminders', /reminders_company_due .*due_at >= .*due_at < /,
      (d) => listReminders(d, principal(), { include_completed: true, due_from: '2024-09-01T00:00:00Z', due_to: '2024-09-03T00:00:00Z' })],
    ['reminders.completed_only', 'reminders', /reminders_company_due .*due_at >= .*due_at < /,
      (d) => listReminders(d, principal(), { completed_only: true, due_from: '2024-09-01T00:00:00Z', due_to: '2024-09-03T00:00:00Z' })],
    ['comms.message_type', 'communications', /message_type = /, (d) => listMessages(d, principal(), { message_type: 'review_request' })],
    ['comms.delivery_status failed', 'communications', /status = /, (d) => listMessages(d, principal(), { delivery_status: 'failed' })],
    ['comms.lead_id', 'communications', /lead_id = /, (d) => listMessages(d, principal(), { lead_id: bigLeadId })],
    ['comms.job_id', 'communications', /job_id = /, (d) => listMessages(d, principal(), { job_id: bigJobId })],
    ['comms.since', 'communications', /created_at >= /, (d) => listMessages(d, principal(), { since: '2024-05-01T00:00:00Z' })],
  ]

  it.each(cases)('%s: each query reading %s filters through an index, never a sequential scan', async (_, table, served, run) => {
    const plans = await capturePlans(app, run)
    const onTable = (n: PlanNode) => n['Relation Name'] === table || (n['Index Name'] ?? '').startsWith(`${table}_`)
    const reading = plans.filter((p) => p.nodes.some(onTable))
    expect(reading.length).toBeGreaterThanOrEqual(2) // the page and its count
    for (const plan of reading) {
      const nodes = plan.nodes.filter(onTable)
      expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan'), plan.query).toEqual([])
      const indexUse = nodes.map((n) => `${n['Index Name'] ?? ''} ${n['Index Cond'] ?? ''} ${n['Recheck Cond'] ?? ''}`)
      expect(indexUse.some((u) => served.test(u)), `${plan.query}\n${indexUse.join('\n')}`).toBe(true)
    }
  })

  // A list added later is held to the same rule without anyone remembering this file: every filter
  // of every paged list operation in the registry needs a case above, or a reason here.
  const unindexedOnPurpose: Record<string, string> = {
    'services.search': 'a service catalogue is small; the per-company index bounds the scan',
    'workflows.enabled': 'workflows.list pages over the automation catalogue in code (a dozen entries), not a table',
    'workflows.workflow_id': 'only pending actions are listed, through the partial index of pending rows (pending_actions_company_pending), which expiry keeps small',
    // wallet.history pages by entry id with no count (the cases above check a page and its count).
    'wallet.type': 'served by wallet_entries_kind (company_id, kind, id desc), migration 027',
    'wallet.since': 'served by wallet_entries_created (company_id, created_at), migration 027',
    'wallet.until': 'served by wallet_entries_created (company_id, created_at), migration 027',
    // subcontractors.list: a company's subcontractors are tens, not thousands; migration 031 still
    // gives status a (company_id, status, created_at, id) index and trade/area GIN indexes.
    'subcontractors.trade': 'a few dozen rows per company (subcontractors_company_created bounds the scan); GIN subcontractors_trades exists for larger registers',
    'subcontractors.status': 'served by subcontractors_company_status (company_id, status, created_at desc, id desc), migration 031',
    'subcontractors.available': 'two values over a few dozen rows per company; the per-company created index bounds the scan',
    'subcontractors.area': 'a few dozen rows per company (subcontractors_company_created bounds the scan); GIN subcontractors_suburbs exists for larger registers',
    // integrations.list_connections: a company has a connection or two per accounting package.
    'integrations.status': 'a handful of connections per company; integration_connections_company (company_id, created_at, id) bounds the scan',
    'integrations.category': 'only accounting connections exist (another category answers an empty page without a query)',
    // pricebook.search ranks by relevance, so every match is scored and the page is sorted after
    // the filter: the shipped catalogue is about a thousand rows (read whole, it is one cheap scan),
    // and a company's own items are served by company_pricebook_items_trade (company_id, trade,
    // subcategory) and the GIN trigram and full-text indexes (migration 041).
    'pricebook.query': 'ranked: every match is scored; GIN trigram (pricebook_catalogue_trgm, company_pricebook_items_trgm) and full-text indexes serve the match',
    'pricebook.trade': 'about a hundred catalogue rows per trade out of a thousand; company_pricebook_items_trade (company_id, trade, subcategory) for the company\'s own',
    'pricebook.subcategory': 'matched in any case (lower()), over a thousand catalogue rows; a company\'s own items are bounded by company_id',
    'comms.channel': 'two channels, each a large share of the messages: newest first (communications_company_created_id) a page fills within a few rows, and the count stops at the cap',
  }
  it('every filter of every paged list in the registry has an index case above (or a stated reason)', () => {
    const covered = new Set(cases.map(([name]) => name.split(' ')[0]!))
    const paging = new Set(['limit', 'offset', 'cursor'])
    const lists = createRegistry().operations.filter((op) => !op.planned && 'cursor' in ((op.input as { properties?: object }).properties ?? {}))
    expect(lists.length).toBeGreaterThanOrEqual(6)
    for (const op of lists) {
      for (const field of Object.keys((op.input as { properties: object }).properties).filter((f) => !paging.has(f))) {
        const filter = `${op.domain}.${field.replace(/_(from|to)$/, '')}` // a range's two ends are one filter
        expect(covered.has(filter) || filter in unindexedOnPurpose, `${op.name}: filter ${field} has no index case`).toBe(true)
      }
    }
  })

  it('a cursor page starts at the cursor inside the index instead of skipping rows', async () => {
    const cursor = cursorOf(['2024-01-01T01:00:00.000Z', randomUUID()])
    const plans = await capturePlans(app, (d) => listLeads(d, principal(), { status: 'Won', cursor }))
    const conditions = plans.flatMap((p) => p.nodes.map((n) => n['Index Cond'] ?? ''))
    expect(conditions.some((c) => /status = 'Won'.*ROW\(created_at, id\) < ROW/.test(c)), conditions.join('\n')).toBe(true)
  })

  it('the clients search reaches the trigram index through lead_ids_matching', async () => {
    const plans = await capturePlans(app, (d) => listClients(d, principal(), { search: 'big1234@' }, 'any_job'))
    const indexes = plans.flatMap((p) => p.nodes.map((n) => n['Index Name']))
    expect(indexes).toContain('leads_search_trgm')
  })
})

describe('a list page is planned once per connection, not on every call', () => {
  // Postgres re-plans a prepared statement on every execution while its generic plan looks dearer
  // than a fresh one. A LIMIT sent as a parameter reads as "10% of the rows" in the generic plan, so
  // for a company with thousands of leads the list was planned afresh on every call (about 60 us of
  // a 100 us list under RLS). The page size is now a literal; these read Postgres's own plan-cache
  // counters on one app-role connection to hold that, on a filtered list (the unfiltered lead list is
  // one function call, whose plans are generic by its own setting: test/lead-list-page.test.ts).
  const principal = () => ({ companyId: big.company_id }) as Principal
  interface Prepared { statement: string; generic_plans: number; custom_plans: number }

  async function onOneConnection(run: (deps: any) => Promise<unknown>): Promise<Prepared[]> {
    const sql = connect(app.config.DATABASE_URL, { max: 1 })
    try {
      await sql`set role tradie_app`
      await run({ ...app.runtime.deps, db: { app: sql, close: async () => {} } })
      return await sql<Prepared[]>`select statement, generic_plans::int, custom_plans::int from pg_prepared_statements`
    } finally {
      await sql.end()
    }
  }
  /** The leads pages among them, identifiers unquoted. */
  const leadPages = (prepared: Prepared[]) =>
    prepared.map((p) => ({ ...p, statement: p.statement.replaceAll('"', '') })).filter((p) => /from leads\s.*order by created_at desc, id desc/s.test(p.statement))

  const status = LEAD_STATUSES[0]
  // A statement with parameters (the status) is planned for its values on its first five executions,
  // Postgres's rule, and then reuses the generic plan; with a parameter LIMIT it never did.
  it('the first page of a big company settles on one generic plan after the first five calls', async () => {
    const calls = 12
    const prepared = await onOneConnection(async (deps) => {
      for (let i = 0; i < calls; i++) expect((await listLeads(deps, principal(), { status, limit: 50 })).leads).toHaveLength(50)
    })
    const [page, ...others] = leadPages(prepared)
    expect(others).toEqual([])
    expect(page).toMatchObject({ custom_plans: 5, generic_plans: calls - 5 })
    expect(page!.statement).toMatch(/limit 50\s*$/)
  })

  it('deep offsets share one statement (the offset stays a parameter); each page size is its own', async () => {
    const offsets = Array.from({ length: 12 }, (_, i) => 1 + i * 37)
    // The seeding formula: lead i was created i seconds after 2024-01-01 with status number i % 6; newest first.
    const withStatus = Array.from({ length: BIG_LEADS }, (_, k) => BIG_LEADS - k).filter((i) => i % 6 === 0)
    const prepared = await onOneConnection(async (deps) => {
      for (const offset of offsets) {
        const page = await listLeads(deps, principal(), { status, limit: 10, offset })
        expect(page.leads.map((l: { name: string }) => l.name)).toEqual(withStatus.slice(offset, offset + 10).map((i) => `Big ${i}`))
      }
      await listLeads(deps, principal(), { status, limit: 11, offset: 5 })
    })
    expect(leadPages(prepared).map((p) => p.statement.match(/order by created_at desc, id desc limit \d+( offset \$\d+)?/)?.[0]).sort()).toEqual([
      'order by created_at desc, id desc limit 10 offset $2',
      'order by created_at desc, id desc limit 11 offset $2',
    ])
  })
})
