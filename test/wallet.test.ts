// The wallet tools through the MCP SDK client (results checked against their output schemas by
// tool()): balance, history, deposits by card (sandbox page; Stripe Checkout against stripe-mock with
// signed events) and crypto (sandbox), and transfers. Limits come from SPEC 8 (deposit 5 to 10000
// dollars, transfer at most 5000); expected balances are counted here, not read from the ledger.
import { randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import fc from 'fast-check'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { postEntry, transferCredit } from '../src/domains/wallet/queries.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { setWalletBalance, walletLedger } from './helpers/wallet.js'
import { tool, toolError } from './helpers/tools.js'

let app: TestApp
const clients: Client[] = []
beforeAll(async () => {
  app = await startTestApp({ config: { WALLET_STARTING_CREDIT_CENTS: 500 } })
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
})

async function company(on: TestApp = app) {
  const signedUp = await onboard(on, { plan: 'business' })
  const client = await connectHttp(on, signedUp.api_key)
  clients.push(client)
  return { ...signedUp, client }
}

const ledger = (companyId: string, on: TestApp = app) => walletLedger(on, companyId)

const setBalance = (companyId: string, cents: number) => setWalletBalance(app, companyId, cents)

/** A sandbox page's form, posted as a browser would. */
const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })

describe('wallet.balance and wallet.history', () => {
  it('a new company holds $5.00; the balance states the prices of SPEC 8', async () => {
    const c = await company()
    const balance = await tool(c.client, 'wallet.balance')
    expect(balance).toMatchObject({ balance: 5, prices: { read: 0.01, write: 0.05 }, deposit_with: 'wallet.deposit' })
    const rest = await app.call('GET', '/api/v1/wallet', { key: c.api_key })
    expect(rest.status).toBe(200)
    expect(rest.body.balance).toBe(5)
  })

  it('lists entries newest first with running balance and tool, pages by cursor, filters by kind', async () => {
    const c = await company()
    await tool(c.client, 'leads.list') // 1 cent
    await tool(c.client, 'leads.create', { name: 'Pat History' }) // 5 cents
    await tool(c.client, 'leads.list') // 1 cent
    const all = await tool(c.client, 'wallet.history')
    expect(all.entries.map((e: any) => [e.kind, e.amount, e.balance_after, e.operation])).toEqual([
      ['charge', -0.01, 4.93, 'leads.list'],
      ['charge', -0.05, 4.94, 'leads.create'],
      ['charge', -0.01, 4.99, 'leads.list'],
      ['grant', 5, 5, null],
    ])
    expect(all.next_cursor).toBeNull()
    // Page by two: the same entries in the same order, then the end.
    const first = await tool(c.client, 'wallet.history', { limit: 2 })
    const second = await tool(c.client, 'wallet.history', { limit: 2, cursor: first.next_cursor })
    expect([...first.entries, ...second.entries].map((e: any) => e.id)).toEqual(all.entries.map((e: any) => e.id))
    const third = await tool(c.client, 'wallet.history', { limit: 2, cursor: second.next_cursor })
    expect(third).toMatchObject({ entries: [], next_cursor: null })
    const grants = await tool(c.client, 'wallet.history', { type: 'grant' })
    expect(grants.entries.map((e: any) => e.kind)).toEqual(['grant'])
    const future = await tool(c.client, 'wallet.history', { since: '2099-01-01T00:00:00Z' })
    expect(future.entries).toEqual([])
    expect(await toolError(c.client, 'wallet.history', { cursor: 'bm90LWEtY3Vyc29y' })).toMatchObject({ error: 'validation_error', messages: [expect.stringContaining('cursor')] })
  })
})

