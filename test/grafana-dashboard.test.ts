// The Grafana dashboard in the repo (ops/grafana/tradie-ops.json) and the Temporal worker's own
// metrics (issue 27). A worker process started as in production (src/main-worker.ts) with
// TEMPORAL_METRICS_ADDRESS serves the SDK's Prometheus endpoint (Runtime.install); a lead's instant
// response runs on it. Every series the dashboard queries must be one the service's /metrics or that
// endpoint serves, and every label it groups by one that series has: a renamed metric or label
// would otherwise leave an empty panel that nobody notices until the day it is needed.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { metricsOf } from '../src/core/metrics.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { freePort } from './helpers/local-server.js'
import { waitFor } from './helpers/wait.js'
import { workerProcesses } from './helpers/worker-process.js'

interface Target { expr: string; refId: string }
interface Panel { id: number; type: string; title: string; datasource?: { uid: string }; targets?: Target[] }
const dashboard = JSON.parse(readFileSync(new URL('../ops/grafana/tradie-ops.json', import.meta.url), 'utf8')) as { uid: string; panels: Panel[]; templating: { list: { name: string }[] } }
const charts = dashboard.panels.filter((p) => p.type !== 'row')

/** The metric names an expression reads: our tradie_* and the SDK's temporal_* (labels have neither prefix). */
const metricNames = (expr: string) => [...expr.matchAll(/\b((?:tradie|temporal)_[a-z0-9_]+)\b/g)].map((m) => m[1]!)
/** A histogram's series name its family: x_bucket, x_sum and x_count are x. */
const family = (name: string) => name.replace(/_(bucket|sum|count)$/, '')
/** The labels an expression groups by. */
const groupedBy = (expr: string) => [...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(',').map((l) => l.trim())).filter((l) => l && l !== 'le')

/** family -> the label names its samples carry, from a Prometheus text scrape. */
function families(text: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>()
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line)
    if (type) found.set(type[1]!, found.get(type[1]!) ?? new Set())
    const sample = /^([a-z_0-9]+)\{([^}]*)\}/.exec(line)
    if (sample) {
      const labels = found.get(family(sample[1]!)) ?? new Set<string>()
      for (const m of sample[2]!.matchAll(/(\w+)="/g)) labels.add(m[1]!)
      found.set(family(sample[1]!), labels)
    }
  }
  return found
}

let app: TestApp
let metricsAddress: string
const workers = workerProcesses(() => app, () => ({ TEMPORAL_METRICS_ADDRESS: metricsAddress }))

beforeAll(async () => {
  metricsAddress = `127.0.0.1:${await freePort()}`
  // The worker runs in its own process only: Runtime.install happens once per process, and this
  // test's process already has its runtime (installed without metrics by the first worker here).
  app = await startTestApp({ worker: false })
  await workers.start()
})
afterAll(async () => {
  workers.killAll()
  await app?.stop()
})

describe('the Grafana dashboard and the Temporal worker metrics', () => {
  it('is a dashboard of panels, each on the chosen Prometheus data source with at least one query', () => {
    expect(dashboard.uid).toBe('tradie-ops')
    expect(dashboard.templating.list.map((v) => v.name)).toContain('datasource')
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length)
    for (const panel of charts) {
      expect(panel.title).toBeTruthy()
      expect(panel.datasource?.uid).toBe('${datasource}')
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0)
      for (const t of panel.targets!) {
        expect(metricNames(t.expr).length, `${panel.title}: ${t.expr}`).toBeGreaterThan(0)
        // Balanced parentheses: a cut-and-paste slip shows here rather than as a panel error.
        expect(t.expr.split('(').length, t.expr).toBe(t.expr.split(')').length)
      }
    }
    // The key series of issue 27, each on some panel.
    const queried = new Set(charts.flatMap((p) => p.targets!.flatMap((t) => metricNames(t.expr).map(family))))
    for (const name of [
      'tradie_requests_total', 'tradie_request_duration_seconds', 'tradie_quota_refusals_total', 'tradie_outbox_backlog',
      'tradie_outbox_oldest_age_seconds', 'tradie_messages_total', 'tradie_webhook_deliveries_total', 'tradie_wallet_charges_total',
      'temporal_workflow_task_schedule_to_start_latency', 'temporal_activity_execution_latency', 'temporal_worker_task_slots_used',
    ]) expect(queried, name).toContain(name)
  })

  it('queries only series the service and the worker serve, grouped by labels they have', async () => {
    // Work for the worker: a lead's instant response (a workflow and its activities).
    const company = await onboard(app, { plan: 'business' })
    expect((await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Dash Board', phone: '0412 345 678' } })).status).toBe(201)

    const scrapeWorker = async () => (await fetch(`http://${metricsAddress}/metrics`)).text()
    const temporal = families(await waitFor(scrapeWorker, (t) => t.includes('temporal_activity_execution_latency_bucket{') && t.includes('activity_type="markLeadContacted"')))
    expect(temporal.get('temporal_worker_task_slots_available')).toContain('worker_type')

    const served = families(await (await fetch(`${app.url}/metrics`)).text())
    const registry = metricsOf(app.runtime.deps).registry
    for (const panel of charts) {
      for (const { expr } of panel.targets!) {
        for (const name of metricNames(expr)) {
          const f = family(name)
          // Our series are declared with their labels (a counter nothing has counted yet has no samples).
          const labels = f.startsWith('tradie_')
            ? new Set((registry.getSingleMetric(f) as unknown as { labelNames?: string[] } | undefined)?.labelNames ?? [])
            : temporal.get(f)
          expect(f.startsWith('tradie_') ? served.has(f) : temporal.has(f), `${panel.title}: ${name} is not served`).toBe(true)
          // Each expression here groups one metric (or a histogram's _sum by its _count) by labels it carries.
          for (const label of groupedBy(expr)) expect(labels, `${panel.title}: ${name} has no label ${label}`).toContain(label)
        }
      }
    }
  })
})
