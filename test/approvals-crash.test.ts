// Crash test for an approval wait: the Temporal worker runs as a separate process
// (src/main-worker.ts, as in production) and is killed with SIGKILL while a held team notice waits
// for approval. A new worker process starts; the approval (a Temporal Update) reaches the workflow
// through it, and the SMS reaches the gateway exactly once. The oracle is a local Twilio.
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { workerProcesses } from './helpers/worker-process.js'
import { rpc } from './helpers/mcp.js'
import { startLocalTwilio, type LocalTwilio } from './helpers/twilio-server.js'

let app: TestApp
let gateway: LocalTwilio
let company: Awaited<ReturnType<typeof onboard>>

const workerProcs = workerProcesses(() => app, () => ({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: gateway.accountSid, TWILIO_AUTH_TOKEN: gateway.authToken, TWILIO_FROM: gateway.from, TWILIO_BASE_URL: gateway.url }))
const startWorker = () => workerProcs.start()

const call = async (name: string, args: Record<string, unknown>, through: TestApp = app) => {
  const res = await rpc(through, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { key: company.api_key })
  const result = res.body.result
  return result.isError ? { error: result.structuredContent } : { ok: result.structuredContent }
}

beforeAll(async () => {
  gateway = await startLocalTwilio()
  // API and outbox relay here; the worker only in child processes.
  app = await startTestApp({
    worker: false,
    config: { TEMPORAL_UPDATE_TIMEOUT_MS: 15_000, SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: gateway.accountSid, TWILIO_AUTH_TOKEN: gateway.authToken, TWILIO_FROM: gateway.from, TWILIO_BASE_URL: gateway.url },
  })
  company = await onboard(app)
  expect((await call('workflows.toggle', { workflow_id: 'team_notify', require_approval: true })).ok.workflow.requireApproval).toBe(true)
})

afterAll(async () => {
  workerProcs.killAll()
  await app?.stop()
  await gateway?.close()
})

it('kill -9 of the worker while a notice waits for approval: after a restart, approving sends the SMS exactly once', async () => {
  const first = await startWorker()
  const res = await call('workflows.team_notify', { message: 'Crash-safe notice', recipients: ['0412 777 001'] })
  expect(res.ok).toMatchObject({ status: 'pending_approval', started: true })
  const workflowId = res.ok.workflowId as string
  const actionId = res.ok.actionId as string

  // The first worker has run the workflow up to the wait: the action is recorded and its timer is set.
  const history = async () => {
    const { connectClient } = await import('../src/temporal/connection.js')
    const client = await connectClient(inject('temporalAddress'), 'default')
    try {
      return (await client.workflow.getHandle(workflowId).fetchHistory()).events!
    } finally {
      await client.connection.close()
    }
  }
  let events = await history()
  for (let i = 0; i < 100 && !events.some((e) => e.timerStartedEventAttributes); i++) {
    await new Promise((r) => setTimeout(r, 100))
    events = await history()
  }
  expect(events.some((e) => e.timerStartedEventAttributes)).toBe(true)

  first.kill('SIGKILL')
  await new Promise<void>((resolve) => first.once('exit', () => resolve()))
  expect(first.signalCode).toBe('SIGKILL')
  expect(gateway.messages).toHaveLength(0)

  // No worker at all: the decision cannot reach the workflow, and the caller is told so within the
  // timeout instead of being held. Temporal may still deliver it once a worker starts.
  // Asked through a second API on the same database and task queue with a short update timeout, so
  // the test does not wait out the 15 s the main one allows a restarted worker.
  const impatient = await startTestApp({ worker: false, relay: false, shareDatabaseOf: app, config: { TEMPORAL_UPDATE_TIMEOUT_MS: 2_000 } })
  const unanswered = await call('workflows.approve_action', { action_id: actionId }, impatient).finally(() => impatient.stop())
  expect(unanswered.error).toMatchObject({ error: 'worker_unavailable', message: expect.stringContaining('pending_actions') })
  expect(gateway.messages).toHaveLength(0)

  await startWorker()
  // Whether the earlier decision got through or this one does, the action executes once.
  const approved = await call('workflows.approve_action', { action_id: actionId })
  expect(approved.ok).toMatchObject({ action: { status: 'executed', outcome: { sent: [{ channel: 'sms', to: '+61412777001' }], failed: [] } } })
  // Again, after it executed: the first outcome, nothing sent again.
  expect((await call('workflows.approve_action', { action_id: actionId })).ok).toMatchObject({ alreadyDecided: true, action: { status: 'executed' } })
  await new Promise((r) => setTimeout(r, 1000))
  expect(gateway.messages.map((m) => [m.form.To, m.form.Body])).toEqual([['+61412777001', 'Crash-safe notice']])
  const [row] = await app.owner`select count(*)::int as n from communications where idempotency_key = ${`${workflowId}:sms:+61412777001`}`
  expect(row!.n).toBe(1)
}, 120_000)
