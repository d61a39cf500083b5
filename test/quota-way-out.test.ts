// A used-up monthly quota still leaves the way out open (billing, usage, checkout, portal); calls
// refused with 401, 403 or 429 are not counted; a revoked key is told so; onboarding checks its
// phone like a lead's; and the per-instance key cache keeps revocation within a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, uniqueEmail, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { ManualClock } from '../src/core/clock.js'
import { appDatabaseUrl } from '../src/config.js'
import { createDb, withTenant } from '../src/db/sql.js'
import { KeyCache, KEY_CACHE_TTL_MS } from '../src/core/key-cache.js'
import { ApiCallCounter, type CallOutcome } from '../src/core/api-calls.js'

// Mid-November 2026 in Sydney: the usage period is '2026-11'.
const clock = new ManualClock(new Date('2026-11-15T02:00:00Z'))
const PERIOD = '2026-11'
let app: TestApp
beforeAll(async () => {
  app = await startTestApp({ clock })
})
afterAll(() => app?.stop())

async function apiCalls(companyId: string): Promise<number> {
  const [row] = await app.owner<{ count: number }[]>`
    select count from usage_counters where company_id = ${companyId} and period = ${PERIOD} and metric = 'api_calls'`
  return row?.count ?? 0
}

async function setApiCalls(companyId: string, count: number): Promise<void> {
  await app.owner`
    insert into usage_counters (company_id, period, metric, count) values (${companyId}, ${PERIOD}, 'api_calls', ${count})
    on conflict (company_id, period, metric) do update set count = excluded.count`
}

async function keyWith(adminKey: string, scopes: string[], permission: string) {
  const res = await app.call('POST', '/api/v1/keys', { key: adminKey, body: { name: `${permission} ${scopes.join(',')}`, scopes, permission } })
  expect(res.status).toBe(201)
  return { key: res.body.api_key as string, id: res.body.key.id as string }
}

describe('a used-up monthly quota', () => {
  it('refuses counted calls with 429 naming the way out, which still answers and is not counted', async () => {
    // Starter with a payment method: 1,000 calls a month and a customer the portal can manage.
    const company = await onboard(app, { plan: 'starter', stripe_payment_method_id: 'pm_card_visa' })
    const key = company.api_key
    await setApiCalls(company.company_id, 1000)

    const refused = await app.call('GET', '/api/v1/leads', { key })
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe('rate_limited')
    expect(refused.body.message).toContain('1000 calls on the starter plan')
    for (const wayOut of ['POST /api/v1/billing/checkout', 'GET /api/v1/billing', 'GET /api/v1/usage', 'POST /api/v1/billing/portal']) {
      expect(refused.body.message).toContain(wayOut)
    }
    // The period ends at local midnight on 1 December (13:00 UTC on 30 November).
    expect(refused.body.retry_after_seconds).toBe((Date.parse('2026-11-30T13:00:00Z') - Date.parse('2026-11-15T02:00:00Z')) / 1000)

    const billing = await app.call('GET', '/api/v1/billing', { key })
    expect(billing.status).toBe(200)
    expect(billing.body.subscription.plan_slug).toBe('starter')
    const usage = await app.call('GET', '/api/v1/usage', { key })
    expect(usage.status).toBe(200)
    expect(usage.body.usage.api_calls).toEqual({ used: 1000, limit: 1000, remaining: 0 })
    const checkout = await app.call('POST', '/api/v1/billing/checkout', { key, body: { plan_slug: 'professional' } })
    expect(checkout.status).toBe(200)
    expect(checkout.body.checkout_url).toMatch(/^http/)
    const portal = await app.call('POST', '/api/v1/billing/portal', { key })
    expect(portal.status).toBe(200)
    expect(portal.body.portal_url).toMatch(/^http/)

    // None of it moved the counter past the limit, nor counted the refused call.
    expect(await apiCalls(company.company_id)).toBe(1000)
  })

  it('leaves the way out open over MCP too: billing tools answer, other tools get the 429 result', async () => {
    const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    await setApiCalls(company.company_id, 25_000)
    const call = (name: string) => rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } }, { key: company.api_key })

    const usage = await call('billing.usage')
    expect(usage.body.result.isError).toBeFalsy()
    expect(usage.body.result.structuredContent.usage.api_calls).toEqual({ used: 25_000, limit: 25_000, remaining: 0 })
    const leads = await call('leads.list')
    expect(leads.body.result.isError).toBe(true)
    expect(leads.body.result.structuredContent.error).toBe('rate_limited')
    expect(await apiCalls(company.company_id)).toBe(25_000)
  })

  it('answers again once the limit is raised, counting from where it stopped', async () => {
    const company = await onboard(app, { plan: 'free' })
    await setApiCalls(company.company_id, 100)
    expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(429)
    await app.owner`update companies set api_call_limit_override = 101 where id = ${company.company_id}`
    // The limit is read when counting, not from the key cache: the very next call sees it.
    expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(200)
    expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(429)
    expect(await apiCalls(company.company_id)).toBe(101)
  })
})

