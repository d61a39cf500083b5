// The one function that POSTs a webhook: URL rules at subscribe time, and real HTTP against local
// servers for delivery (2xx/3xx/410/5xx, Retry-After, 1 KB snippet, timeout, refused connections),
// plus the connect-time address check that stops loopback targets even behind an innocent name.
// No database or app needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import http from 'node:http'
import net, { type LookupFunction } from 'node:net'
import { checkWebhookUrl, postWebhook } from '../src/domains/webhooks/http-post.js'

interface Received { path: string; headers: http.IncomingHttpHeaders; body: Buffer }

/** A node:http server on 127.0.0.1 that records every request (fully read) and TCP connection. */
async function startServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const received: Received[] = []
  let connections = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
      handler(req, res)
    })
  })
  server.on('connection', () => connections++)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  return {
    port,
    received,
    hits: (path: string) => received.filter((r) => r.path === path).length,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

/** A lookup that answers every name with fixed addresses, counting calls (simulated DNS). */
function fakeDns(addresses: { address: string; family: 4 | 6 }[]) {
  const calls: string[] = []
  const lookup = ((hostname: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    calls.push(hostname)
    if (options.all) cb(null, addresses)
    else cb(null, addresses[0]!.address, addresses[0]!.family)
  }) as unknown as LookupFunction
  return { lookup, calls }
}

describe('checkWebhookUrl', () => {
  const strict = { allowPrivate: false }
  it.each([
    ['http://hooks.example.com/x', /https/],
    ['ftp://hooks.example.com/x', /https/],
    ['not a url', /valid/],
    ['https://127.0.0.1/', /private/],
    ['https://127.9.9.9:8443/', /private/],
    ['https://10.1.2.3/', /private/],
    ['https://172.16.5.4/', /private/],
    ['https://192.168.0.10/', /private/],
    ['https://100.64.0.1/', /private/],
    ['https://169.254.169.254/latest/meta-data', /private/],
    ['https://0.0.0.0/', /private/],
    ['https://224.0.0.1/', /private/],
    ['https://[::1]/', /private/],
    ['https://[::]/', /private/],
    ['https://[fe80::1]/', /private/],
    ['https://[fd00:ec2::254]/', /private/],
    ['https://[::ffff:127.0.0.1]/', /private/],
    ['https://[::ffff:7f00:1]/', /private/],
    ['https://[::ffff:a9fe:a9fe]/', /private/],
    ['https://[::ffff:8.8.8.8]/', /private/], // mapped form is never needed; the agent refuses it too
    ['https://2130706433/', /private/],
    ['https://0x7f.1/', /private/],
    ['https://017700000001/', /private/],
    ['https://localhost/', /localhost/],
    ['https://LOCALHOST./', /localhost/],
    ['https://hooks.localhost/', /localhost/],
    ['https://user:pw@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
  ])('refuses %s', (url, reason) => {
    expect(checkWebhookUrl(url, strict)).toMatch(reason)
  })

  it.each([
    'https://hooks.example.com/x',
    'https://hooks.example.com:8443/x?tenant=1#frag',
    'https://8.8.8.8/',
    'https://172.32.0.1/', // just past 172.16.0.0/12
    'https://[2606:4700:4700::1111]/',
    'https://localhost.example.com/', // only the localhost TLD itself is special
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url, strict)).toBeNull()
  })

  it('allows 2048 characters, not 2049', () => {
    const base = 'https://hooks.example.com/'
    expect(checkWebhookUrl(base + 'a'.repeat(2048 - base.length), strict)).toBeNull()
    expect(checkWebhookUrl(base + 'a'.repeat(2049 - base.length), strict)).toMatch(/2048/)
  })

  it('with allowPrivate accepts http and private targets, but still not credentials or other schemes', () => {
    const open = { allowPrivate: true }
    expect(checkWebhookUrl('http://127.0.0.1:9/', open)).toBeNull()
    expect(checkWebhookUrl('http://localhost:3000/hook', open)).toBeNull()
    expect(checkWebhookUrl('https://[::1]:8443/', open)).toBeNull()
    expect(checkWebhookUrl('http://user:pw@127.0.0.1:9/', open)).toMatch(/credentials/)
    expect(checkWebhookUrl('file:///etc/passwd', open)).toMatch(/https/)
  })
})

