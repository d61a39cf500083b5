// The wallet ledger read apart from the service (the cached balance, the sum of the entries, entries
// below zero), and a balance set for a test with one entry, as a deposit or charge would write it.
import { randomBytes } from 'node:crypto'
import type { TestApp } from './app.js'

export async function walletLedger(app: TestApp, companyId: string) {
  const [cached] = await app.owner<{ balance_cents: string }[]>`select balance_cents from wallet_balances where company_id = ${companyId}`
  const [sum] = await app.owner<{ total: string | null; negative: string }[]>`
    select sum(amount_cents) as total, count(*) filter (where balance_after_cents < 0) as negative from wallet_entries where company_id = ${companyId}`
  return { cached: Number(cached?.balance_cents ?? 0), sum: Number(sum?.total ?? 0), negative: Number(sum?.negative ?? 0) }
}

export async function setWalletBalance(app: TestApp, companyId: string, cents: number) {
  const { cached } = await walletLedger(app, companyId)
  if (cached === cents) return
  await app.owner`select * from wallet_post(${companyId}, ${cents > cached ? 'deposit' : 'charge'}, ${cents - cached}, null, ${`test-${randomBytes(6).toString('hex')}`}, null, 'test balance', now())`
}
