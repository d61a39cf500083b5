// Starts the delivery workflows of events just committed. The trigger on event_outbox writes the
// deliveries in the event's own transaction and NOTIFYs at commit; this wakes on that at once and
// also sweeps on a timer, so a delivery whose start was lost (a crash between commit and start)
// starts within the sweep interval. Starting twice is harmless: the workflow id is the delivery's.
import type { Deps } from '../../core/deps.js'
import { workflowStart } from '../../temporal/contract.js'
import { deliveryRunInput, webhookDeliveryDefinition } from './delivery.js'
import { markDeliveriesStarted, unstartedDeliveries } from './queries.js'

const BATCH = 200

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
      const rows = await unstartedDeliveries(this.deps.db.app, BATCH)
      if (!rows.length || this.stopped) return
      const started: string[] = []
      // Starts in parallel, a few at a time: each is one round trip to Temporal.
      for (let i = 0; i < rows.length; i += 20) {
        const slice = rows.slice(i, i + 20)
        const results = await Promise.all(slice.map((r) =>
          this.deps.workflows.start(workflowStart(webhookDeliveryDefinition, deliveryRunInput(this.deps, { companyId: r.company_id, deliveryId: r.id, run: 0 })))))
        slice.forEach((r, k) => results[k]!.started && started.push(r.id))
      }
      if (started.length) await markDeliveriesStarted(this.deps.db.app, started)
      if (started.length < rows.length) return // some starts failed: the sweep tries again
    }
  }

  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearInterval(this.timer)
    await this.unlisten?.().catch(() => {})
    await this.running
  }
}
