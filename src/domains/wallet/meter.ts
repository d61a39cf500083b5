// The credit meter the execution pipeline calls (deps.credits, core/execute.ts). An MCP tool call is
// charged by its cost class (prices.ts); REST calls are not (the plans price API calls by the month:
// docs/decisions.md, "The wallet").
// - A write is charged inside its own transaction (pending(): core/charge-scope.ts), so the charge
//   commits with the change or rolls back with it.
// - A read changes nothing, so there is nothing to be atomic with: it is charged before it runs, in
//   a batch with the company's other calls of the moment (charge-batcher.ts), and given back with a
//   refund entry if it fails.
import type postgres from 'postgres'
import type { CreditMeter, Deps } from '../../core/deps.js'
import type { PendingCharge } from '../../core/charge-scope.js'
import { AppError } from '../../core/errors.js'
import { formatCents } from '../../core/money.js'
import { PRICE_CENTS } from '../../core/cost.js'
import { postEntry } from './queries.js'
import { chargeBatcherOf } from './charge-batcher.js'

function notEnoughCredit(operation: string, cents: number, balanceCents: number): AppError {
  return new AppError('insufficient_credit',
    `${operation} costs ${formatCents(cents)} of credit and the wallet holds ${formatCents(balanceCents)}. Add credit with wallet.deposit (from $5), then call again.`,
    { balance: balanceCents / 100, price: cents / 100, next_step: 'wallet.deposit' })
}

export function creditMeter(deps: Pick<Deps, 'db' | 'clock' | 'config'>): CreditMeter {
  const priceOf = (call: Parameters<CreditMeter['charge']>[0]) =>
    !deps.config.WALLET_CHARGING || call.transport !== 'mcp' || !call.principal ? 0 : PRICE_CENTS[call.operation.cost]
  return {
    async charge(call) {
      const cents = priceOf(call)
      if (cents === 0) return null
      const companyId = call.principal!.companyId
      const charged = await chargeBatcherOf(deps).charge(companyId, cents, call.operation.name)
      if (charged.status !== 'applied') throw notEnoughCredit(call.operation.name, cents, charged.balanceCents)
      return { companyId, entryId: charged.entryId!, cents, operation: call.operation.name }
    },
    pending(call): PendingCharge | null {
      const cents = priceOf(call)
      if (cents === 0) return null
      const companyId = call.principal!.companyId
      const pending: PendingCharge = {
        companyId, taken: false, committed: false, cents, operation: call.operation.name,
        async take(tx: postgres.TransactionSql) {
          const charged = await postEntry(tx, { companyId, kind: 'charge', cents: -cents, operation: call.operation.name, at: deps.clock.now() })
          if (charged.status !== 'applied') throw notEnoughCredit(call.operation.name, cents, charged.balanceCents)
          pending.entryId = charged.entryId!
        },
      }
      return pending
    },
    async refund(receipt) {
      // Referenced by the charge's entry: a refund retried after a lost answer is given once.
      await postEntry(deps.db.app, { companyId: receipt.companyId, kind: 'refund', cents: receipt.cents, operation: receipt.operation, reference: `charge:${receipt.entryId}`, at: deps.clock.now() })
    },
  }
}
