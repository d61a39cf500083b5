// Probe (temporary): the tool records a ping and its workflow answers it.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from '../../../test/helpers/app.js'
import { waitFor } from '../../../test/helpers/wait.js'

let app: TestApp
beforeAll(async () => { app = await startTestApp() })
afterAll(() => app?.stop())

it('answers a ping through its workflow', async () => {
  const company = await onboard(app)
  const reply = await app.call('POST', '/api/v1/mcp', { key: company.api_key, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'probe.ping', arguments: { word: 'hi' } } } })
  const id = reply.body.result.structuredContent.ping_id
  const [row] = await waitFor(() => app.owner`select answered_at from probe_pings where id = ${id}`, (rows) => rows[0]?.answered_at != null, 20_000)
  expect(row!.answered_at).toBeInstanceOf(Date)
})
