// Retry-safe writes: an agent that retries after a timeout gets the first response again, and the
// write (and any message it sends) happens once. Through REST and through MCP, against a real
// database, worker and Temporal server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { randomUUID } from 'node:crypto'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp, rpc } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { ABANDONED_AFTER_MS, attemptClaim, claimIdempotencyKey, keepClaimAlive } from '../src/core/idempotency.js'
import { runHoldingClaim } from '../src/core/claim-scope.js'
import { withTenant } from '../src/db/sql.js'

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
let client: Client
// The service's clock, moved forward by the tests that need a claim's beats to have stopped long ago.
let shiftMs = 0
beforeAll(async () => {
  app = await startTestApp({ clock: { now: () => new Date(Date.now() + shiftMs) } })
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

const leadsNamed = async (name: string) => (await app.owner`select id from leads where name = ${name}`).length

describe('POST /leads with an Idempotency-Key', () => {
  it('replays the first response for the same key and body: one lead, identical responses', async () => {
    const key = randomUUID()
    const body = { name: 'Retry Rita', phone: '0412 555 101', suburb: 'Ryde' }
    const first = await app.call('POST', '/api/v1/leads', { key: company.api_key, body, headers: { 'idempotency-key': key } })
    const second = await app.call('POST', '/api/v1/leads', { key: company.api_key, body, headers: { 'idempotency-key': key } })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.body).toEqual(first.body)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await leadsNamed('Retry Rita')).toBe(1)
    // The instant reply went out once.
    const sms = await waitFor(() => app.owner`select id from communications where lead_id = ${first.body.lead.id} and channel = 'sms'`, (rows) => rows.length > 0)
    expect(sms).toHaveLength(1)
  })

  it('refuses the same key with a different body (409 idempotency_conflict) and creates nothing', async () => {
    const key = randomUUID()
    const first = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Conflict Carl' }, headers: { 'idempotency-key': key } })
    expect(first.status).toBe(201)
    const other = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Conflict Carla' }, headers: { 'idempotency-key': key } })
    expect(other.status).toBe(409)
    expect(other.body).toMatchObject({ error: 'idempotency_conflict', message: expect.stringMatching(/new key/) })
    expect(await leadsNamed('Conflict Carla')).toBe(0)
  })

  it('runs once when the same request arrives ten times at once', async () => {
    const key = randomUUID()
    const body = { name: 'Concurrent Con' }
    const replies = await Promise.all(Array.from({ length: 10 }, () =>
      app.call('POST', '/api/v1/leads', { key: company.api_key, body, headers: { 'idempotency-key': key } })))
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201))
    expect(new Set(replies.map((r) => r.body.lead.id)).size).toBe(1)
    expect(await leadsNamed('Concurrent Con')).toBe(1)
  })

  it('keys are per company: another company may use the same key', async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const key = randomUUID()
    const a = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Per Company A' }, headers: { 'idempotency-key': key } })
    const b = await app.call('POST', '/api/v1/leads', { key: other.api_key, body: { name: 'Per Company B' }, headers: { 'idempotency-key': key } })
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.body.lead.name).toBe('Per Company B')
  })

  it('rejects a malformed key, and a failed first request leaves nothing to replay', async () => {
    const bad = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'X' }, headers: { 'idempotency-key': 'has spaces in it' } })
    expect(bad.status).toBe(400)
    expect(bad.body.messages.join()).toMatch(/Idempotency-Key/)
    const key = randomUUID()
    const invalid = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Bad Phone', phone: '12' }, headers: { 'idempotency-key': key } })
    expect(invalid.status).toBe(400)
    const fixed = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Bad Phone', phone: '0412 555 102' }, headers: { 'idempotency-key': key } })
    expect(fixed.status).toBe(201)
  })
})

