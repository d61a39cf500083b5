// Outbound webhooks, the whole path: an event row committed to event_outbox, the fan-out trigger,
// the dispatcher (LISTEN, then one signalWithStart per subscription with new deliveries), Temporal,
// the subscription's delivery workflow and its pass activity (claim the due deliveries, sign, POST
// 16 at a time, record each attempt) and a receiver on loopback that answers 200 at once.
//  (a) Burst: N events committed as fast as the database takes them (one transaction each, through
//      the app role and RLS, as recordEvent writes them); deliveries per second until the receiver
//      has them all. Baselines, measured in the same run on the same N deliveries: the same bodies
//      signed and POSTed by a plain loop (one at a time, and 20 at a time); the pass activity alone,
//      called in a loop without Temporal (what the workflow, its signals and the dispatcher add on
//      top); and the per-delivery attempt activity of the design before (one workflow per delivery),
//      20 at a time, the 517/s the issue quotes. Target: >= 100/s.
//  (b) Latency at a steady rate: leads created through POST /api/v1/leads at RATE/s for SECONDS;
//      per event, from its commit (event_outbox.created_at, stamped just before the commit, so the
//      figure includes the commit) to the receiver getting it. Target: p99 < 1 s.
// Also per phase, from the rows: commit -> signalled (the dispatcher: wake, read, signalWithStart,
// mark; an upper bound, the mark comes after its batch) and signalled -> received (Temporal: the
// signal's workflow task, the pass: claim, sign, POST, record); and the delivery workflow's passes.
// The last line printed is one JSON object with the figures (the load suite collects it).
// Run: npm run bench:webhooks   (twice: the embedded dev server with its state in memory, then in its
// SQLite file as npm start runs it; env: WEBHOOK_EVENTS=1000, RATE_PER_SECOND=20, BENCH_SECONDS=15)
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import type { Client } from '@temporalio/client'
import { devStore, reportResult, startBenchService } from './harness.js'
import { withTenant } from '../src/db/sql.js'
import { recordEvent } from '../src/core/events.js'
import { attemptWebhookDelivery, deliveryBody, retrySchedule } from '../src/domains/webhooks/delivery.js'
import { deliverWebhookBatch } from '../src/domains/webhooks/delivery-batch.js'
import { postWebhook } from '../src/domains/webhooks/http-post.js'
import { signDelivery } from '../src/domains/webhooks/signing.js'
import { webhookDeliveriesWorkflowId } from '../src/domains/webhooks/workflows/webhook-deliveries.js'

const events = Number(process.env.WEBHOOK_EVENTS ?? 1000)
const rate = Number(process.env.RATE_PER_SECOND ?? 20)
const seconds = Number(process.env.BENCH_SECONDS ?? 15)
const INSERTERS = 10

const service = await startBenchService('Bench Webhooks Plumbing')
const { base, key, companyId, owner, runtime } = service
const deps = runtime.deps
// The receiver is on loopback, which only this deployment setting allows (the harness starts the
// service with production defaults; the setting is read at subscribe and at each attempt).
deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS = true

// The receiver: first arrival time per webhook-id (ms since the epoch), in the current phase.
let arrivals = new Map<string, number>()
let requests = 0
let waiting: { n: number; resolve: () => void } | null = null
const receiver = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    requests++
    const id = String(req.headers['webhook-id'])
    if (!arrivals.has(id)) arrivals.set(id, Date.now()) // wall clock, like the rows' timestamps
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
    if (waiting && arrivals.size >= waiting.n) waiting.resolve()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
const received = (n: number, timeoutMs: number) => new Promise<void>((resolve, reject) => {
  if (arrivals.size >= n) return resolve()
  const timer = setTimeout(() => reject(new Error(`receiver has ${arrivals.size} of ${n} after ${timeoutMs} ms`)), timeoutMs)
  waiting = { n, resolve: () => { clearTimeout(timer); waiting = null; resolve() } }
})
const newPhase = () => {
  arrivals = new Map()
  requests = 0
}

const api = (method: string, path: string, body?: unknown) => fetch(`${base}/api/v1${path}`, {
  method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
})
const subscribed = await api('POST', '/webhooks', { url: receiverUrl, events: ['lead.created'] })
if (subscribed.status !== 201) throw new Error(`subscribe failed: ${subscribed.status} ${await subscribed.text()}`)
const { secret, subscription } = (await subscribed.json()) as { secret: string; subscription: { id: string } }

