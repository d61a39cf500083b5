// Wakes the delivery workflows of subscriptions with new deliveries. The trigger on event_outbox
// writes the deliveries in the event's own transaction and NOTIFYs at commit (a redelivery does the
// same); this wakes on that at once and also sweeps on a timer. Per pass it signals each
// subscription's workflow once (signalWithStart: it starts the run if none is open) for all of that
// subscription's new deliveries, then marks those deliveries signalled (workflow_started_at). A
// crash between commit and signal leaves them unmarked, so the sweep signals within its interval;
// signalling twice is harmless (the workflow reads what is due from the database).
import type { Deps } from '../../core/deps.js'
import { workflowStart } from '../../temporal/contract.js'
import { eachAtMost } from '../../temporal/outbox.js'
import { deliveriesRunInput, webhookDeliveriesDefinition } from './delivery-batch.js'
import { deliveriesPendingSignal } from './workflows/webhook-deliveries.js'
import { markDeliveriesStarted, unsignalledDeliveries } from './queries.js'

const BATCH = 500
/** Signals in flight at once (each one round trip to Temporal). */
const SIGNALS_AT_ONCE = 20

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<void> | null = null
  private again = false
  private unlisten: (() => Promise<void>) | null = null
  private stopped = false

  constructor(private readonly deps: Deps, private readonly sweepMs: number) {}

  async start(): Promise<void> {
    const listener = await this.deps.db.listener.listen('webhook_deliveries', () => this.wake())
    this.unlisten = () => listener.unlisten()
    this.timer = setInterval(() => this.wake(), this.sweepMs)
    this.timer.unref()
    this.wake()
  }

  /** Drains until nothing is left; a wake during a drain runs one more pass after it. */
  wake(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = this.drain()
      .catch((error) => this.deps.logger.error({ err: error }, 'webhook dispatch pass failed'))
      .finally(() => {
        this.running = null
        if (this.again) {
          this.again = false
          this.wake()
        }
      })
  }

  private async drain(): Promise<void> {
    for (;;) {
      const rows = await unsignalledDeliveries(this.deps.db.app, BATCH)
      if (!rows.length || this.stopped) return
      const bySubscription = new Map<string, { companyId: string; subscriptionId: string; ids: string[] }>()
      for (const r of rows) {
        const entry = bySubscription.get(r.subscription_id) ?? { companyId: r.company_id, subscriptionId: r.subscription_id, ids: [] }
        entry.ids.push(r.id)
        bySubscription.set(r.subscription_id, entry)
      }
      // Only the deliveries read before the signal are marked: one committed after it is read by the
      // next pass and signalled again, so the workflow cannot have drained before it existed unseen.
      const signalled: string[] = []
      await eachAtMost(SIGNALS_AT_ONCE, [...bySubscription.values()], async (s) => {
        const spec = workflowStart(webhookDeliveriesDefinition, deliveriesRunInput(this.deps, s))
        if ((await this.deps.workflows.signalWithStart(spec, deliveriesPendingSignal)).started) signalled.push(...s.ids)
      })
      if (signalled.length) await markDeliveriesStarted(this.deps.db.app, signalled)
      if (signalled.length < rows.length) return // some signals failed: the sweep tries again
    }
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    await this.unlisten?.().catch(() => {})
    await this.running
  }
}
