// Probe (temporary): records probePing's history (npm run record-histories).
import { afterAll, beforeAll, inject, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from '../../../../../test/helpers/app.js'
import { connectClient } from '../../../../temporal/connection.js'
import { recordRun } from '../../../../../test/replay/histories.js'

let app: TestApp
beforeAll(async () => { app = await startTestApp() })
afterAll(() => app?.stop())

it('records a ping', async () => {
  const company = await onboard(app)
  const reply = await app.call('POST', '/api/v1/mcp', { key: company.api_key, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe.ping', arguments: { word: 'hi' } } } })
  const temporal = await connectClient(inject('temporalAddress'), 'default')
  await recordRun(temporal, reply.body.result.structuredContent.workflow_id, 'completed')
  await temporal.connection.close()
})