// A real lead.created payload to copy (the event's data is the lead as the API shows it).
await api('POST', '/leads', { name: 'Template Lead', suburb: 'Penrith', serviceType: 'Blocked drain' })
const [template] = await owner<{ payload: unknown; event_type: string }[]>`select payload, event_type from event_outbox where event_type = 'lead.created' order by id desc limit 1`

const maxEventId = async () => Number((await owner`select coalesce(max(id), 0)::bigint as id from event_outbox`)[0]!.id)

/** n lead.created events, one transaction each, INSERTERS at a time; resolves when all committed. */
async function commitEvents(n: number): Promise<void> {
  let next = 0
  await Promise.all(Array.from({ length: INSERTERS }, async () => {
    while (next < n) {
      next++
      await withTenant(deps.db, companyId, (tx) => recordEvent(tx, {
        companyId, type: 'lead.created', entityType: 'lead', entityId: randomUUID(), payload: template!.payload, at: new Date(),
      }))
    }
  }))
}

interface Split { commit_to_started_ms: number | null; started_to_received_ms: number | null }
/** Per event after `afterId`: commit time, workflow start mark, and the receiver's arrival. */
async function timings(afterId: number) {
  const rows = await owner<{ id: string; created_ms: number; started_ms: number | null }[]>`
    select e.id::text, extract(epoch from e.created_at) * 1000 as created_ms, extract(epoch from d.workflow_started_at) * 1000 as started_ms
    from event_outbox e join webhook_deliveries d on d.event_id = e.id where e.id > ${afterId} and e.event_type = 'lead.created' order by e.id`
  return rows.map((r) => {
    const at = arrivals.get(`evt_${r.id}`)
    const created = Number(r.created_ms)
    const started = r.started_ms === null ? null : Number(r.started_ms)
    return {
      total: at === undefined ? null : at - created,
      split: { commit_to_started_ms: started === null ? null : started - created, started_to_received_ms: started === null || at === undefined ? null : at - started } as Split,
    }
  })
}

// The subscription's delivery workflow, from its histories: runs (continue-as-new), passes (local
// activities: one marker each), signals taken, and the history events per delivery.
const temporal = (deps.workflows as unknown as { client: Client }).client // the service's own client
async function workflowSummary(deliveries: number) {
  const workflowId = webhookDeliveriesWorkflowId({ companyId, subscriptionId: subscription.id })
  const counts = { runs: 0, passes: 0, signals: 0, history_events: 0 }
  for await (const run of temporal.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    const history = await temporal.workflow.getHandle(workflowId, run.runId).fetchHistory()
    counts.runs++
    for (const e of history.events ?? []) {
      counts.history_events++
      if (e.markerRecordedEventAttributes) counts.passes++
      if (e.workflowExecutionSignaledEventAttributes) counts.signals++
    }
  }
  return { workflow_id: workflowId, ...counts, deliveries, history_events_per_delivery: Math.round((counts.history_events / Math.max(1, deliveries)) * 100) / 100 }
}

const round = (v: number) => Math.round(v * 10) / 10
const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000
function percentiles(values: number[]) {
  const ms = [...values].sort((a, b) => a - b)
  const pct = (p: number) => round(ms[Math.min(ms.length - 1, Math.max(0, Math.ceil((p / 100) * ms.length) - 1))] ?? NaN)
  return { p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100) }
}
const splitPercentiles = (splits: Split[]) => ({
  commit_to_signalled_ms: percentiles(splits.map((s) => s.commit_to_started_ms).filter((v): v is number => v !== null)),
  signalled_to_received_ms: percentiles(splits.map((s) => s.started_to_received_ms).filter((v): v is number => v !== null)),
})

// Warm-up: the worker's first workflow and activity tasks, pooled connections.
newPhase()
await commitEvents(20)
await received(20, 60_000)

// (a) Throughput.
newPhase()
const beforeA = await maxEventId()
const startA = performance.now()
await commitEvents(events)
const committedA = performance.now()
await received(events, 300_000)
const doneA = performance.now()
const serviceRate = events / ((doneA - startA) / 1000)
const requestsA = requests
// The drain alone: first to last arrival (the burst figure above also waits on the commits, which
// here run at about the same rate as the deliveries).
const arrivalTimes = [...arrivals.values()]
const drainRate = events / (Math.max(1, Math.max(...arrivalTimes) - Math.min(...arrivalTimes)) / 1000)
const splitsA = (await timings(beforeA)).map((t) => t.split)
await waitDelivered(beforeA, events)

