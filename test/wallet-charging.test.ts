// Every MCP tool call is paid from the company's credit wallet by its cost class (SPEC 8: reads
// 0.01, writes 0.05 dollars; discovery, formation, billing and wallet tools free), in the one
// pipeline (core/execute.ts -> domains/wallet/meter.ts), given back when the call fails, never
// charged twice for a replay, never taking the balance below zero however many calls race.
// Expected balances are counted here from the prices, not read from the ledger under test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { setWalletBalance, walletLedger } from './helpers/wallet.js'
import { tool } from './helpers/tools.js'

let app: TestApp
const clients: Client[] = []
beforeAll(async () => {
  // The production starting credit, not the test helper's large one.
  app = await startTestApp({ config: { WALLET_STARTING_CREDIT_CENTS: 500 } })
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await app?.stop()
})

async function company() {
  const signedUp = await onboard(app, { plan: 'business' })
  const client = await connectHttp(app, signedUp.api_key)
  clients.push(client)
  return { ...signedUp, client } as typeof signedUp & { client: Client }
}

const ledger = (companyId: string) => walletLedger(app, companyId)

const setBalance = (companyId: string, cents: number) => setWalletBalance(app, companyId, cents)

describe('the starting credit', () => {
  it('a new company starts with $5.00, said at sign-up and in the MCP instructions', async () => {
    const c = await company()
    expect(c.wallet).toEqual({ balance: 5, deposit_with: 'wallet.deposit' })
    expect(c.message).toContain('starts with $5.00 of credit')
    expect(await ledger(c.company_id)).toEqual({ cached: 500, sum: 500, negative: 0 })
    expect(c.client.getInstructions()).toContain('A new company starts with $5.00')
  })
})

describe('charging tool calls', () => {
  it('a read costs 1 cent and a write 5 over MCP; REST calls and free tools cost nothing', async () => {
    const c = await company()
    await tool(c.client, 'leads.list', {}) // read: 1
    const { lead } = await tool(c.client, 'leads.create', { name: 'Kim Charge' }) // write: 5
    await tool(c.client, 'billing.list_plans', {}) // free
    expect((await app.call('GET', '/api/v1/leads', { key: c.api_key })).status).toBe(200) // REST: free
    expect(lead.id).toEqual(expect.any(String))
    expect(await ledger(c.company_id)).toEqual({ cached: 500 - 1 - 5, sum: 500 - 1 - 5, negative: 0 })
    const [charges] = await app.owner`select count(*)::int as n from wallet_entries where company_id = ${c.company_id} and kind = 'charge'`
    expect(charges!.n).toBe(2)
  })

  it('a failed read is given back; a failed write is never charged, its charge rolled back with it; a replay is charged once', async () => {
    const c = await company()
    const failedRead = await c.client.callTool({ name: 'invoicing.get', arguments: { id: '00000000-0000-4000-8000-000000000000' } })
    expect(failedRead.isError).toBe(true)
    const failedWrite = await c.client.callTool({ name: 'jobs.complete', arguments: { job_id: '00000000-0000-4000-8000-000000000000' } })
    expect(failedWrite.isError).toBe(true)
    expect(await ledger(c.company_id)).toEqual({ cached: 500, sum: 500, negative: 0 })
    // The read was charged before it ran and given back; the write's charge was in its own transaction.
    const entries = await app.owner`select kind, amount_cents::int as cents, operation from wallet_entries where company_id = ${c.company_id} and kind in ('charge', 'refund') order by id`
    expect(entries).toEqual([{ kind: 'charge', cents: -1, operation: 'invoicing.get' }, { kind: 'refund', cents: 1, operation: 'invoicing.get' }])

    const args = { name: 'Once Only', idempotency_key: 'create-once-1' }
    const first = await tool(c.client, 'leads.create', args)
    const again = await tool(c.client, 'leads.create', args)
    expect(again.lead.id).toBe(first.lead.id)
    expect((await ledger(c.company_id)).cached).toBe(500 - 5)
  })

  it('100 concurrent reads on credit for exactly 50: 50 answer, 50 get insufficient_credit, the balance ends at zero', async () => {
    const c = await company()
    await setBalance(c.company_id, 50)
    const results = await Promise.all(Array.from({ length: 100 }, () => c.client.callTool({ name: 'leads.list', arguments: {} })))
    const refused = results.filter((r) => r.isError)
    expect(results.length - refused.length).toBe(50)
    expect(refused.length).toBe(50)
    for (const r of refused) {
      expect(r.structuredContent).toMatchObject({ error: 'insufficient_credit', balance: 0, price: 0.01, next_step: 'wallet.deposit' })
      expect((r.structuredContent as { message: string }).message).toContain('wallet.deposit')
    }
    expect(await ledger(c.company_id)).toEqual({ cached: 0, sum: 0, negative: 0 })
  })

  it("a write's charge commits in its own transaction, with its change; a dry run (which changes nothing) is charged once", async () => {
    const c = await company()
    const { lead } = await tool(c.client, 'leads.create', { name: 'Tx Charge' })
    // The charge and the lead were written by one transaction: the same transaction id on both rows.
    const [charge] = await app.owner`select xmin::text as tx from wallet_entries where company_id = ${c.company_id} and kind = 'charge' and operation = 'leads.create'`
    const [row] = await app.owner`select xmin::text as tx from leads where id = ${lead.id}`
    expect(charge!.tx).toBe(row!.tx)
    const dry = await tool(c.client, 'leads.create', { name: 'Dry Charge', phone: '0412 345 678', dry_run: true })
    expect(dry.lead).toBeNull()
    expect((await ledger(c.company_id)).cached).toBe(500 - 5 - 5)
  })

  it('a write refused for want of credit changes nothing', async () => {
    const c = await company()
    await setBalance(c.company_id, 3)
    const refused = await c.client.callTool({ name: 'leads.create', arguments: { name: 'No Credit' } })
    expect(refused.structuredContent).toMatchObject({ error: 'insufficient_credit', balance: 0.03, price: 0.05 })
    expect((await tool(c.client, 'leads.list', {})).total).toBe(0)
    expect(await ledger(c.company_id)).toEqual({ cached: 2, sum: 2, negative: 0 }) // the list read cost 1
  })

  it('at zero, a free tool still answers, and REST still works', async () => {
    const c = await company()
    await setBalance(c.company_id, 0)
    expect((await c.client.callTool({ name: 'leads.list', arguments: {} })).isError).toBe(true)
    expect((await c.client.callTool({ name: 'billing.status', arguments: {} })).isError).toBeFalsy()
    expect((await app.call('GET', '/api/v1/leads', { key: c.api_key })).status).toBe(200)
  })
})