describe('wallet.deposit (sandbox)', () => {
  it('refuses below $5 and above $10,000, naming the limit', async () => {
    const c = await company()
    for (const amount of [4.99, 0, 10000.01, 50000]) {
      const error = await toolError(c.client, 'wallet.deposit', { amount })
      expect(error.error, String(amount)).toBe('validation_error')
      expect(JSON.stringify(error), String(amount)).toMatch(amount < 5 ? /\b5\b/ : /10,?000/)
    }
    expect(Number((await app.owner`select count(*)::int as n from wallet_deposits where company_id = ${c.company_id}`)[0]!.n)).toBe(0)
  })

  it('is pending until paid on the sandbox page; paying twice credits once', async () => {
    const c = await company()
    const { deposit, next_steps } = await tool(c.client, 'wallet.deposit', { amount: 20 })
    expect(deposit).toMatchObject({ method: 'card', provider: 'sandbox', amount: 20, status: 'pending', asset: null })
    expect(next_steps[0].tool).toBe('wallet.history')
    expect((await tool(c.client, 'wallet.balance')).balance).toBe(5)
    const page = await fetch(deposit.pay_url)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('No card is charged')
    const paid = [await post(`${deposit.pay_url}/pay`), await post(`${deposit.pay_url}/pay`)]
    expect(paid.map((r) => r.status)).toEqual([200, 200])
    expect(await ledger(c.company_id)).toEqual({ cached: 2500, sum: 2500, negative: 0 })
    const deposits = (await tool(c.client, 'wallet.history', { type: 'deposit' })).entries
    expect(deposits).toEqual([expect.objectContaining({ kind: 'deposit', amount: 20, balance_after: 25, reference: deposit.id })])
    // A token nobody issued is not found.
    expect((await fetch(`${app.url}/sandbox/wallet/${'x'.repeat(32)}`)).status).toBe(404)
  })

  it('over REST: POST /wallet/deposits answers 201 with the pending deposit', async () => {
    const c = await company()
    const res = await app.call('POST', '/api/v1/wallet/deposits', { key: c.api_key, body: { amount: 5 } })
    expect(res.status).toBe(201)
    expect(res.body.deposit).toMatchObject({ amount: 5, status: 'pending' })
  })
})

describe('wallet.crypto_deposit (sandbox)', () => {
  it('says no real crypto network is used; confirming twice credits once', async () => {
    const c = await company()
    const { deposit, message } = await tool(c.client, 'wallet.crypto_deposit', { amount: 50, asset: 'usdc' })
    expect(message).toContain('no real crypto network is used')
    expect(deposit).toMatchObject({ method: 'crypto', provider: 'sandbox', amount: 50, asset: 'USDC', status: 'pending', address: null })
    expect(await toolError(c.client, 'wallet.crypto_deposit', { amount: 4 })).toMatchObject({ error: 'validation_error' })
    await post(`${deposit.pay_url}/confirm`)
    await post(`${deposit.pay_url}/confirm`)
    expect(await ledger(c.company_id)).toEqual({ cached: 5500, sum: 5500, negative: 0 })
    // The crypto page does not credit a card deposit.
    const card = (await tool(c.client, 'wallet.deposit', { amount: 5 })).deposit
    expect((await post(`${card.pay_url.replace('/sandbox/wallet/', '/sandbox/crypto/')}/confirm`)).status).toBe(404)
    expect((await ledger(c.company_id)).cached).toBe(5500)
  })
})

describe('wallet.transfer', () => {
  it('moves credit in one transaction: both entries, both balances', async () => {
    const a = await company()
    const b = await company()
    const sent = await tool(a.client, 'wallet.transfer', { to_company_id: b.company_id, amount: 1.5, note: 'thanks' })
    expect(sent).toMatchObject({ transfer: { to_company_id: b.company_id, amount: 1.5, note: 'thanks' }, balance: 3.5 })
    expect((await ledger(a.company_id)).cached).toBe(350)
    expect((await ledger(b.company_id)).cached).toBe(650)
    const [out] = (await tool(a.client, 'wallet.history', { type: 'transfer_out' })).entries
    const [inn] = (await tool(b.client, 'wallet.history', { type: 'transfer_in' })).entries
    expect(out).toMatchObject({ amount: -1.5, reference: sent.transfer.id, counterparty_company_id: b.company_id, note: 'thanks' })
    expect(inn).toMatchObject({ amount: 1.5, reference: sent.transfer.id, counterparty_company_id: a.company_id, note: 'thanks' })
  })

  it('names the receiving company by its own referral code instead of its id', async () => {
    const a = await company()
    const b = await company()
    const { code } = await tool(b.client, 'ecosystem.referral_link')
    const sent = await tool(a.client, 'wallet.transfer', { to_referral_code: code.toLowerCase(), amount: 2 })
    expect(sent).toMatchObject({ transfer: { to_company_id: b.company_id, amount: 2 }, balance: 3 })
    expect((await ledger(b.company_id)).cached).toBe(700)
    expect(await toolError(a.client, 'wallet.transfer', { to_referral_code: 'NOSUCHCODE', amount: 1 })).toMatchObject({ error: 'not_found' })
    expect(await toolError(a.client, 'wallet.transfer', { amount: 1 })).toMatchObject({ error: 'validation_error' })
    expect(await toolError(a.client, 'wallet.transfer', { to_company_id: b.company_id, to_referral_code: code, amount: 1 })).toMatchObject({ error: 'validation_error' })
  })

  it('refuses above $5,000, to itself, to an unknown company, and beyond the balance', async () => {
    const a = await company()
    const b = await company()
    await setBalance(a.company_id, 600_000)
    const over = await toolError(a.client, 'wallet.transfer', { to_company_id: b.company_id, amount: 5000.01 })
    expect(over.error).toBe('validation_error')
    expect(JSON.stringify(over)).toMatch(/5,?000/)
    expect(await toolError(a.client, 'wallet.transfer', { to_company_id: a.company_id, amount: 1 })).toMatchObject({ error: 'validation_error', messages: [expect.stringContaining('another company')] })
    expect(await toolError(a.client, 'wallet.transfer', { to_company_id: '00000000-0000-4000-8000-000000000000', amount: 1 })).toMatchObject({ error: 'not_found' })
    await setBalance(a.company_id, 100)
    expect(await toolError(a.client, 'wallet.transfer', { to_company_id: b.company_id, amount: 1.01 })).toMatchObject({ error: 'insufficient_credit', balance: 1, next_step: 'wallet.deposit' })
    expect(await tool(a.client, 'wallet.transfer', { to_company_id: b.company_id, amount: 1 })).toMatchObject({ balance: 0 })
    expect((await ledger(b.company_id)).cached).toBe(600)
  })

  it('concurrent transfers both ways never take a balance below zero, and the total is kept', async () => {
    const a = await company()
    const b = await company()
    await setBalance(a.company_id, 1000)
    await setBalance(b.company_id, 300)
    const calls = [
      ...Array.from({ length: 15 }, () => a.client.callTool({ name: 'wallet.transfer', arguments: { to_company_id: b.company_id, amount: 1 } })),
      ...Array.from({ length: 15 }, () => b.client.callTool({ name: 'wallet.transfer', arguments: { to_company_id: a.company_id, amount: 0.5 } })),
    ]
    const results = await Promise.all(calls)
    for (const r of results.filter((x) => x.isError)) expect((r.structuredContent as any).error).toBe('insufficient_credit')
    const [la, lb] = [await ledger(a.company_id), await ledger(b.company_id)]
    expect(la.cached).toBe(la.sum)
    expect(lb.cached).toBe(lb.sum)
    expect(la.negative + lb.negative).toBe(0)
    expect(la.cached + lb.cached).toBe(1300)
    const aSent = results.slice(0, 15).filter((r) => !r.isError).length
    const bSent = results.slice(15).filter((r) => !r.isError).length
    expect(la.cached).toBe(1000 - aSent * 100 + bSent * 50)
  })
})