// Baseline: the same bodies, signed the same way, POSTed by a plain loop.
const rowsA = await owner<{ event_id: string; event_type: string; created_at: Date; payload: unknown; entity_type: string; entity_id: string }[]>`
  select id::text as event_id, event_type, created_at, payload, entity_type, entity_id from event_outbox where id > ${beforeA} and event_type = 'lead.created' order by id`
const plainPost = (row: (typeof rowsA)[number]) => {
  const body = deliveryBody(row, companyId)
  const headers = signDelivery({ messageId: `evt_${row.event_id}`, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret] })
  return postWebhook({ url: receiverUrl, body, headers, allowPrivate: true, timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS })
}
async function plainRun(parallel: number): Promise<number> {
  newPhase()
  const started = performance.now()
  let next = 0
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < rowsA.length) {
      const outcome = await plainPost(rowsA[next++]!)
      if (!outcome.ok) throw new Error(`plain POST failed: ${outcome.error ?? outcome.status}`)
    }
  }))
  if (arrivals.size !== rowsA.length) throw new Error(`plain run: receiver has ${arrivals.size} of ${rowsA.length}`)
  return rowsA.length / ((performance.now() - started) / 1000)
}
const plainSequential = await plainRun(1)
const plainParallel = await plainRun(20)

// The pass activity alone, no Temporal: the same deliveries set pending again as a run the finished
// passes never used (run 1, attempt 1, due now) and drained by calling the activity function in a
// loop until nothing is due. They are already marked signalled, so the dispatcher leaves them be and
// the (idle) workflow is not woken.
const deliveryIdsA = (await owner<{ id: string }[]>`select id from webhook_deliveries where event_id > ${beforeA} order by event_id`).map((r) => r.id)
const reopen = (run: number) => owner`update webhook_deliveries set status = 'pending', redeliveries = ${run}, next_attempt = 1, next_attempt_at = now() where event_id > ${beforeA}`
await reopen(1)
newPhase()
const passStarted = performance.now()
for (;;) {
  const pass = await deliverWebhookBatch(deps, { companyId, subscriptionId: subscription.id, scheduleMs: retrySchedule(deps) })
  if (!pass.attempted) break
}
const passAlone = deliveryIdsA.length / ((performance.now() - passStarted) / 1000)
if (arrivals.size !== deliveryIdsA.length) throw new Error(`pass activity alone: receiver has ${arrivals.size} of ${deliveryIdsA.length}`)

// The per-delivery attempt activity of the design before (one workflow per delivery), 20 at a time,
// on the same deliveries as run 2 (with next_attempt_at null, as the rows that design owns).
await owner`update webhook_deliveries set status = 'pending', redeliveries = 2, next_attempt_at = null where event_id > ${beforeA}`
newPhase()
const activityStarted = performance.now()
let nextDelivery = 0
await Promise.all(Array.from({ length: 20 }, async () => {
  while (nextDelivery < deliveryIdsA.length) {
    const deliveryId = deliveryIdsA[nextDelivery++]!
    const result = await attemptWebhookDelivery(deps, { companyId, deliveryId, run: 2, attempt: 1, last: false })
    if (result.outcome !== 'delivered') throw new Error(`activity alone: ${result.outcome}`)
  }
}))
const activityAlone = deliveryIdsA.length / ((performance.now() - activityStarted) / 1000)

/** Waits until the deliveries of events after afterId are all recorded as delivered. */
async function waitDelivered(afterId: number, n: number): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const [{ done }] = (await owner`select count(*)::int as done from webhook_deliveries where event_id > ${afterId} and status = 'delivered'`) as unknown as [{ done: number }]
    if (done >= n) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('deliveries were not all recorded as delivered')
}

// (b) Latency at a steady rate, through the API.
newPhase()
const beforeB = await maxEventId()
const totalB = rate * seconds
const startB = Date.now()
const creations: Promise<Response>[] = []
for (let i = 0; i < totalB; i++) {
  const wait = startB + (i * 1000) / rate - Date.now()
  if (wait > 0) await new Promise((r) => setTimeout(r, wait))
  creations.push(api('POST', '/leads', { name: `Customer ${i}`, suburb: 'Penrith', serviceType: 'Blocked drain' }))
}
const statuses = (await Promise.all(creations)).map((r) => r.status)
if (statuses.some((s) => s !== 201)) throw new Error(`lead creation failed: ${statuses.filter((s) => s !== 201).length}`)
await received(totalB, 120_000)
const timedB = await timings(beforeB)
const latencyB = percentiles(timedB.map((t) => t.total).filter((v): v is number => v !== null))
await waitDelivered(beforeB, totalB)
const workflow = await workflowSummary(events + totalB + 20)