describe('calls refused with 401, 403 or 429 are not counted', () => {
  it('counts an allowed call once, and none of the refused ones', async () => {
    const company = await onboard(app, { plan: 'starter', stripe_payment_method_id: 'pm_card_visa' })
    const admin = company.api_key
    const quotesOnly = await keyWith(admin, ['quotes'], 'admin')
    const reader = await keyWith(admin, ['leads'], 'read')
    const revoked = await keyWith(admin, ['leads'], 'read')
    expect((await app.call('DELETE', `/api/v1/keys/${revoked.id}`, { key: admin })).status).toBe(200)
    const before = await apiCalls(company.company_id)

    const refusals: [string, string, string, unknown, number][] = [
      ['revoked key', 'GET', '/api/v1/leads', { key: revoked.key }, 401],
      ['missing scope', 'GET', '/api/v1/leads', { key: quotesOnly.key }, 403],
      ['missing permission', 'POST', '/api/v1/keys', { key: reader.key, body: { name: 'x', scopes: ['leads'], permission: 'read' } }, 403],
      ['missing plan feature (restWrite)', 'POST', '/api/v1/leads', { key: admin, body: { name: 'Pat' } }, 403],
    ]
    for (const [why, method, path, options, status] of refusals) {
      const res = await app.call(method, path, options as never)
      expect(res.status, why).toBe(status)
    }
    expect(await apiCalls(company.company_id)).toBe(before)

    expect((await app.call('GET', '/api/v1/leads', { key: reader.key })).status).toBe(200)
    expect(await apiCalls(company.company_id)).toBe(before + 1)
    // A call that passes authorisation but fails validation was still made: it counts.
    expect((await app.call('GET', '/api/v1/leads?limit=0', { key: reader.key })).status).toBe(400)
    expect(await apiCalls(company.company_id)).toBe(before + 2)

    await setApiCalls(company.company_id, 1000)
    expect((await app.call('GET', '/api/v1/leads', { key: reader.key })).status).toBe(429)
    expect(await apiCalls(company.company_id)).toBe(1000)
  })

  it('does not count an MCP call refused for the missing mcpAccess feature', async () => {
    const company = await onboard(app, { plan: 'professional', stripe_payment_method_id: 'pm_card_visa' })
    const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.list', arguments: {} } }, { key: company.api_key })
    expect(res.status).toBe(403)
    expect(await apiCalls(company.company_id)).toBe(0)
  })
})

describe('a revoked key', () => {
  it('is told when it was revoked and how to get a new key, at once on the instance that revoked it', async () => {
    const company = await onboard(app)
    const other = await keyWith(company.api_key, ['leads'], 'read')
    expect((await app.call('GET', '/api/v1/leads', { key: other.key })).status).toBe(200) // now cached here
    const revoked = await app.call('DELETE', `/api/v1/keys/${other.id}`, { key: company.api_key })
    const revokedAt: string = revoked.body.key.revoked_at
    expect(revokedAt).toBe(clock.now().toISOString())

    const res = await app.call('GET', '/api/v1/leads', { key: other.key })
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ error: 'unauthorized', revoked_at: revokedAt })
    expect(res.body.message).toContain(`revoked at ${revokedAt}`)
    expect(res.body.message).toContain('POST /api/v1/keys')
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })

  it('a key that never existed is still just invalid', async () => {
    const res = await app.call('GET', '/api/v1/leads', { key: `ask_${'A'.repeat(43)}` })
    expect(res.status).toBe(401)
    expect(res.body.message).toMatch(/^Invalid API key/)
    expect(res.body.revoked_at).toBeUndefined()
  })
})

