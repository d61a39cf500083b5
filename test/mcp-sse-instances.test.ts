// Two API instances on one database: an SSE stream held by one, POSTs arriving at the other. The
// response must still reach the stream (routed through Postgres LISTEN/NOTIFY), however large.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { openStream } from './helpers/sse-stream.js'

let a: TestApp
let b: TestApp
let key: string
beforeAll(async () => {
  a = await startTestApp()
  b = await startTestApp({ shareDatabaseOf: a })
  key = (await onboard(a, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })).api_key
})
afterAll(async () => {
  await b?.stop()
  await a?.stop()
})

const post = (app: TestApp, path: string, body: unknown) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) })

describe('legacy SSE across API instances', () => {
  it('a POST to the other instance is answered on the stream, including a response far over 8 kB', async () => {
    const stream = await openStream(a, key)
    try {
      const ping = await post(b, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' })
      expect(ping.status).toBe(202)
      expect(JSON.parse((await stream.nextEvent())!.data)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })

      const list = await post(b, stream.path, { jsonrpc: '2.0', id: 2, method: 'tools/list' })
      expect(list.status).toBe(202)
      const event = (await stream.nextEvent())!
      expect(event.event).toBe('message')
      expect(event.data.length).toBeGreaterThan(20_000)
      const body = JSON.parse(event.data)
      expect(body.id).toBe(2)
      expect(body.result.tools).toHaveLength(50)

      const created = await post(b, stream.path, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'leads.create', arguments: { name: 'Routed Lead' } } })
      expect(created.status).toBe(202)
      expect(JSON.parse((await stream.nextEvent())!.data).result.structuredContent.lead.name).toBe('Routed Lead')
    } finally {
      stream.close()
    }
  })

  it('once the stream closes, neither instance accepts POSTs for it', async () => {
    const stream = await openStream(a, key)
    stream.close()
    await new Promise((r) => setTimeout(r, 200))
    expect((await post(a, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404)
    expect((await post(b, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404)
  })
})
