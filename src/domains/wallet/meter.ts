// The credit meter the execution pipeline calls (deps.credits, core/execute.ts): an MCP tool call
// is charged by its cost class before it runs, in one statement that locks the company's balance
// row (wallet_post), and given back with a refund entry when the call fails. REST calls are not
// charged: the plans price API calls by the month (docs/decisions.md, "The wallet").
import type { CreditMeter, Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { formatCents } from '../../core/money.js'
import { PRICE_CENTS } from './prices.js'
import { postEntry } from './queries.js'
import { chargeBatcherOf } from './charge-batcher.js'

export function creditMeter(deps: Pick<Deps, 'db' | 'clock' | 'config'>): CreditMeter {
  return {
    async charge({ principal, operation, transport }) {
      const cents = PRICE_CENTS[operation.cost]
      if (!deps.config.WALLET_CHARGING || transport !== 'mcp' || !principal || cents === 0) return null
      const charged = await chargeBatcherOf(deps).charge(principal.companyId, cents, operation.name)
      if (charged.status !== 'applied') {
        throw new AppError('insufficient_credit',
          `${operation.name} costs ${formatCents(cents)} of credit and the wallet holds ${formatCents(charged.balanceCents)}. Add credit with wallet.deposit (from $5), then call again.`,
          { balance: charged.balanceCents / 100, price: cents / 100, next_step: 'wallet.deposit' })
      }
      return { companyId: principal.companyId, entryId: charged.entryId!, cents, operation: operation.name }
    },
    async refund(receipt) {
      // Referenced by the charge's entry: a refund retried after a lost answer is given once.
      await postEntry(deps.db.app, { companyId: receipt.companyId, kind: 'refund', cents: receipt.cents, operation: receipt.operation, reference: `charge:${receipt.entryId}`, at: deps.clock.now() })
    },
  }
}
