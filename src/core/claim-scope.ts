// The idempotency claim a write call holds, for the call's own transactions to mark (docs/decisions.md,
// "A committed write is never run twice"). execute() runs a keyed write in this scope; withTenant
// (db/sql.ts), just before COMMIT, sets the claim's wrote_at when that transaction changed anything,
// in the same transaction: so once any change of the call has committed, the claim says so, and a
// retry whose first request died before it could answer is refused rather than run again. A
// transaction that only read, or rolled back, leaves the claim as it was: the write may still run.
// Kept apart from core/idempotency.ts, which imports db/sql.ts (no import cycle).
import { AsyncLocalStorage } from 'node:async_hooks'

export interface HeldClaim {
  companyId: string
  key: string
}

const scope = new AsyncLocalStorage<HeldClaim>()

export function runHoldingClaim<T>(claim: HeldClaim, fn: () => Promise<T>): Promise<T> {
  return scope.run(claim, fn)
}

/** The key of the claim this call holds for the company, if any: its transactions mark it. */
export function heldClaimKey(companyId: string): string | null {
  const claim = scope.getStore()
  return claim && claim.companyId === companyId ? claim.key : null
}
