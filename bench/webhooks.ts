// Outbound webhooks, the whole path: an event row committed to event_outbox, the fan-out trigger,
// the dispatcher (LISTEN + start one workflow per delivery), Temporal, the delivery activity (load,
// sign, POST, record) and a receiver on loopback that answers 200 at once.
//  (a) Throughput: N events committed as fast as the database takes them (one transaction each,
//      through the app role and RLS, as recordEvent writes them); deliveries per second until the
//      receiver has them all. Baseline: the same N bodies, signed and POSTed with postWebhook by a
//      plain loop in the same process (one at a time, and 20 at a time); and the delivery activity
//      called directly, without Temporal (what the database bookkeeping adds). Target: >= 100/s.
//  (b) Latency at a steady rate: leads created through POST /api/v1/leads at RATE/s for SECONDS;
//      per event, from its commit (event_outbox.created_at, stamped just before the commit, so the
//      figure includes the commit) to the receiver getting it. Target: p99 < 1 s.
// Also per phase, from the rows: commit -> workflow started (dispatcher: wake, claim, start call,
// mark; an upper bound, the mark comes after its batch) and started -> received (Temporal: waiting
// for the worker, the workflow task, the attempt's load + sign + POST); and, from the Temporal
// histories of a sample, the stages inside Temporal.
// Run: npm run bench:webhooks   (twice: the embedded dev server with its state in memory, then in its
// SQLite file as npm start runs it; env: WEBHOOK_EVENTS=500, RATE_PER_SECOND=20, BENCH_SECONDS=15,
// TEMPORAL_EAGER_START=false to compare starts through the task queue)
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { loadavg } from 'node:os'
import type { Client } from '@temporalio/client'
import { devStore, reportResult, startBenchService } from './harness.js'
import { withTenant } from '../src/db/sql.js'
import { recordEvent } from '../src/core/events.js'
import { attemptWebhookDelivery, deliveryBody } from '../src/domains/webhooks/delivery.js'
import { postWebhook } from '../src/domains/webhooks/http-post.js'
import { signDelivery } from '../src/domains/webhooks/signing.js'
import { webhookDeliveryWorkflowId } from '../src/domains/webhooks/workflows/webhook-delivery.js'

const events = Number(process.env.WEBHOOK_EVENTS ?? 500)
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
const { secret } = (await subscribed.json()) as { secret: string }

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

// Where the time goes inside Temporal, from the histories of a sample of delivery workflows:
// start -> first workflow task picked up by the worker (queueing) -> that task done (with a local
// activity, the attempt itself: load, sign, POST, record) -> and, for an activity that is not
// local, its pickup, run, and the workflow task that closes the run.
const temporal = (deps.workflows as unknown as { client: Client }).client // the service's own client
const SAMPLE = 40
async function temporalBreakdown(afterId: number) {
  const rows = await owner<{ id: string }[]>`select id::text from webhook_deliveries where event_id > ${afterId} order by event_id`
  const step = Math.max(1, Math.floor(rows.length / SAMPLE))
  const sample = rows.filter((_, i) => i % step === 0).slice(0, SAMPLE)
  const stages: Record<string, number[]> = {}
  const add = (stage: string, ms: number) => Number.isFinite(ms) && (stages[stage] ??= []).push(ms)
  const kinds = { local_activity: 0, activity: 0 }
  for (const r of sample) {
    const history = await temporal.workflow.getHandle(webhookDeliveryWorkflowId({ companyId, deliveryId: r.id, run: 0 })).fetchHistory()
    const events = history.events ?? []
    type HistoryEvent = (typeof events)[number]
    const at = (e: HistoryEvent | undefined) => (e?.eventTime ? Number(e.eventTime.seconds) * 1000 + (e.eventTime.nanos ?? 0) / 1e6 : NaN)
    const find = (key: keyof HistoryEvent) => events.find((e) => e[key])
    const started = at(find('workflowExecutionStartedEventAttributes'))
    const wft1Started = at(find('workflowTaskStartedEventAttributes'))
    const wft1Done = at(find('workflowTaskCompletedEventAttributes'))
    const closed = at(find('workflowExecutionCompletedEventAttributes'))
    add('start_to_first_task_picked_up_ms', wft1Started - started)
    add('first_task_ms', wft1Done - wft1Started)
    if (find('markerRecordedEventAttributes')) kinds.local_activity++
    const actScheduled = at(find('activityTaskScheduledEventAttributes'))
    if (Number.isFinite(actScheduled)) {
      kinds.activity++
      const actStarted = at(find('activityTaskStartedEventAttributes'))
      const actDone = at(find('activityTaskCompletedEventAttributes'))
      add('activity_pickup_ms', actStarted - actScheduled)
      add('activity_run_ms', actDone - actStarted)
      add('activity_done_to_closed_ms', closed - actDone)
    }
    add('start_to_closed_ms', closed - started)
  }
  return { sampled: sample.length, attempts_as: kinds, ...Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, percentiles(v)])) }
}

