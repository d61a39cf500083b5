// The webhook delivery workflow replays deterministically: a real run that failed twice, waited
// out its retry delays and then delivered is fetched from Temporal and replayed against the
// bundle the worker runs. A nondeterministic change (a new activity, a reordered sleep) fails here.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { inject } from 'vitest'
import { Worker } from '@temporalio/worker'
import { temporal as proto } from '@temporalio/proto'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { startReceiver, type Receiver } from './helpers/receiver.js'
import { waitFor } from './helpers/wait.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowBundle } from '../src/temporal/worker.js'

const EventType = proto.api.enums.v1.EventType
let app: TestApp
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
  app = await startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, WEBHOOK_RETRY_SCHEDULE_MS: '0,50,50' } })
})
afterAll(async () => {
  await app?.stop()
  await receiver?.close()
})

it('a delivered-after-two-failures run replays against the current workflow code', async () => {
  receiver.answer('/replay', (n) => (n < 3 ? { status: 500 } : { status: 200 }))
  const company = await onboard(app)
  const sub = await app.call('POST', '/api/v1/webhooks', { key: company.api_key, body: { url: receiver.url('/replay'), events: ['lead.created'] } })
  expect(sub.status).toBe(201)
  await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Replay Me' } })
  const [delivery] = await waitFor(
    () => app.owner<{ id: string; status: string }[]>`select id, status from webhook_deliveries where subscription_id = ${sub.body.subscription.id}`,
    (rows) => rows[0]?.status === 'delivered', 30_000,
  )
  expect(receiver.at('/replay')).toHaveLength(3)

  const temporal = await connectClient(inject('temporalAddress'), 'default')
  try {
    const handle = temporal.workflow.getHandle(`webhook:${company.company_id}:${delivery!.id}:0`)
    expect(await handle.result()).toEqual({ outcome: 'delivered', attempts: 3 })
    const history = await handle.fetchHistory()
    // The history holds what replay must reproduce: the two retry sleeps and the three attempts.
    const count = (type: number) => history.events!.filter((e) => e.eventType === type).length
    expect(count(EventType.EVENT_TYPE_TIMER_STARTED)).toBe(2)
    expect(count(EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(3) // local activities are recorded as markers
    await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history, handle.workflowId)
  } finally {
    await temporal.connection.close()
  }
})