describe('MCP quotes.send with an idempotency key', () => {
  async function draftQuote(name: string) {
    const lead = (await tool(client, 'leads.create', { name, phone: '0412 555 201' })).lead
    return (await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Tap washer', quantity: 1, unitPrice: 120 }] })).quote
  }
  const quoteSms = (quoteId: string) => app.owner`select id from communications where quote_id = ${quoteId} and channel = 'sms'`

  it('sends once and returns identical results for a retried call (argument and _meta forms)', async () => {
    for (const form of ['argument', 'meta'] as const) {
      const quote = await draftQuote(`Quote Retry ${form}`)
      const key = randomUUID()
      const params = form === 'argument'
        ? { name: 'quotes.send', arguments: { quote_id: quote.id, send_sms: true, idempotency_key: key } }
        : { name: 'quotes.send', arguments: { quote_id: quote.id, send_sms: true }, _meta: { idempotency_key: key } }
      const first = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params }, { key: company.api_key })
      const second = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params }, { key: company.api_key })
      expect(first.body.result.isError, JSON.stringify(first.body)).toBeUndefined()
      expect(second.body.result.structuredContent).toEqual(first.body.result.structuredContent)
      expect(second.body.result._meta).toEqual({ idempotent_replayed: true })
      await waitFor(() => quoteSms(quote.id), (rows) => rows.length > 0)
      await new Promise((resolve) => setTimeout(resolve, 500)) // time for a second delivery, were there one
      expect(await quoteSms(quote.id)).toHaveLength(1)
      const [row] = await app.owner`select sent_count from quotes where id = ${quote.id}`
      expect(row!.sent_count).toBe(1)
    }
  })

  it('refuses the same key with different arguments as a tool error', async () => {
    const quote = await draftQuote('Quote Conflict')
    const key = randomUUID()
    await tool(client, 'quotes.send', { quote_id: quote.id, idempotency_key: key })
    const res = await client.callTool({ name: 'quotes.send', arguments: { quote_id: quote.id, send_sms: true, idempotency_key: key } })
    expect(res.isError).toBe(true)
    expect(res.structuredContent).toMatchObject({ error: 'idempotency_conflict' })
    expect(await quoteSms(quote.id)).toHaveLength(0)
  })

  it('lists idempotency_key on write tools only', async () => {
    const { tools } = await client.listTools()
    const byName = new Map(tools.map((t) => [t.name, t]))
    expect(byName.get('quotes.send')!.inputSchema.properties).toHaveProperty('idempotency_key')
    expect(byName.get('leads.create')!.inputSchema.properties).toHaveProperty('idempotency_key')
    expect(byName.get('leads.list')!.inputSchema.properties).not.toHaveProperty('idempotency_key')
  })
})

describe('a claim is held while its request beats, and taken over once the beats stop', () => {
  // The clock the claims read is set by hand; the beats run on real timers (keepClaimAlive's interval).
  let at = Date.parse('2026-06-01T00:00:00.000Z')
  const deps = () => ({ ...app.runtime.deps, clock: { now: () => new Date(at) } })
  const attempt = (key: string) => attemptClaim(deps(), company.company_id, key, 'leads.create', 'same-request')
  const aliveAt = async (key: string) =>
    (await app.owner<{ alive_at: Date }[]>`select alive_at from idempotency_keys where company_id = ${company.company_id} and key = ${key}`)[0]!.alive_at

  it('without beats, another request takes the claim over once ABANDONED_AFTER_MS has passed, not before', async () => {
    const key = randomUUID()
    expect((await attempt(key)).kind).toBe('claimed')
    at += ABANDONED_AFTER_MS - 1000
    expect(await attempt(key)).toMatchObject({ kind: 'existing', row: { state: 'running' } })
    at += 2000
    expect((await attempt(key)).kind).toBe('claimed')
  })

  it('a request still beating keeps its claim however long it runs; when it stops, the claim is taken over', async () => {
    const key = randomUUID()
    expect((await attempt(key)).kind).toBe('claimed')
    const stop = keepClaimAlive(deps(), company.company_id, key, 20)
    try {
      // Three times the abandonment bound, in steps shorter than it, each followed by a beat.
      for (let step = 0; step < 6; step++) {
        at += ABANDONED_AFTER_MS / 2
        const beatAt = at
        await waitFor(() => aliveAt(key), (alive) => alive.getTime() === beatAt, 5000, 10)
        expect(await attempt(key)).toMatchObject({ kind: 'existing', row: { state: 'running' } })
      }
    } finally {
      stop()
    }
    at += ABANDONED_AFTER_MS + 1000
    expect((await attempt(key)).kind).toBe('claimed')
  })
})