const throughput = {
  events,
  events_committed_per_second: Math.round(events / ((committedA - startA) / 1000)),
  deliveries_per_second: Math.round(serviceRate),
  first_to_last_arrival_per_second: Math.round(drainRate),
  requests_seen: requestsA,
  plain_loop_sequential_per_second: Math.round(plainSequential),
  plain_loop_20_parallel_per_second: Math.round(plainParallel),
  pass_activity_alone_per_second: Math.round(passAlone),
  attempt_activity_alone_20_parallel_per_second: Math.round(activityAlone),
  ratio_vs_plain_sequential: ratio(serviceRate, plainSequential),
  ratio_vs_plain_20_parallel: ratio(serviceRate, plainParallel),
  ratio_vs_pass_activity_alone: ratio(serviceRate, passAlone),
  ratio_vs_attempt_activity_alone: ratio(serviceRate, activityAlone),
  target_per_second: 100,
  met: serviceRate >= 100,
  ...splitPercentiles(splitsA),
}
const latency = {
  rate_per_second: rate,
  seconds,
  events: totalB,
  received: timedB.filter((t) => t.total !== null).length,
  commit_to_received_ms: latencyB,
  target_p99_ms: 1000,
  met: latencyB.p99 < 1000,
  ...splitPercentiles(timedB.map((t) => t.split)),
}
console.log('\nWebhooks')
console.table({
  'deliveries/s (burst)': {
    service: throughput.deliveries_per_second, 'plain loop': throughput.plain_loop_sequential_per_second, 'plain x20': throughput.plain_loop_20_parallel_per_second,
    'pass activity alone': throughput.pass_activity_alone_per_second, 'attempt activity alone x20': throughput.attempt_activity_alone_20_parallel_per_second, target: '>= 100',
  },
  [`p50 ms @ ${rate}/s`]: { service: latencyB.p50, target: '' },
  [`p99 ms @ ${rate}/s`]: { service: latencyB.p99, target: '< 1000' },
})
// Other processes on the machine skew every figure here: the load average says how busy it was.
const temporalSetup = process.env.TEMPORAL_ADDRESS ? 'given' : `embedded dev server, state in ${devStore() === 'memory' ? 'memory' : 'a SQLite file'}`
const name = process.env.TEMPORAL_ADDRESS ? 'webhooks' : `webhooks-${devStore()}`
const load = loadavg().map((v) => Math.round(v * 100) / 100)
reportResult(name, {
  headline: {
    ratio_of: `burst deliveries/s ÷ the delivery pass activity alone (${temporalSetup})`, ratio: throughput.ratio_vs_pass_activity_alone, better: 'higher',
    goal: `>= 100 deliveries/s, p99 < 1 s at ${rate}/s`, met: throughput.met && latency.met,
    figures: { 'deliveries/s': throughput.deliveries_per_second, 'pass activity alone/s': throughput.pass_activity_alone_per_second, [`p99 ms @${rate}/s`]: latencyB.p99 },
  },
  load_average_at_end: load, temporal: temporalSetup, throughput, latency, workflow,
})
// One line for the log: the figures the issue asks for, beside the baselines of this run.
console.log(JSON.stringify({
  bench: name, burst_events: events, burst_deliveries_per_second: throughput.deliveries_per_second,
  pass_activity_alone_per_second: throughput.pass_activity_alone_per_second, attempt_activity_alone_per_second: throughput.attempt_activity_alone_20_parallel_per_second,
  ratio_vs_pass_activity_alone: throughput.ratio_vs_pass_activity_alone, ratio_vs_attempt_activity_alone: throughput.ratio_vs_attempt_activity_alone,
  steady_rate_per_second: rate, steady_p50_ms: latencyB.p50, steady_p99_ms: latencyB.p99, burst_met: throughput.met, latency_met: latency.met, load_average_at_end: load,
}))
receiver.closeAllConnections()
receiver.close()
await service.stop()