describe('two instances on one database', () => {
  let second: TestApp
  beforeAll(async () => {
    second = await startTestApp({ shareDatabaseOf: app, clock })
  })
  afterAll(() => second?.stop())

  it('a revoked key stops working on the other instance within about a second, despite its key cache', async () => {
    const company = await onboard(app)
    const other = await keyWith(company.api_key, ['leads'], 'read')
    expect((await second.call('GET', '/api/v1/leads', { key: other.key })).status).toBe(200)
    expect((await app.call('DELETE', `/api/v1/keys/${other.id}`, { key: company.api_key })).status).toBe(200)
    const revokedAt = Date.now()
    let res = await second.call('GET', '/api/v1/leads', { key: other.key })
    while (res.status === 200 && Date.now() - revokedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 25))
      res = await second.call('GET', '/api/v1/leads', { key: other.key })
    }
    const took = Date.now() - revokedAt
    expect(res.status).toBe(401)
    expect(res.body.message).toContain('revoked at')
    // The cache's bound, plus slack for one request on a loaded test machine.
    expect(took).toBeLessThan(KEY_CACHE_TTL_MS + 500)
  })

  it('lets exactly the quota through when both instances count concurrently', async () => {
    const company = await onboard(app, { plan: 'free' })
    const calls = Array.from({ length: 160 }, (_, i) => (i % 2 ? app : second).call('GET', '/api/v1/leads', { key: company.api_key }))
    const results = await Promise.all(calls)
    expect(results.filter((r) => r.status === 200)).toHaveLength(100)
    expect(results.filter((r) => r.status === 429)).toHaveLength(60)
    expect(await apiCalls(company.company_id)).toBe(100)
  })
})

describe('onboarding phone', () => {
  const signUp = (fields: Record<string, unknown>) =>
    app.call('POST', '/api/v1/onboard', { body: { business_name: 'Coastal Tiling', email: uniqueEmail(), plan: 'free', ...fields } })

  it('refuses a number that is not Australian, naming it, and creates nothing', async () => {
    const email = uniqueEmail()
    const res = await signUp({ email, phone: '12345' })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('validation_error')
    expect(res.body.messages).toEqual(["phone: '12345' is not a valid Australian phone number"])
    // Nothing was created: the same address can still sign up.
    expect((await signUp({ email, phone: '0412 345 678' })).status).toBe(201)
  })

  it('lists a bad phone together with a bad ABN', async () => {
    const res = await signUp({ phone: 'call me', abn: '12 345 678 901' })
    expect(res.status).toBe(400)
    expect(res.body.messages).toEqual(expect.arrayContaining([
      "phone: 'call me' is not a valid Australian phone number",
      expect.stringMatching(/^abn: /),
    ]))
  })

  it('stores mobiles and landlines as E.164, and a blank phone as none', async () => {
    for (const [typed, stored] of [['0412 345 678', '+61412345678'], ['(02) 9876 5432', '+61298765432'], ['+61 3 9123 4567', '+61391234567'], ['   ', null]] as const) {
      const res = await signUp({ phone: typed })
      expect(res.status, typed).toBe(201)
      const [company] = await app.owner`select phone from companies where id = ${res.body.company_id}`
      expect(company!.phone, typed).toBe(stored)
    }
  })
})

