// Counting API calls toward the monthly quota, exactly, with as few database statements as load
// allows. Each process keeps at most one counting statement in flight per company; calls that
// arrive meanwhile wait and are counted together by the next one (count_api_calls(), migration
// 010), all or none. When only some of a batch fit under the limit, the first ones that fit are
// tried again and the rest refused, so the counter never passes the limit and no call is refused
// while there is room for it. Idle, this is one statement per call, as before; under load the
// statements, round trips and row-lock waits per call fall as the batches grow.
import { onePerApp, type Deps } from './deps.js'
import { usagePeriod, type UsagePeriod } from './period.js'

export type CallOutcome =
  | { kind: 'counted'; used: number; limit: number }
  | { kind: 'refused'; used: number; limit: number; period: UsagePeriod; now: Date }
  /** The company was deleted: no call of it counts any more. */
  | { kind: 'company_gone' }

interface Waiter {
  settle(outcome: CallOutcome): void
  fail(error: unknown): void
}

interface CompanyQueue {
  waiting: Waiter[]
  flushing: boolean
}

interface CountRow {
  allowed: boolean
  used: number
  api_call_limit: number
}

export class ApiCallCounter {
  private readonly queues = new Map<string, CompanyQueue>()

  constructor(private readonly deps: Pick<Deps, 'db' | 'clock'>) {}

  /** Counts one call of the company; resolves with whether it was counted. */
  count(companyId: string): Promise<CallOutcome> {
    let queue = this.queues.get(companyId)
    if (!queue) {
      queue = { waiting: [], flushing: false }
      this.queues.set(companyId, queue)
    }
    const outcome = new Promise<CallOutcome>((settle, fail) => queue.waiting.push({ settle, fail }))
    if (!queue.flushing) void this.flush(companyId, queue)
    return outcome
  }

  private async flush(companyId: string, queue: CompanyQueue): Promise<void> {
    queue.flushing = true
    try {
      while (queue.waiting.length) await this.countBatch(companyId, queue.waiting.splice(0))
    } finally {
      queue.flushing = false
      this.queues.delete(companyId)
    }
  }

  private async countBatch(companyId: string, batch: Waiter[]): Promise<void> {
    let trying = batch
    while (trying.length) {
      const now = this.deps.clock.now()
      const period = usagePeriod(now)
      let row: CountRow | undefined
      try {
        ;[row] = await this.deps.db.app<CountRow[]>`
          select * from count_api_calls(${companyId}, ${period.key}, ${now}, ${trying.length})`
      } catch (error) {
        for (const waiter of trying) waiter.fail(error)
        return
      }
      if (!row) {
        for (const waiter of trying) waiter.settle({ kind: 'company_gone' })
        return
      }
      if (row.allowed) {
        // The calls of a batch are numbered in arrival order: the last one saw the count after it.
        const first = row.used - trying.length
        trying.forEach((waiter, i) => waiter.settle({ kind: 'counted', used: first + i + 1, limit: row.api_call_limit }))
        return
      }
      const room = Math.max(0, row.api_call_limit - row.used)
      const refused: CallOutcome = { kind: 'refused', used: row.used, limit: row.api_call_limit, period, now }
      for (const waiter of trying.slice(room)) waiter.settle(refused)
      trying = trying.slice(0, room)
    }
  }
}

export const apiCallCounterOf = onePerApp((deps: Pick<Deps, 'db' | 'clock'>) => new ApiCallCounter(deps))
