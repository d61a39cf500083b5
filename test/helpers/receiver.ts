// A real HTTP receiver for webhook tests: a node:http server on 127.0.0.1 recording every request
// (path, headers, body as received, time) and connection; each path answers as the test says.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Hit { path: string; method: string; headers: http.IncomingHttpHeaders; body: string; at: number }
export interface Answer { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }

/** A node:http server on 127.0.0.1 recording every request; each path answers as the test says (n counts from 1). */
export async function startReceiver() {
  const hits: Hit[] = []
  let connections = 0
  const routes = new Map<string, (n: number) => Answer>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const hit = { path: req.url ?? '', method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() }
      hits.push(hit)
      const answer = routes.get(hit.path)?.(hits.filter((h) => h.path === hit.path).length) ?? { status: 200 }
      setTimeout(() => res.writeHead(answer.status, answer.headers).end(answer.body ?? 'ok'), answer.delayMs ?? 0)
    })
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    at: (path: string) => hits.filter((h) => h.path === path),
    all: () => hits,
    connections: () => connections,
    answer: (path: string, fn: (n: number) => Answer) => routes.set(path, fn),
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** One header as a single string (node gives repeated headers as a list). */
export const header = (hit: Hit, name: string) => {
  const v = hit.headers[name]
  return Array.isArray(v) ? v.join(',') : (v ?? '')
}
