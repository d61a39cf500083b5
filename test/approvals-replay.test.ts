// The team-notify workflow replays deterministically: real runs, one approved (sent) and one
// rejected (nothing sent), are fetched from Temporal and replayed against the bundle the worker
// runs. A nondeterministic change (a new activity before the wait, a reordered settle) fails here.
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { Worker } from '@temporalio/worker'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { connectClient } from '../src/temporal/connection.js'
import { workflowBundle } from '../src/temporal/worker.js'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(async () => {
  await app?.stop()
})

it('an approved and a rejected team notice replay against the current workflow code', async () => {
  const company = await onboard(app)
  const call = async (name: string, args: Record<string, unknown>) =>
    (await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { key: company.api_key })).body.result.structuredContent
  await call('workflows.toggle', { workflow_id: 'team_notify', require_approval: true })
  const approved = await call('workflows.team_notify', { message: 'Replay: approved', recipients: ['0412 888 001'] })
  const rejected = await call('workflows.team_notify', { message: 'Replay: rejected', recipients: ['0412 888 002'] })
  const temporal = await connectClient(inject('temporalAddress'), 'default')
  try {
    // Decide while each run waits on its expiry timer (a decision that beats the timer is another, shorter history).
    for (const run of [approved, rejected]) {
      const handle = temporal.workflow.getHandle(run.workflowId)
      for (let i = 0; i < 100 && !(await handle.fetchHistory()).events!.some((e) => e.timerStartedEventAttributes); i++) {
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    expect((await call('workflows.approve_action', { action_id: approved.actionId })).action.status).toBe('executed')
    expect((await call('workflows.reject_action', { action_id: rejected.actionId })).action.status).toBe('rejected')
    const bundle = await workflowBundle()
    for (const [run, status] of [[approved, 'executed'], [rejected, 'rejected']] as const) {
      const handle = temporal.workflow.getHandle(run.workflowId)
      expect((await handle.result()).status).toBe(status)
      const history = await handle.fetchHistory()
      // The history holds what replay must reproduce: the expiry timer and the accepted decision.
      expect(history.events!.filter((e) => e.timerStartedEventAttributes)).toHaveLength(1)
      expect(history.events!.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1)
      await Worker.runReplayHistory({ workflowBundle: bundle }, history, handle.workflowId)
    }
  } finally {
    await temporal.connection.close()
  }
}, 60_000)
