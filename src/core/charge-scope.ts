// A write tool call's charge, taken inside the call's own transaction (docs/decisions.md, "The
// wallet"): execute() runs the operation in this scope, and the first tenant transaction the
// operation opens for the company (db/sql.ts withTenant) takes the charge as its first statement,
// so the charge commits with the change or rolls back with it, and no refund is needed. A call
// whose change never committed in such a transaction (a dry run, which rolls back; an operation that
// writes elsewhere) is charged after it returns, on its own (execute()).
import { AsyncLocalStorage } from 'node:async_hooks'
import type postgres from 'postgres'

export interface PendingCharge {
  companyId: string
  /** Posts the charge in the transaction; throws insufficient_credit when the balance does not cover it. */
  take(tx: postgres.TransactionSql): Promise<void>
  /** Set once a transaction took it. */
  taken: boolean
  /** Set once that transaction committed. */
  committed: boolean
  /** Its ledger entry, once taken: what a refund references if the call fails after it committed. */
  entryId?: string
  cents: number
  operation: string
}

const scope = new AsyncLocalStorage<PendingCharge>()

export function runWithCharge<T>(pending: PendingCharge, fn: () => Promise<T>): Promise<T> {
  return scope.run(pending, fn)
}

/** The call's charge, for the first transaction of its company to take (null: none pending). */
export function claimCharge(companyId: string): PendingCharge | null {
  const pending = scope.getStore()
  if (!pending || pending.taken || pending.companyId !== companyId) return null
  pending.taken = true
  return pending
}
