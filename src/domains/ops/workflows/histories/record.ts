// Records the retention workflow's replay fixture (`npx vitest run --config
// test/replay/record.config.ts` with this file): one fire of the retention Schedule on the real test
// app, with an expired idempotency key and an old started outbox row to delete, batches of one.
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from '../../../../../test/helpers/app.js'
import { waitFor } from '../../../../../test/helpers/wait.js'
import { insertIdempotencyKey, insertWorkflowOutboxRow } from '../../../../../test/helpers/retention-rows.js'
import { recordRun } from '../../../../../test/replay/histories.js'
import { connectClient } from '../../../../temporal/connection.js'
import { retentionScheduleId } from '../../retention.js'

let app: TestApp
let temporal: Client

beforeAll(async () => {
  app = await startTestApp({ config: { RETENTION_SCHEDULE: true, RETENTION_BATCH_SIZE: 1 } })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  await temporal?.schedule.getHandle(retentionScheduleId(app.config.TEMPORAL_TASK_QUEUE)).delete().catch(() => {})
  await temporal?.connection.close()
  await app?.stop()
})

it('records dataRetention: one fire of the schedule, deleting in batches', async () => {
  const { company_id } = await onboard(app)
  const old = new Date(Date.now() - 40 * 86_400_000)
  for (const key of ['replay-1', 'replay-2']) await insertIdempotencyKey(app.owner, company_id, key, old, old)
  await insertWorkflowOutboxRow(app.owner, company_id, old, old)
  const schedule = temporal.schedule.getHandle(retentionScheduleId(app.config.TEMPORAL_TASK_QUEUE))
  await schedule.trigger()
  const fired = await waitFor(async () => (await schedule.describe()).info.recentActions, (actions) => actions.length > 0, 20_000)
  const name = await recordRun(temporal, fired[0]!.action.workflow.workflowId, 'completed')
  expect(name).toBe('dataRetention-completed')
}, 60_000)
