// Records the subscription delivery workflow's replay fixtures (`npx vitest run --config
// test/replay/record.config.ts` with this file), on the real test app with a local receiver:
//  - retried-signalled-idle: the first event fails once (500), is retried on the run's timer and
//    delivered; a second event arrives by signal while the run waits idle; then the run ends idle.
//  - stopped: an attempt answered 503 with Retry-After, the subscription removed while the run waits
//    on the retry's timer; the next pass finds it removed, fails what was pending, and the run ends.
// The per-delivery workflow (webhookDelivery, no longer started) keeps the fixture recorded before
// this design (webhookDelivery-retried.json), which this recorder leaves as it is.
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { Client } from '@temporalio/client'
import { temporal as proto } from '@temporalio/proto'
import { onboard, startTestApp, type TestApp } from '../../../../../test/helpers/app.js'
import { startReceiver, type Receiver } from '../../../../../test/helpers/receiver.js'
import { waitFor } from '../../../../../test/helpers/wait.js'
import { writeFixtures, type HistoryFixture } from '../../../../../test/replay/histories.js'
import { connectClient } from '../../../../temporal/connection.js'
import { webhookDeliveriesWorkflowId } from '../webhook-deliveries.js'

const EventType = proto.api.enums.v1.EventType

let app: TestApp
let temporal: Client
let receiver: Receiver
const recorded: Omit<HistoryFixture, 'name'>[] = []

beforeAll(async () => {
  receiver = await startReceiver()
  app = await startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50', WEBHOOK_WORKFLOW_IDLE_MS: 3000 } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  if (recorded.length === 2) writeFixtures(recorded)
  await temporal?.connection.close()
  await app?.stop()
  await receiver?.close()
})

async function subscribe(key: string, path: string): Promise<string> {
  const res = await app.call('POST', '/api/v1/webhooks', { key, body: { url: receiver.url(path), events: ['lead.created'] } })
  expect(res.status).toBe(201)
  return res.body.subscription.id as string
}
const lead = (key: string, name: string) => app.call('POST', '/api/v1/leads', { key, body: { name, serviceType: 'Plumbing' } })
// Through the API (webhooks.deliveries: newest first, each with its attempts), oldest first here.
const deliveries = async (key: string, subscriptionId: string) =>
  ((await app.call('GET', `/api/v1/webhooks/${subscriptionId}/deliveries`, { key })).body.deliveries as { status: string; attempts: unknown[] }[]).reverse()
const statuses = async (key: string, subscriptionId: string) => (await deliveries(key, subscriptionId)).map(({ status }) => ({ status }))

it('records webhookDeliveries: retried on its timer, woken by a signal, ended idle; and stopped by an unsubscribe', async () => {
  const company = await onboard(app)
  const key = company.api_key

  receiver.answer('/retried', (n) => (n === 1 ? { status: 500 } : { status: 200 }))
  const retriedSub = await subscribe(key, '/retried')
  expect((await lead(key, 'Replay Retried')).status).toBe(201)
  await waitFor(() => statuses(key, retriedSub), (rows) => rows[0]?.status === 'delivered', 30_000, 100)
  expect((await lead(key, 'Replay Signalled')).status).toBe(201)
  await waitFor(() => statuses(key, retriedSub), (rows) => rows.length === 2 && rows.every((r) => r.status === 'delivered'), 30_000, 100)
  const retriedId = webhookDeliveriesWorkflowId({ companyId: company.company_id, subscriptionId: retriedSub })
  const retried = temporal.workflow.getHandle(retriedId)
  expect(await retried.result()).toMatchObject({ outcome: 'idle', passes: 3 })
  const retriedHistory = await retried.fetchHistory()
  expect(retriedHistory.events!.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED).length).toBeGreaterThanOrEqual(2)
  recorded.push({ workflowType: 'webhookDeliveries', workflowId: retriedId, case: 'retried-signalled-idle', history: retriedHistory })

  receiver.answer('/stopped', () => ({ status: 503, headers: { 'retry-after': '4' } }))
  const stoppedSub = await subscribe(key, '/stopped')
  const stoppedId = webhookDeliveriesWorkflowId({ companyId: company.company_id, subscriptionId: stoppedSub })
  expect((await lead(key, 'Replay Stopped')).status).toBe(201)
  await waitFor(() => deliveries(key, stoppedSub), (rows) => rows.reduce((n, d) => n + d.attempts.length, 0) === 1, 30_000, 100)
  expect((await app.call('DELETE', `/api/v1/webhooks/${stoppedSub}`, { key })).status).toBe(200)
  const stopped = temporal.workflow.getHandle(stoppedId)
  expect(await stopped.result()).toMatchObject({ outcome: 'stopped' })
  expect(await statuses(key, stoppedSub)).toEqual([{ status: 'failed' }])
  recorded.push({ workflowType: 'webhookDeliveries', workflowId: stoppedId, case: 'stopped', history: await stopped.fetchHistory() })
}, 120_000)