const round = (v: number) => Math.round(v * 10) / 10
function percentiles(values: number[]) {
  const ms = [...values].sort((a, b) => a - b)
  const pct = (p: number) => round(ms[Math.min(ms.length - 1, Math.max(0, Math.ceil((p / 100) * ms.length) - 1))] ?? NaN)
  return { p50: pct(50), p90: pct(90), p99: pct(99), max: pct(100) }
}
const splitPercentiles = (splits: Split[]) => ({
  commit_to_workflow_started_ms: percentiles(splits.map((s) => s.commit_to_started_ms).filter((v): v is number => v !== null)),
  workflow_started_to_received_ms: percentiles(splits.map((s) => s.started_to_received_ms).filter((v): v is number => v !== null)),
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
const splitsA = (await timings(beforeA)).map((t) => t.split)
await waitDelivered(beforeA, events)
const temporalA = await temporalBreakdown(beforeA)

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

// The delivery activity alone, no Temporal: the same deliveries set back to pending and attempted
// by calling the activity function directly (load, sign, POST, record), 20 at a time, as a run the
// finished workflows never used (run 1), so nothing else touches them.
const deliveryIdsA = (await owner<{ id: string }[]>`select id from webhook_deliveries where event_id > ${beforeA} order by event_id`).map((r) => r.id)
await owner`update webhook_deliveries set status = 'pending' where event_id > ${beforeA}`
newPhase()
const activityStarted = performance.now()
let nextDelivery = 0
await Promise.all(Array.from({ length: 20 }, async () => {
  while (nextDelivery < deliveryIdsA.length) {
    const deliveryId = deliveryIdsA[nextDelivery++]!
    const result = await attemptWebhookDelivery(deps, { companyId, deliveryId, run: 1, attempt: 1, last: false })
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
const temporalB = await temporalBreakdown(beforeB)

const throughput = {
  events,
  events_committed_per_second: Math.round(events / ((committedA - startA) / 1000)),
  deliveries_per_second: Math.round(serviceRate),
  requests_seen: requestsA,
  plain_loop_sequential_per_second: Math.round(plainSequential),
  plain_loop_20_parallel_per_second: Math.round(plainParallel),
  activity_alone_20_parallel_per_second: Math.round(activityAlone),
  ratio_vs_plain_sequential: Math.round((serviceRate / plainSequential) * 1000) / 1000,
  ratio_vs_plain_20_parallel: Math.round((serviceRate / plainParallel) * 1000) / 1000,
  ratio_vs_activity_alone: Math.round((serviceRate / activityAlone) * 1000) / 1000,
  target_per_second: 100,
  met: serviceRate >= 100,
  ...splitPercentiles(splitsA),
  temporal_sample: temporalA,
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
  temporal_sample: temporalB,
}
console.log('\nWebhooks')
console.table({
  'deliveries/s (burst)': {
    service: throughput.deliveries_per_second, 'plain loop': throughput.plain_loop_sequential_per_second, 'plain x20': throughput.plain_loop_20_parallel_per_second,
    'activity alone x20': throughput.activity_alone_20_parallel_per_second, target: '>= 100',
  },
  [`p50 ms @ ${rate}/s`]: { service: latencyB.p50, target: '' },
  [`p99 ms @ ${rate}/s`]: { service: latencyB.p99, target: '< 1000' },
})
// Other processes on the machine skew every figure here: the load average says how busy it was.
const temporalSetup = process.env.TEMPORAL_ADDRESS ? 'given' : `embedded dev server, state in ${devStore() === 'memory' ? 'memory' : 'a SQLite file'}`
reportResult(process.env.TEMPORAL_ADDRESS ? 'webhooks' : `webhooks-${devStore()}`, {
  headline: {
    ratio_of: `burst deliveries/s ÷ the delivery activity alone x20 (${temporalSetup})`, ratio: throughput.ratio_vs_activity_alone, better: 'higher',
    goal: `>= 100 deliveries/s, p99 < 1 s at ${rate}/s`, met: throughput.met && latency.met,
    figures: { 'deliveries/s': throughput.deliveries_per_second, 'activity alone/s': throughput.activity_alone_20_parallel_per_second, [`p99 ms @${rate}/s`]: latencyB.p99 },
  },
  load_average_at_end: loadavg().map((v) => Math.round(v * 100) / 100), temporal: temporalSetup, eager_start: service.runtime.deps.config.TEMPORAL_EAGER_START, throughput, latency,
})
receiver.closeAllConnections()
receiver.close()
await service.stop()