describe('withTenant', () => {
  it('rolls back a failed transaction and leaves no tenant setting on the connection', async () => {
    const company = await onboard(app)
    const db = createDb(appDatabaseUrl(app.config), { max: 1 }) // one connection: the next query reuses it
    try {
      await expect(withTenant(db, company.company_id, async (tx) => {
        await tx`update companies set trade_type = 'rolled back' where id = ${company.company_id}`
        throw new Error('boom')
      })).rejects.toThrow('boom')
      const [row] = await app.owner`select trade_type from companies where id = ${company.company_id}`
      expect(row!.trade_type).toBeNull()
      const [setting] = await db.app`select coalesce(current_setting('app.company_id', true), '') as value`
      expect(setting!.value).toBe('')
      // Not left inside a transaction: a transaction-local setting does not outlive its statement.
      await db.app`select set_config('test.marker', 'set', true)`
      const [marker] = await db.app`select coalesce(current_setting('test.marker', true), '') as value`
      expect(marker!.value).toBe('')
    } finally {
      await db.close()
    }
  })

  it('fails when a query it did not await failed, instead of reporting a rolled-back commit as success', async () => {
    const company = await onboard(app)
    const db = createDb(appDatabaseUrl(app.config), { max: 1 })
    try {
      await expect(withTenant(db, company.company_id, async (tx) => {
        void tx`select 1 / 0`.catch(() => {})
        await tx`select 1`.catch(() => {})
        return 'done'
      })).rejects.toThrow(/rolled back/)
    } finally {
      await db.close()
    }
  })

  it('keeps each transaction to its own company under concurrency on a shared pool', async () => {
    const [a, b] = [await onboard(app), await onboard(app)]
    const db = createDb(appDatabaseUrl(app.config), { max: 2 })
    try {
      const seen = await Promise.all(Array.from({ length: 40 }, (_, i) => {
        const id = i % 2 ? a.company_id : b.company_id
        return withTenant(db, id, async (tx) => (await tx<{ id: string }[]>`select id from companies`).map((r) => r.id)).then((ids) => ({ id, ids }))
      }))
      for (const { id, ids } of seen) expect(ids).toEqual([id])
    } finally {
      await db.close()
    }
  })
})

describe('KeyCache', () => {
  // A fake database answering resolve_api_key: counts lookups, answers after a tick.
  function fakeDeps(rows: Record<string, Record<string, unknown> | undefined>) {
    const calls: string[] = []
    const app = (async (_strings: TemplateStringsArray, hash: string) => {
      calls.push(hash)
      await new Promise((resolve) => setTimeout(resolve, 1))
      const row = rows[hash]
      return row ? [row] : []
    }) as never
    return { calls, deps: { db: { app, close: async () => {} }, clock: new ManualClock(new Date('2026-11-15T02:00:00Z')) } }
  }
  const active = (companyId: string, extra: Record<string, unknown> = {}) => ({
    key_id: 'k', company_id: companyId, scopes: ['leads'], permission: 'read', revoked_at: null, plan_slug: 'free',
    effective_plan_slug: 'free', subscription_status: 'active', trial_ends_at: null, features: {}, plan_limits: {}, api_call_limit: 100, ...extra,
  })

  it('reuses a lookup for its time to live, shares one lookup among concurrent callers, then looks again', async () => {
    const { calls, deps } = fakeDeps({ h1: active('c1') })
    let t = 0
    const cache = new KeyCache(deps as never, 1000, () => t)
    const pending = Promise.all([cache.get('h1'), cache.get('h1')])
    expect(cache.cached('h1')).toBeUndefined() // not answered yet
    const [x, y] = await pending
    expect(x).toBe(y)
    expect(calls).toEqual(['h1'])
    t = 999
    expect(cache.cached('h1')).toBe(x)
    await cache.get('h1')
    expect(calls).toHaveLength(1)
    t = 1000
    expect(cache.cached('h1')).toBeUndefined()
    await cache.get('h1')
    expect(calls).toHaveLength(2)
  })

  it('does not cache unknown keys, and forgets a company on demand', async () => {
    const { calls, deps } = fakeDeps({ known: active('c1'), other: active('c2') })
    const cache = new KeyCache(deps as never, 1000, () => 0)
    expect(await cache.get('unknown')).toBeNull()
    expect(await cache.get('unknown')).toBeNull()
    await cache.get('known')
    await cache.get('other')
    cache.forgetCompany('c1')
    await cache.get('known')
    await cache.get('other')
    expect(calls).toEqual(['unknown', 'unknown', 'known', 'other', 'known'])
  })

  it('looks again when the app clock passes the end of a trial the cached plan relied on', async () => {
    const trialEnd = new Date('2026-11-20T00:00:00Z')
    const { calls, deps } = fakeDeps({ h: active('c', { subscription_status: 'trialing', trial_ends_at: trialEnd, effective_plan_slug: 'business' }) })
    const cache = new KeyCache(deps as never, 1000, () => 0)
    await cache.get('h')
    await cache.get('h')
    expect(calls).toHaveLength(1)
    deps.clock.set(trialEnd)
    await cache.get('h')
    expect(calls).toHaveLength(2)
  })
})

