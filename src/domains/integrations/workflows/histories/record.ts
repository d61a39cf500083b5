// Records the accounting sync workflow's replay fixture (`npx vitest run --config
// test/replay/record.config.ts` with this file): on the real test app against the local Xero, a run
// started by integrations.sync whose invoice push meets a 429 (slept on the workflow's timer), then
// a second round asked for by integrations.sync (the signal), then a round that finds the connection
// disconnected, which ends the run.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client } from '@temporalio/client'
import { onboard, startTestApp, type TestApp } from '../../../../../test/helpers/app.js'
import { connectHttp } from '../../../../../test/helpers/mcp.js'
import { tool } from '../../../../../test/helpers/tools.js'
import { waitFor } from '../../../../../test/helpers/wait.js'
import { connectLocalXero, localXeroConfig, startLocalXero, type LocalXero } from '../../../../../test/helpers/xero-server.js'
import { writeFixtures, type HistoryFixture } from '../../../../../test/replay/histories.js'
import { connectClient } from '../../../../temporal/connection.js'
import { withTenant } from '../../../../db/sql.js'
import { recordConnectionError } from '../../queries.js'
import { syncRequestedSignal } from '../integration-sync.js'

let app: TestApp
let xero: LocalXero
let temporal: Client
let client: McpClient
const recorded: Omit<HistoryFixture, 'name'>[] = []

beforeAll(async () => {
  xero = await startLocalXero()
  app = await startTestApp({
    config: {
      ...localXeroConfig(xero, 'replay-webhook-key'), INTEGRATIONS_TOKEN_KEY: randomBytes(32).toString('base64'),
      INTEGRATIONS_MAX_RETRY_WAIT_MS: 0, INTEGRATIONS_SYNC_BATCH_SIZE: 2, INTEGRATIONS_SYNC_INTERVAL_MS: 3_600_000,
    },
  })
  temporal = await connectClient(inject('temporalAddress'), 'default')
})
afterAll(async () => {
  if (recorded.length === 1) writeFixtures(recorded)
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
  await xero?.close()
})

it('records integrationSync: a round with a 429 slept on a timer, a round asked for by a signal, then stopped by a disconnected connection', async () => {
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  const connectionId = await connectLocalXero(client, xero)
  for (const name of ['Replay One', 'Replay Two', 'Replay Three']) {
    const { lead } = await tool(client, 'leads.create', { name, email: `${name.replace(' ', '.').toLowerCase()}@example.com.au` })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: `Job for ${name}`, amount: 330 })
    await tool(client, 'jobs.complete', { job_id: job.id })
    await tool(client, 'invoicing.generate', { job_id: job.id })
  }
  xero.add('contacts', { Name: 'Replay Pulled', EmailAddress: 'replay.pulled@example.com.au' })
  xero.failNext('Invoices', { status: 429, headers: { 'retry-after': '1' } })
  const entities = async () => (await tool(client, 'integrations.connection_status', { connection_id: connectionId })).entities as { last_synced_at: string }[]
  const round = async () => {
    const asked = new Date()
    const out = await tool(client, 'integrations.sync', { connection_id: connectionId })
    await waitFor(entities, (rows) => rows.length === 6 && rows.every((r) => Date.parse(r.last_synced_at) >= asked.getTime()), 60_000, 200)
    return out.workflow_id as string
  }
  await round()
  const workflowId = await round()
  expect(xero.invoices).toHaveLength(3)
  // Disconnected (as the owner would in Xero, here on the row): the next round stops and the run ends.
  await withTenant(app.runtime.deps.db, company.company_id, (tx) => recordConnectionError(tx, connectionId, 'disconnected for the recording', 'disconnected', new Date()))
  await app.runtime.deps.workflows.signal(workflowId, syncRequestedSignal)
  const handle = temporal.workflow.getHandle(workflowId)
  expect(await handle.result()).toMatchObject({ stopped: expect.stringContaining('disconnected') })
  recorded.push({ workflowType: 'integrationSync', workflowId, case: 'rate-limited-signalled-stopped', history: await handle.fetchHistory() })
}, 120_000)