describe('postWebhook against local servers (private targets allowed)', () => {
  let srv: Awaited<ReturnType<typeof startServer>>
  const hanging: http.ServerResponse[] = []
  // 5 KB that never repeats within 26 characters, so a wrong offset would show.
  const big = Array.from({ length: 5120 }, (_, i) => String.fromCharCode(97 + (i % 26))).join('')
  const retryAt = new Date(Date.now() + 90_000)
  let endlessClosed = false

  beforeAll(async () => {
    srv = await startServer((req, res) => {
      switch (req.url) {
        case '/ok': res.writeHead(200, { 'content-type': 'text/plain' }).end('received'); break
        case '/big500': res.writeHead(500).end(big); break
        case '/busy': res.writeHead(503, { 'retry-after': '120' }).end('busy'); break
        case '/later': res.writeHead(429, { 'retry-after': retryAt.toUTCString() }).end(); break
        case '/past': res.writeHead(503, { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' }).end(); break
        case '/forever': res.writeHead(503, { 'retry-after': '999999' }).end(); break
        case '/garbage': res.writeHead(503, { 'retry-after': 'soon' }).end(); break
        case '/gone': res.writeHead(410).end('unsubscribed'); break
        case '/redirect': res.writeHead(302, { location: `http://127.0.0.1:${srv.port}/landing` }).end(); break
        case '/landing': res.writeHead(200).end('landed'); break
        case '/euros': res.writeHead(200).end('€'.repeat(400)); break // 1200 bytes, 3 per character
        case '/nul': res.writeHead(200).end('a\u0000b'); break
        case '/hang': hanging.push(res); break // headers never sent
        case '/trickle': res.writeHead(200); res.write('0123456789'); hanging.push(res); break
        case '/endless': {
          // Streams until the client goes away: a client that buffered everything would time out.
          res.writeHead(200)
          const chunk = Buffer.alloc(16 * 1024, 'z')
          const pump = () => { while (!res.destroyed && res.write(chunk)) { /* fill the buffer */ } }
          res.on('drain', pump)
          res.on('close', () => { endlessClosed = true })
          pump()
          break
        }
        default: res.writeHead(404).end()
      }
    })
  })
  afterAll(async () => {
    for (const res of hanging) res.destroy()
    await srv?.close()
  })

  const post = (path: string, extra: Partial<Parameters<typeof postWebhook>[0]> = {}) =>
    postWebhook({ url: `http://127.0.0.1:${srv.port}${path}`, body: '{}', headers: {}, allowPrivate: true, timeoutMs: 5_000, ...extra })

  it('200: ok, and the server gets the body byte for byte with our headers and the given ones', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'invoice.paid', data: { note: 'Café – $1,234.50 inc. GST 🛠', n: 1 } })
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1767225600', 'webhook-signature': 'v1,abc=', 'Content-Type': 'text/plain' }
    const out = await post('/ok', { body, headers })
    expect(out).toMatchObject({ ok: true, status: 200, bodySnippet: 'received', error: null, redirected: false, retryAfterSeconds: null })
    expect(out.latencyMs).toBeGreaterThanOrEqual(0)
    const got = srv.received.filter((r) => r.path === '/ok').at(-1)!
    expect(got.body.equals(Buffer.from(body, 'utf8'))).toBe(true)
    expect(got.headers['content-type']).toBe('application/json') // a caller cannot change it
    expect(got.headers['user-agent']).toBe('tradie-ops-webhooks/1.0')
    expect(got.headers['content-length']).toBe(String(Buffer.byteLength(body)))
    expect(got.headers['webhook-id']).toBe('evt_1')
    expect(got.headers['webhook-timestamp']).toBe('1767225600')
    expect(got.headers['webhook-signature']).toBe('v1,abc=')
  })

  it('500 with a 5 KB body: not ok, snippet is exactly the first 1024 bytes', async () => {
    const out = await post('/big500')
    expect(out).toMatchObject({ ok: false, status: 500, error: null, redirected: false })
    expect(Buffer.byteLength(out.bodySnippet)).toBe(1024)
    expect(out.bodySnippet).toBe(big.slice(0, 1024))
  })

  it('stops reading after 1 KB of an endless body instead of buffering it', async () => {
    const out = await post('/endless', { timeoutMs: 3_000 })
    expect(out).toMatchObject({ ok: true, status: 200, error: null })
    expect(out.bodySnippet).toBe('z'.repeat(1024))
    await expect.poll(() => endlessClosed).toBe(true) // the client hung up on the stream
  })

  it('snippet is UTF-8 text: no half characters at the cut, NUL replaced', async () => {
    const euros = await post('/euros')
    expect(euros.bodySnippet).toBe('€'.repeat(341)) // 341 × 3 = 1023 bytes; the 342nd is cut
    expect((await post('/nul')).bodySnippet).toBe('a\uFFFDb')
  })

  it('Retry-After in seconds, as an HTTP date, clamped, or unusable', async () => {
    expect(await post('/busy')).toMatchObject({ ok: false, status: 503, retryAfterSeconds: 120 })
    const later = await post('/later')
    expect(later.status).toBe(429)
    // toUTCString drops milliseconds, so 89 or 90 seconds ahead depending on when it runs.
    const expected = Math.ceil((retryAt.getTime() - Date.now()) / 1000)
    expect(later.retryAfterSeconds).toBeGreaterThanOrEqual(expected - 2)
    expect(later.retryAfterSeconds).toBeLessThanOrEqual(90)
    expect((await post('/past')).retryAfterSeconds).toBe(0)
    expect((await post('/forever')).retryAfterSeconds).toBe(86_400)
    expect((await post('/garbage')).retryAfterSeconds).toBeNull()
  })

  it('410 is reported as such (the caller disables the subscription)', async () => {
    expect(await post('/gone')).toMatchObject({ ok: false, status: 410, bodySnippet: 'unsubscribed', error: null })
  })

  it('302 is a failure and the Location is never requested', async () => {
    const out = await post('/redirect')
    expect(out).toMatchObject({ ok: false, status: 302, redirected: true })
    await new Promise((r) => setTimeout(r, 100))
    expect(srv.hits('/redirect')).toBe(1)
    expect(srv.hits('/landing')).toBe(0)
  })

  it('a server that never answers times out within timeoutMs', async () => {
    const t0 = Date.now()
    const out = await post('/hang', { timeoutMs: 300 })
    const elapsed = Date.now() - t0
    expect(out).toMatchObject({ ok: false, status: null, error: 'timeout after 300 ms' })
    expect(elapsed).toBeGreaterThanOrEqual(290)
    expect(elapsed).toBeLessThan(1_500)
    expect(out.latencyMs).toBeGreaterThanOrEqual(290)
  })

  it('the deadline also covers the body: headers then silence is a timeout, not a success', async () => {
    const out = await post('/trickle', { timeoutMs: 300 })
    expect(out).toMatchObject({ ok: false, status: 200, error: 'timeout after 300 ms', bodySnippet: '0123456789' })
  })

  it('connection refused comes back as an error, not a throw', async () => {
    const closed = net.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as net.AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const out = await postWebhook({ url: `http://127.0.0.1:${port}/`, body: '{}', headers: {}, allowPrivate: true, timeoutMs: 2_000 })
    expect(out).toMatchObject({ ok: false, status: null, redirected: false })
    expect(out.error).toMatch(/ECONNREFUSED/)
  })

  it('keeps the connection alive between attempts to the same host', async () => {
    const own = await startServer((_req, res) => res.writeHead(204).end())
    try {
      const a = await postWebhook({ url: `http://127.0.0.1:${own.port}/a`, body: '{}', headers: {}, allowPrivate: true, timeoutMs: 2_000 })
      const b = await postWebhook({ url: `http://127.0.0.1:${own.port}/b`, body: '{}', headers: {}, allowPrivate: true, timeoutMs: 2_000 })
      expect([a.ok, b.ok]).toEqual([true, true])
      expect(own.received.map((r) => r.path)).toEqual(['/a', '/b'])
      expect(own.connections()).toBe(1)
    } finally {
      await own.close()
    }
  })
})