describe('ApiCallCounter', () => {
  // A fake count_api_calls(): one counter with a limit, all or none per statement. Each statement
  // waits until released, so calls made meanwhile queue up behind it.
  function fakeDatabase(limit: number) {
    const state = { count: 0, statements: [] as number[], release: [] as (() => void)[] }
    const app = (async (_strings: TemplateStringsArray, _company: string, _period: string, _now: Date, calls: number) => {
      state.statements.push(calls)
      await new Promise<void>((resolve) => state.release.push(resolve))
      const allowed = state.count + calls <= limit
      if (allowed) state.count += calls
      return [{ allowed, used: state.count, api_call_limit: limit }]
    }) as never
    const releaseAll = async () => {
      while (state.release.length) {
        state.release.shift()!()
        await new Promise((resolve) => setTimeout(resolve, 1))
      }
    }
    return { state, releaseAll, deps: { db: { app, close: async () => {} }, clock: new ManualClock(new Date('2026-11-15T02:00:00Z')) } }
  }
  const kinds = (outcomes: CallOutcome[]) => outcomes.map((o) => o.kind)

  it('counts calls that arrive while a statement is in flight together, in one statement', async () => {
    const { state, releaseAll, deps } = fakeDatabase(100)
    const counter = new ApiCallCounter(deps as never)
    const calls = Array.from({ length: 5 }, () => counter.count('c1'))
    await new Promise((resolve) => setTimeout(resolve, 1))
    await releaseAll()
    const outcomes = await Promise.all(calls)
    expect(state.statements).toEqual([1, 4])
    expect(outcomes.map((o) => (o.kind === 'counted' ? o.used : null))).toEqual([1, 2, 3, 4, 5])
    expect(state.count).toBe(5)
  })

  it('never passes the limit: of a batch that does not fit, those that fit are counted, the rest refused', async () => {
    const { state, releaseAll, deps } = fakeDatabase(3)
    const counter = new ApiCallCounter(deps as never)
    const calls = Array.from({ length: 6 }, () => counter.count('c1'))
    await new Promise((resolve) => setTimeout(resolve, 1))
    await releaseAll()
    const outcomes = await Promise.all(calls)
    // 1 counted; then 5 do not fit, 2 do: those 2 are tried again and counted, 3 refused.
    expect(state.statements).toEqual([1, 5, 2])
    expect(kinds(outcomes)).toEqual(['counted', 'counted', 'counted', 'refused', 'refused', 'refused'])
    expect(state.count).toBe(3)
    // Once at the limit, a batch is refused in one statement.
    const more = Array.from({ length: 4 }, () => counter.count('c1'))
    await new Promise((resolve) => setTimeout(resolve, 1))
    await releaseAll()
    expect(kinds(await Promise.all(more))).toEqual(['refused', 'refused', 'refused', 'refused'])
    expect(state.statements).toEqual([1, 5, 2, 1, 3])
  })

  it('fails the waiting calls when their statement fails, for each company', async () => {
    const failing = (async () => {
      throw new Error('connection lost')
    }) as never
    const counter = new ApiCallCounter({ db: { app: failing, close: async () => {} }, clock: new ManualClock(new Date()) } as never)
    const results = await Promise.allSettled([counter.count('a'), counter.count('a'), counter.count('b')])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected'])
  })
})