describe('a write that committed a change is never run twice, even when its response was lost', () => {
  let at = Date.parse('2026-07-01T00:00:00.000Z')
  const deps = () => ({ ...app.runtime.deps, clock: { now: () => new Date(at) } })
  const hash = 'one-request'
  const wroteAt = async (key: string) =>
    (await app.owner<{ wrote_at: Date | null }[]>`select wrote_at from idempotency_keys where company_id = ${company.company_id} and key = ${key}`)[0]!.wrote_at
  const holding = <T>(key: string, fn: () => Promise<T>) => runHoldingClaim({ companyId: company.company_id, key }, fn)
  const touchCompany = (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) => tx`update companies set business_name = business_name`

  it('marks the claim in a transaction that committed a change, not in one that only read or rolled back', async () => {
    const key = randomUUID()
    expect((await attemptClaim(deps(), company.company_id, key, 'leads.create', hash)).kind).toBe('claimed')
    const db = app.runtime.deps.db
    await holding(key, () => withTenant(db, company.company_id, (tx) => tx`select count(*) from leads`))
    expect(await wroteAt(key)).toBeNull()
    await expect(holding(key, () => withTenant(db, company.company_id, async (tx) => {
      await touchCompany(tx)
      throw new Error('refused after writing')
    }))).rejects.toThrow('refused after writing')
    expect(await wroteAt(key)).toBeNull()
    // Outside the scope (another call, a claim's own beat) a change does not mark it.
    await withTenant(db, company.company_id, touchCompany)
    expect(await wroteAt(key)).toBeNull()
    await holding(key, () => withTenant(db, company.company_id, touchCompany))
    expect(await wroteAt(key)).toBeInstanceOf(Date)

    // Its beats stopped long ago: the claim is not taken over, and a retry is told why.
    at += ABANDONED_AFTER_MS + 1000
    expect(await attemptClaim(deps(), company.company_id, key, 'leads.create', hash)).toMatchObject({ kind: 'existing', row: { state: 'running', wrote: true, abandoned: true } })
    await expect(claimIdempotencyKey(deps(), company.company_id, key, 'leads.create', hash)).rejects.toMatchObject({ code: 'idempotency_conflict', message: expect.stringMatching(/not run again/) })
  })

  it('a claim that read but wrote nothing is still taken over once its beats stop', async () => {
    const key = randomUUID()
    expect((await attemptClaim(deps(), company.company_id, key, 'leads.create', hash)).kind).toBe('claimed')
    await holding(key, () => withTenant(app.runtime.deps.db, company.company_id, (tx) => tx`select count(*) from leads`))
    at += ABANDONED_AFTER_MS + 1000
    expect((await attemptClaim(deps(), company.company_id, key, 'leads.create', hash)).kind).toBe('claimed')
  })

  it('POST /leads whose response cannot be kept answers 201; a retry after its claim went quiet is refused, one lead', async () => {
    const key = `lost-${randomUUID()}`
    // The response's write fails for this key alone (a constraint the database would never raise by
    // itself), as if the process had died just after the lead committed.
    await app.owner.unsafe(`
      create or replace function test_lose_idempotency_response() returns trigger language plpgsql as $$
      begin
        if new.state = 'done' and new.key like 'lost-%' then raise exception 'response lost' using errcode = '23514'; end if;
        return new;
      end $$;
      create trigger test_lose_idempotency_response before update on idempotency_keys
        for each row execute function test_lose_idempotency_response()`)
    try {
      const body = { name: `Lost Answer ${key}`, phone: '0412 555 909' }
      const first = await app.call('POST', '/api/v1/leads', { key: company.api_key, body, headers: { 'idempotency-key': key } })
      expect(first.status).toBe(201)
      expect(first.body.lead.name).toBe(body.name)
      expect(await wroteAt(key)).toBeInstanceOf(Date)
      shiftMs = ABANDONED_AFTER_MS + 1000
      const retry = await app.call('POST', '/api/v1/leads', { key: company.api_key, body, headers: { 'idempotency-key': key } })
      expect(retry.status).toBe(409)
      expect(retry.body).toMatchObject({ error: 'idempotency_conflict', message: expect.stringMatching(/made its change.*not run again/) })
      expect(await leadsNamed(body.name)).toBe(1)
    } finally {
      shiftMs = 0
      await app.owner.unsafe(`drop trigger test_lose_idempotency_response on idempotency_keys; drop function test_lose_idempotency_response()`)
    }
  })
})