describe('the ledger under random sequences (property)', () => {
  it('deposits, transfers, charges and refunds keep sum(entries) == balance, never below zero', async () => {
    const ids = [(await onboard(app)).company_id, (await onboard(app)).company_id, (await onboard(app)).company_id]
    const op = fc.oneof(
      fc.record({ t: fc.constant('deposit' as const), who: fc.nat(2), cents: fc.integer({ min: 1, max: 100_000 }) }),
      fc.record({ t: fc.constant('charge' as const), who: fc.nat(2), cents: fc.integer({ min: 1, max: 5_000 }) }),
      fc.record({ t: fc.constant('refund' as const), who: fc.nat(2), cents: fc.constant(0) }),
      fc.record({ t: fc.constant('transfer' as const), who: fc.nat(2), to: fc.nat(2), cents: fc.integer({ min: 1, max: 500_000 }) }),
    )
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
      const model = new Map<string, number>()
      for (const id of ids) model.set(id, (await ledger(id)).cached)
      const charges: { id: string; entry: string; cents: number }[] = []
      const now = new Date()
      for (const o of ops) {
        const id = ids[o.who]!
        const have = model.get(id)!
        const ref = randomBytes(8).toString('hex')
        if (o.t === 'deposit') {
          const r = await postEntry(app.owner, { companyId: id, kind: 'deposit', cents: o.cents, reference: ref, at: now })
          expect(r.status).toBe('applied')
          model.set(id, have + o.cents)
        } else if (o.t === 'charge') {
          const r = await postEntry(app.owner, { companyId: id, kind: 'charge', cents: -o.cents, operation: 'leads.list', at: now })
          expect(r.status).toBe(o.cents <= have ? 'applied' : 'insufficient')
          if (r.status === 'applied') { model.set(id, have - o.cents); charges.push({ id, entry: r.entryId!, cents: o.cents }) }
        } else if (o.t === 'refund') {
          const charge = charges.pop()
          if (!charge) continue
          const reference = `charge:${charge.entry}`
          expect((await postEntry(app.owner, { companyId: charge.id, kind: 'refund', cents: charge.cents, reference, at: now })).status).toBe('applied')
          // Given back once: the same refund again is a duplicate.
          expect((await postEntry(app.owner, { companyId: charge.id, kind: 'refund', cents: charge.cents, reference, at: now })).status).toBe('duplicate')
          model.set(charge.id, model.get(charge.id)! + charge.cents)
        } else {
          const to = ids[o.to]!
          const r = await transferCredit(app.owner, { fromId: id, toId: to, cents: o.cents, reference: ref, note: null, at: now })
          const expected = to === id ? 'same_company' : o.cents <= have ? 'applied' : 'insufficient'
          expect(r.status).toBe(expected)
          if (expected === 'applied') { model.set(id, have - o.cents); model.set(to, model.get(to)! + o.cents) }
        }
      }
      for (const id of ids) {
        const l = await ledger(id)
        expect(l).toEqual({ cached: model.get(id), sum: model.get(id), negative: 0 })
      }
    }), { numRuns: 30 })
  })
})

