// Two API instances on one database: an SSE stream held by one, POSTs arriving at the other. The
// response must still reach the stream (routed through Postgres LISTEN/NOTIFY), however large.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'

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

/** Opens a stream on `app` and returns its POST path and a reader of `message` events. */
async function openStream(app: TestApp) {
  const controller = new AbortController()
  const res = await fetch(`${app.url}/api/v1/mcp/sse`, { signal: controller.signal })
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const nextEvent = async (): Promise<{ event: string; data: string }> => {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (block.startsWith(':')) continue // keep-alive comment
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message'
        const data = block.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')
        return { event, data }
      }
      const { value, done } = await reader.read()
      if (done) throw new Error('stream closed')
      buffer += decoder.decode(value, { stream: true })
    }
  }
  const endpoint = await nextEvent()
  expect(endpoint.event).toBe('endpoint')
  return { path: endpoint.data, nextEvent, close: () => controller.abort() }
}

const post = (app: TestApp, path: string, body: unknown) =>
  fetch(`${app.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) })

describe('legacy SSE across API instances', () => {
  it('a POST to the other instance is answered on the stream, including a response far over 8 kB', async () => {
    const stream = await openStream(a)
    try {
      const ping = await post(b, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' })
      expect(ping.status).toBe(202)
      expect(JSON.parse((await stream.nextEvent()).data)).toEqual({ jsonrpc: '2.0', id: 1, result: {} })

      const list = await post(b, stream.path, { jsonrpc: '2.0', id: 2, method: 'tools/list' })
      expect(list.status).toBe(202)
      const event = await stream.nextEvent()
      expect(event.event).toBe('message')
      expect(event.data.length).toBeGreaterThan(20_000)
      const body = JSON.parse(event.data)
      expect(body.id).toBe(2)
      expect(body.result.tools).toHaveLength(50)

      const created = await post(b, stream.path, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'leads.create', arguments: { name: 'Routed Lead' } } })
      expect(created.status).toBe(202)
      expect(JSON.parse((await stream.nextEvent()).data).result.structuredContent.lead.name).toBe('Routed Lead')
    } finally {
      stream.close()
    }
  })

  it('once the stream closes, neither instance accepts POSTs for it', async () => {
    const stream = await openStream(a)
    stream.close()
    await new Promise((r) => setTimeout(r, 200))
    expect((await post(a, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404)
    expect((await post(b, stream.path, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404)
  })
})
