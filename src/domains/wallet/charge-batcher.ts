// Tool-call charges with as few statements as load allows, as core/api-calls.ts counts API calls:
// each process keeps at most one charging statement in flight per company; charges that arrive
// meanwhile wait and go together in the next one (wallet_charge_many, migration 027), applied in
// arrival order while the balance covers them. Idle, this is one statement per call; under load the
// statements, round trips and waits on the company's balance row per call fall as the batches grow.
import { onePerApp, type Deps } from '../../core/deps.js'
import { chargeMany, type ChargeOutcome } from './queries.js'

interface Waiter {
  cents: number
  operation: string
  settle(outcome: ChargeOutcome): void
  fail(error: unknown): void
}

export class ChargeBatcher {
  private readonly queues = new Map<string, { waiting: Waiter[]; flushing: boolean }>()

  constructor(private readonly deps: Pick<Deps, 'db' | 'clock'>) {}

  charge(companyId: string, cents: number, operation: string): Promise<ChargeOutcome> {
    let queue = this.queues.get(companyId)
    if (!queue) {
      queue = { waiting: [], flushing: false }
      this.queues.set(companyId, queue)
    }
    const outcome = new Promise<ChargeOutcome>((settle, fail) => queue.waiting.push({ cents, operation, settle, fail }))
    if (!queue.flushing) void this.flush(companyId, queue)
    return outcome
  }

  private async flush(companyId: string, queue: { waiting: Waiter[]; flushing: boolean }): Promise<void> {
    queue.flushing = true
    try {
      while (queue.waiting.length) {
        const batch = queue.waiting.splice(0)
        try {
          const outcomes = await chargeMany(this.deps.db.app, companyId, batch.map((w) => w.cents), batch.map((w) => w.operation), this.deps.clock.now())
          batch.forEach((waiter, i) => waiter.settle(outcomes[i]!))
        } catch (error) {
          for (const waiter of batch) waiter.fail(error)
        }
      }
    } finally {
      queue.flushing = false
      this.queues.delete(companyId)
    }
  }
}

export const chargeBatcherOf = onePerApp((deps: Pick<Deps, 'db' | 'clock'>) => new ChargeBatcher(deps))