describe('wallet.deposit with Stripe (stripe-mock)', () => {
  const SECRET = 'whsec_wallet_secret'
  let stripeApp: TestApp
  let proxy: Server
  const sessions: URLSearchParams[] = []

  beforeAll(async () => {
    const upstream = inject('stripeMockUrl')
    // Keeps the Checkout Sessions asked for (stripe-mock remembers nothing) to see mode and metadata.
    proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const body = Buffer.concat(chunks).toString()
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') sessions.push(new URLSearchParams(body))
      const headers = Object.fromEntries(['authorization', 'content-type', 'stripe-account', 'stripe-version', 'idempotency-key'].flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])))
      const answer = await fetch(`${upstream}${req.url}`, { method: req.method, headers, body: body || undefined })
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_proxy' })
      res.end(await answer.text())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    stripeApp = await startTestApp({ config: {
      WALLET_STARTING_CREDIT_CENTS: 500, PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    } })
  })
  afterAll(async () => {
    await stripeApp?.stop()
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()))
  })

  const send = (event: unknown) => {
    const body = JSON.stringify(event)
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: Math.floor(Date.now() / 1000) })
    return stripeApp.call('POST', '/api/v1/payments/webhooks/stripe', { raw: body, headers: { 'stripe-signature': header } })
  }
  const completed = (companyId: string, depositId: string, cents: number, extra: Record<string, unknown> = {}) => ({
    id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', api_version: Stripe.API_VERSION, type: 'checkout.session.completed', created: Math.floor(Date.now() / 1000), livemode: false,
    data: { object: { id: `cs_test_${randomBytes(8).toString('hex')}`, object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', currency: 'aud', amount_total: cents, payment_intent: `pi_${randomBytes(8).toString('hex')}`, metadata: { company_id: companyId, wallet_deposit_id: depositId } } },
    ...extra,
  })

  it('a Checkout Session in payment mode; the signed event credits once when sent twice', async () => {
    const c = await company(stripeApp)
    const { deposit } = await tool(c.client, 'wallet.deposit', { amount: 120.5 })
    expect(deposit).toMatchObject({ provider: 'stripe', status: 'pending', amount: 120.5 })
    expect(deposit.pay_url).toMatch(/^https?:\/\//)
    const asked = sessions.at(-1)!
    expect(asked.get('mode')).toBe('payment')
    expect(asked.get('metadata[wallet_deposit_id]')).toBe(deposit.id)
    expect(asked.get('metadata[company_id]')).toBe(c.company_id)
    expect(asked.get('line_items[0][price_data][unit_amount]')).toBe('12050')
    expect((await ledger(c.company_id, stripeApp)).cached).toBe(500)

    const event = completed(c.company_id, deposit.id, 12050)
    const first = await send(event)
    const again = await send(event)
    expect([first.body.status, again.body.status]).toEqual(['recorded', 'duplicate'])
    // Another event for the same deposit (a retried session) credits nothing more either.
    expect((await send(completed(c.company_id, deposit.id, 12050))).body.status).toBe('duplicate')
    expect(await ledger(c.company_id, stripeApp)).toEqual({ cached: 500 + 12050, sum: 500 + 12050, negative: 0 })
  })

  it('an event for another amount, on a connected account, or unsigned credits nothing', async () => {
    const c = await company(stripeApp)
    const { deposit } = await tool(c.client, 'wallet.deposit', { amount: 10 })
    expect((await send(completed(c.company_id, deposit.id, 999))).body.status).toBe('ignored')
    expect((await send(completed(c.company_id, deposit.id, 1000, { account: 'acct_someone' }))).body.status).toBe('ignored')
    const unsigned = await stripeApp.call('POST', '/api/v1/payments/webhooks/stripe', { raw: JSON.stringify(completed(c.company_id, deposit.id, 1000)), headers: { 'stripe-signature': 't=1,v1=00' } })
    expect(unsigned.status).toBe(400)
    expect(await ledger(c.company_id, stripeApp)).toEqual({ cached: 500, sum: 500, negative: 0 })
  })
})
