// Crash test for webhook delivery: the Temporal worker runs as a separate process (src/main-worker.ts,
// as in production) and is killed with SIGKILL while deliveries of 100 events are in flight to a
// slow receiver. After a new worker process starts, every event reaches the receiver and every
// delivery row ends 'delivered'. Delivery is at-least-once: an attempt whose POST reached the
// receiver but whose result the dead worker never recorded is sent again with the same webhook-id,
// so the receiver may see duplicates; the number of distinct webhook-ids must equal the events.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { workerProcesses } from './helpers/worker-process.js'
import { waitFor } from './helpers/wait.js'

const EVENTS = 100
/** The worker is killed when the receiver has seen this many distinct events (some, not all). */
const KILL_AT = 25
const RECEIVER_DELAY_MS = 300

interface Seen { id: string; body: string; headers: Record<string, string>; at: number }

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
let receiver: http.Server
let receiverUrl: string
const seen: Seen[] = []
let onRequest: (() => void) | null = null

const workerProcs = workerProcesses(() => app, () => ({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400,800', WEBHOOK_TIMEOUT_MS: '5000' }))
const startWorker = () => workerProcs.start()

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      // Recorded on arrival: a request whose answer never reaches the (dead) worker still counts as seen.
      seen.push({ id: String(req.headers['webhook-id']), body: Buffer.concat(chunks).toString(), headers: req.headers as Record<string, string>, at: Date.now() })
      onRequest?.()
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), RECEIVER_DELAY_MS)
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  // API, outbox relay and webhook dispatcher in this process; the worker only in child processes.
  app = await startTestApp({
    worker: false,
    config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_SCHEDULE_MS: '0,200,400,800', WEBHOOK_SWEEP_INTERVAL_MS: 500 },
  })
  company = await onboard(app)
})

afterAll(async () => {
  workerProcs.killAll()
  await app?.stop()
  receiver?.closeAllConnections()
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()))
})

const distinct = () => new Set(seen.map((s) => s.id)).size

describe('webhook delivery survives a worker crash', () => {
  it('kill -9 of the worker with 100 deliveries in flight: after a restart every event arrives; distinct webhook-ids = events emitted', async () => {
    const sub = await app.call('POST', '/api/v1/webhooks', { key: company.api_key, body: { url: receiverUrl, events: ['lead.created'] } })
    expect(sub.status).toBe(201)
    const secret = sub.body.secret as string

    const first = await startWorker()
    const killed = new Promise<{ seenAtKill: number; signal: NodeJS.Signals | null }>((resolve) => {
      onRequest = () => {
        if (distinct() < KILL_AT || first.exitCode !== null || first.signalCode !== null || first.killed) return
        const seenAtKill = distinct()
        first.kill('SIGKILL')
        first.once('exit', (_code, signal) => resolve({ seenAtKill, signal }))
      }
    })

    // 100 events as fast as the API takes them (no phone or email: no instant-response workflow).
    const created = await Promise.all(Array.from({ length: EVENTS }, (_, i) =>
      app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: `Crash Lead ${i}`, serviceType: 'Hot water' } })))
    expect(created.map((r) => r.status)).toEqual(Array(EVENTS).fill(201))

    const { seenAtKill, signal } = await killed
    onRequest = null
    expect(signal).toBe('SIGKILL')
    // Killed part-way: some events had reached the receiver, not all.
    expect(seenAtKill).toBeGreaterThanOrEqual(KILL_AT)
    expect(seenAtKill).toBeLessThan(EVENTS)
    const [atKill] = await app.owner`select count(*) filter (where status = 'delivered')::int as delivered, count(*)::int as total
      from webhook_deliveries where company_id = ${company.company_id}`
    expect(atKill!.total).toBe(EVENTS)
    expect(atKill!.delivered).toBeLessThan(EVENTS)

    const restartedAt = Date.now()
    await startWorker()
    const deliveredCount = async () => {
      const [row] = await app.owner`select count(*)::int as n from webhook_deliveries where company_id = ${company.company_id} and status = 'delivered'`
      return row!.n as number
    }
    // Work the dead worker held comes back when Temporal times it out: its workflow tasks (with a
    // local activity in them) after the workflow task timeout, other activities after their
    // start-to-close timeout (45 s); the limit covers both.
    const done = await waitFor(async () => ({ distinct: distinct(), delivered: await deliveredCount() }),
      (v) => v.distinct >= EVENTS && v.delivered >= EVENTS, 75_000, 250)
    expect(done).toEqual({ distinct: EVENTS, delivered: EVENTS })

    // The receiver's distinct webhook-ids are exactly the lead.created events the company emitted.
    const events = await app.owner<{ id: string }[]>`select id::text from event_outbox where company_id = ${company.company_id} and event_type = 'lead.created'`
    expect(events).toHaveLength(EVENTS)
    expect(new Set(seen.map((s) => s.id))).toEqual(new Set(events.map((e) => `evt_${e.id}`)))
    const rows = await app.owner`select status, attempts from webhook_deliveries where company_id = ${company.company_id}`
    expect(rows).toHaveLength(EVENTS)
    expect(rows.filter((r) => r.status !== 'delivered')).toEqual([])

    // Every request, the repeats included, is signed and carries its own event.
    const wh = new Webhook(secret)
    for (const s of seen) {
      const body = wh.verify(s.body, s.headers) as { id: string; type: string }
      expect(body).toMatchObject({ id: s.id, type: 'lead.created' })
    }
    // At-least-once: repeats of a webhook-id are allowed (receivers deduplicate on it); report them.
    const duplicates = seen.length - distinct()
    console.log(`webhooks-crash: killed the worker at ${seenAtKill}/${EVENTS} events seen; ${seen.length} requests, ${distinct()} distinct webhook-ids, ` +
      `${duplicates} duplicate(s); all delivered ${Math.round((Date.now() - restartedAt) / 1000)} s after the restart`)
  }, 150_000)
})
