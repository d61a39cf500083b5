// A request that reaches the server between listen() and the app being attached is answered once
// the app is there, not left hanging (the instant-response crash test's health probe once waited
// 60 s on exactly that window).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startupGate } from '../src/transports/startup-gate.js'

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r))
})

async function listening(gate: ReturnType<typeof startupGate>): Promise<string> {
  const server = createServer(gate.listener)
  servers.push(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('startup gate', () => {
  it('holds requests that arrive before the app, then answers each of them in order', async () => {
    const gate = startupGate()
    const base = await listening(gate)
    const early = [1, 2, 3].map((n) => fetch(`${base}/healthz?n=${n}`).then(async (r) => [r.status, await r.text()]))
    let settled = false
    void Promise.all(early).then(() => (settled = true))
    await new Promise((r) => setTimeout(r, 200))
    expect(settled).toBe(false) // nothing can answer yet, and nothing answered wrongly

    const seen: string[] = []
    gate.open((req, res) => {
      seen.push(req.url!)
      res.end(`ok ${req.url}`)
    })
    expect(await Promise.all(early)).toEqual([1, 2, 3].map((n) => [200, `ok /healthz?n=${n}`]))
    expect(seen).toEqual(['/healthz?n=1', '/healthz?n=2', '/healthz?n=3'])
  })

  it('passes later requests straight to the app, with their bodies intact', async () => {
    const gate = startupGate()
    const base = await listening(gate)
    gate.open((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c)).on('end', () => res.end(body.toUpperCase()))
    })
    const res = await fetch(`${base}/echo`, { method: 'POST', body: 'hello' })
    expect(await res.text()).toBe('HELLO')
  })

  it('keeps the body of a request held at the gate', async () => {
    const gate = startupGate()
    const base = await listening(gate)
    const answer = fetch(`${base}/echo`, { method: 'POST', body: 'x'.repeat(100_000) }).then((r) => r.text())
    await new Promise((r) => setTimeout(r, 200))
    gate.open((req, res) => {
      let length = 0
      req.on('data', (c: Buffer) => (length += c.length)).on('end', () => res.end(String(length)))
    })
    expect(await answer).toBe('100000')
  })
})
