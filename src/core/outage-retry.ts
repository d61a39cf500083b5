// A write that must not be lost to a short database outage, tried again while the database comes
// back: the record that a provider took a message (comms/send.ts) and an idempotency key's response
// (core/idempotency.ts), both written after something that cannot be taken back has happened.
import { fromDatabaseOutage } from './errors.js'

/** Pauses between tries: about 6 s in all (a Postgres restart takes about 3 s). */
const OUTAGE_RETRY_MS = [250, 500, 1000, 2000, 2000]

/** fn, tried again after each pause while it fails with a lost database connection; any other error at once. */
export async function retryThroughOutage<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn()
    } catch (error) {
      const pause = OUTAGE_RETRY_MS[attempt]
      if (!fromDatabaseOutage(error) || pause === undefined) throw error
      await new Promise((resolve) => setTimeout(resolve, pause))
    }
  }
}