describe('postWebhook with private targets refused (the production setting)', () => {
  let srv: Awaited<ReturnType<typeof startServer>>
  // A raw TCP listener for the https cases: it counts connections, then hangs up.
  let tcp: net.Server
  let tcpPort = 0
  let tcpConnections = 0
  beforeAll(async () => {
    srv = await startServer((_req, res) => res.writeHead(200).end('should not happen'))
    tcp = net.createServer((socket) => { tcpConnections++; socket.destroy() })
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve))
    tcpPort = (tcp.address() as net.AddressInfo).port
  })
  afterAll(async () => {
    await srv?.close()
    await new Promise<void>((resolve) => (tcp ? tcp.close(() => resolve()) : resolve()))
  })

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST.', '[::ffff:127.0.0.1]', '2130706433'])('http://%s:<port> is refused and never reached', async (host) => {
    const out = await postWebhook({ url: `http://${host}:${srv.port}/hook`, body: '{}', headers: {}, allowPrivate: false, timeoutMs: 2_000 })
    expect(out).toMatchObject({ ok: false, status: null })
    expect(out.error).toMatch(/refused/)
    expect(srv.received).toHaveLength(0)
    expect(srv.connections()).toBe(0)
  })

  it('a name that passes the URL check but resolves to loopback is refused at connect', async () => {
    const url = `https://hooks.rebind.test:${tcpPort}/hook`
    expect(checkWebhookUrl(url, { allowPrivate: false })).toBeNull() // nothing wrong with the name
    const dns = fakeDns([{ address: '127.0.0.1', family: 4 }])
    const out = await postWebhook({ url, body: '{}', headers: {}, allowPrivate: false, timeoutMs: 2_000, lookup: dns.lookup })
    expect(out).toMatchObject({ ok: false, status: null })
    expect(out.error).toMatch(/127\.0\.0\.1.*not allowed/)
    expect(dns.calls).toEqual(['hooks.rebind.test']) // the check ran on the resolved address
    expect(tcpConnections).toBe(0)
  })

  it('an answer mixing a public and a metadata address is refused as a whole', async () => {
    const dns = fakeDns([{ address: '169.254.169.254', family: 4 }, { address: '93.184.216.34', family: 4 }])
    const out = await postWebhook({ url: `https://mixed.rebind.test:${tcpPort}/`, body: '{}', headers: {}, allowPrivate: false, timeoutMs: 2_000, lookup: dns.lookup })
    expect(out.error).toMatch(/169\.254\.169\.254.*not allowed/)
    expect(tcpConnections).toBe(0)
  })

  it('control: the same name and resolver with private targets allowed does connect', async () => {
    const dns = fakeDns([{ address: '127.0.0.1', family: 4 }])
    const out = await postWebhook({ url: `https://hooks.rebind.test:${tcpPort}/hook`, body: '{}', headers: {}, allowPrivate: true, timeoutMs: 2_000, lookup: dns.lookup })
    expect(out.ok).toBe(false) // the listener hangs up during the TLS handshake
    expect(out.error).not.toMatch(/not allowed/)
    await expect.poll(() => tcpConnections).toBe(1)
  })
})
