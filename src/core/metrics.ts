// Prometheus metrics (GET /metrics, app.ts). One registry per app instance, made on first use and
// kept on its deps (onePerApp): tests run several instances in one process, and the global default
// registry would mix their counts. Counters are bumped where the outcome is known (execute.ts,
// comms/send.ts, webhooks/delivery.ts); the outbox gauges are read from the database on scrape.
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import { onePerApp, type Deps } from './deps.js'

/** The outboxes whose backlog is reported; each read through its relay's own cross-tenant function. */
const OUTBOXES = {
  // Workflow starts committed but not yet started (the relay's pending_workflow_outbox).
  workflow: `select count(*)::int as backlog, extract(epoch from now() - min(created_at))::float8 as age
    from pending_workflow_outbox('0 seconds'::interval, $1)`,
  // Webhook deliveries written by the event trigger whose subscription's workflow has not been
  // signalled for them yet (the function returns no timestamp, so this one has a backlog and no age).
  webhook_deliveries: 'select count(*)::int as backlog, null::float8 as age from unstarted_webhook_deliveries($1)',
} as const

/**
 * Past this many waiting rows the backlog reads as this number: a scrape stays one bounded query
 * however far behind the relay is (and an alert fires long before).
 */
export const OUTBOX_COUNT_CAP = 10_000

export interface Metrics {
  registry: Registry
  requests: Counter<'operation' | 'transport' | 'status'>
  duration: Histogram<'operation' | 'transport'>
  quotaRefusals: Counter<'limit'>
  messages: Counter<'channel' | 'outcome'>
  webhookDeliveries: Counter<'outcome'>
  walletCharges: Counter<'cost'>
  walletChargeCents: Counter<'cost'>
}

export const metricsOf = onePerApp((deps: Pick<Deps, 'db' | 'logger'>): Metrics => {
  const registry = new Registry()
  const registers = [registry]
  // One reading fills both gauges: prom-client awaits each metric's collect on scrape, and the
  // second reuses the first's promise rather than querying again.
  let reading: Promise<void> | null = null
  const readOutboxes = () => (reading ??= (async () => {
    try {
      for (const [outbox, query] of Object.entries(OUTBOXES)) {
        const [row] = await deps.db.app.unsafe<{ backlog: number; age: number | null }[]>(query, [OUTBOX_COUNT_CAP])
        backlog.set({ outbox }, row?.backlog ?? 0)
        age.set({ outbox }, row?.age ?? 0)
      }
    } catch (err) {
      // A scrape during a database outage still answers with the other series.
      deps.logger.warn({ err }, 'metrics: outbox backlog not read')
    } finally {
      setImmediate(() => (reading = null))
    }
  })())
  const backlog = new Gauge({ name: 'tradie_outbox_backlog', help: `Rows waiting in an outbox (read as ${OUTBOX_COUNT_CAP} past that).`, labelNames: ['outbox'], registers, collect: readOutboxes })
  const age = new Gauge({ name: 'tradie_outbox_oldest_age_seconds', help: 'Age of the oldest row waiting in an outbox (0 when empty).', labelNames: ['outbox'], registers, collect: readOutboxes })

  return {
    registry,
    requests: new Counter({ name: 'tradie_requests_total', help: 'Operation calls by operation, transport and HTTP status.', labelNames: ['operation', 'transport', 'status'], registers }),
    duration: new Histogram({
      name: 'tradie_request_duration_seconds', help: 'Operation call latency, authentication to answer.', labelNames: ['operation', 'transport'], registers,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    quotaRefusals: new Counter({ name: 'tradie_quota_refusals_total', help: 'Calls refused by a limit: burst (per key per minute), api_calls (monthly), sms, emails, llm_calls, other.', labelNames: ['limit'], registers }),
    messages: new Counter({ name: 'tradie_messages_total', help: 'Message sends by channel and outcome (the provider status, not_sent, already_sent, refused, error).', labelNames: ['channel', 'outcome'], registers }),
    webhookDeliveries: new Counter({ name: 'tradie_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome.', labelNames: ['outcome'], registers }),
    walletCharges: new Counter({ name: 'tradie_wallet_charges_total', help: 'Wallet charges kept (refunded ones not counted), by cost class.', labelNames: ['cost'], registers }),
    walletChargeCents: new Counter({ name: 'tradie_wallet_charges_cents_total', help: 'Cents charged to wallets and kept, by cost class.', labelNames: ['cost'], registers }),
  }
})
