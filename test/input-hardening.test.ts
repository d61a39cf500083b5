// The reproducers from the hardening issue's attack run: inputs that once got a 500 get a clean
// 4xx in the spec's body, naming the field. (The fuzz test covers every operation; this file pins
// each reported case, including the ones below the routes: body parsing and Node's HTTP parser.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { connect as connectSocket } from 'node:net'
import { gzipSync } from 'node:zlib'
import { onboard, startTestApp, uniqueEmail, type TestApp } from './helpers/app.js'
import { rpc } from './helpers/mcp.js'
import { INPUT_LIMITS } from '../src/core/input-guard.js'

let app: TestApp
let key: string

beforeAll(async () => {
  app = await startTestApp()
  key = (await onboard(app, { plan: 'business' })).api_key
})
afterAll(async () => {
  await app?.stop()
})

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

function expectValidation(reply: { status: number; body: any }, field: string) {
  expect(reply.status).toBe(400)
  expect(reply.body.error).toBe('validation_error')
  expect(typeof reply.body.message).toBe('string')
  expect(reply.body.messages.some((m: string) => m.startsWith(`${field}:`)), JSON.stringify(reply.body)).toBe(true)
}

/** Sends raw bytes and reads the raw answer (what fetch would refuse to send). */
async function rawHttp(request: string): Promise<{ status: number; headers: string; body: string }> {
  const url = new URL(app.url)
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connectSocket(Number(url.port), url.hostname)
    let data = ''
    socket.on('data', (chunk) => (data += chunk.toString('utf8')))
    socket.on('end', () => resolve(data))
    socket.on('error', reject)
    socket.write(request)
  })
  const [head, ...rest] = text.split('\r\n\r\n')
  return { status: Number(head!.split(' ')[1]), headers: head!, body: rest.join('\r\n\r\n') }
}

describe('text Postgres cannot store', () => {
  test('a NUL byte in a lead name: 400 naming the field (REST and MCP)', async () => {
    expectValidation(await app.call('POST', '/api/v1/leads', { key, body: { name: 'a\u0000b', phone: '0412345678' } }), 'name')
    const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'leads.create', arguments: { name: 'a\u0000b' } } }, { key })
    expect(res.status).toBe(200)
    expect(res.body.result.isError).toBe(true)
    expect(res.body.result.structuredContent.error).toBe('validation_error')
    expect(res.body.result.structuredContent.messages).toContainEqual(expect.stringMatching(/^name: .*NUL/))
  })

  test('a NUL byte in POST /onboard without a key', async () => {
    const reply = await app.call('POST', '/api/v1/onboard', { body: { business_name: 'Nul\u0000 Plumbing', email: uniqueEmail(), plan: 'starter' } })
    expectValidation(reply, 'business_name')
  })

  test('a NUL byte in a query string', async () => {
    expectValidation(await app.call('GET', '/api/v1/jobs?technician=%00', { key }), 'technician')
  })

  test('lone surrogates are refused the same way, including in text queued for messages', async () => {
    expectValidation(await app.call('POST', '/api/v1/leads', { key, body: { name: 'Bob \ud83d' } }), 'name')
    for (const [tool, args] of [
      ['jobs.send_eta', { job_id: crypto.randomUUID(), message: 'on my way \udc00' }],
      ['quotes.send', { quote_id: crypto.randomUUID(), send_sms: true, message: 'hi \ud800 there' }],
    ] as const) {
      const res = await rpc(app, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } }, { key })
      expect(res.body.result.structuredContent.error, tool).toBe('validation_error')
      expect(res.body.result.structuredContent.messages, tool).toContainEqual(expect.stringMatching(/^message: .*surrogate/))
    }
    // A well-formed pair (an emoji) is text like any other.
    const ok = await app.call('POST', '/api/v1/leads', { key, body: { name: 'Bob 🔧' } })
    expect(ok.status).toBe(201)
    expect(ok.body.lead.name).toBe('Bob 🔧')
  })

  test('a lone surrogate sent as raw (invalid UTF-8) bytes is read as U+FFFD, not a failure', async () => {
    const reply = await app.call('GET', '/api/v1/leads?status=%ED%A0%80', { key })
    expectValidation(reply, 'status')
  })
})

describe('size and shape before validation', () => {
  test('3,300 levels of nesting in a field (6.6 KB): 400, not a stack overflow', async () => {
    const raw = `{"name":"Deep","message":${nested(3_300)}}`
    const reply = await app.call('POST', '/api/v1/leads', { key, raw })
    expectValidation(reply, 'message')
    expect(reply.body.messages.join(' ')).toContain(`deeper than ${INPUT_LIMITS.maxDepth}`)
    const mcp = await rpc(app, null, { key, raw: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"leads.create","arguments":{"name":${nested(3_300)}}}}` })
    expect(mcp.status).toBe(200)
    expect(mcp.body.result.structuredContent.error).toBe('validation_error')
  })

  test('a body over the documented limit: 413 payload_too_large', async () => {
    const raw = JSON.stringify({ name: 'Big', message: 'x'.repeat(INPUT_LIMITS.maxBodyBytes + 10) })
    const reply = await app.call('POST', '/api/v1/leads', { key, raw })
    expect(reply.status).toBe(413)
    expect(reply.body.error).toBe('payload_too_large')
    expect(reply.body.message).toMatch(/1 MB/)
  })

  test('Content-Encoding: gzip with a body that is not gzip: 400; real gzip is read', async () => {
    const bad = await fetch(`${app.url}/api/v1/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{"name":"not gzip"}',
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as any).error).toBe('validation_error')
    const good = await fetch(`${app.url}/api/v1/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(Buffer.from('{"name":"Gzipped Gary"}')),
    })
    expect(good.status).toBe(201)
    expect(((await good.json()) as any).lead.name).toBe('Gzipped Gary')
  })

  test('a path with broken percent-encoding: 400, not 500', async () => {
    const reply = await app.call('GET', '/api/v1/leads/%E0%A4%A', { key })
    expect(reply.status).toBeLessThan(500)
    expect(reply.status).toBeGreaterThanOrEqual(400)
    expect(typeof reply.body.error).toBe('string')
  })
})

describe("Node's own refusals carry the JSON error body", () => {
  test('bad framing: 400 with {error, message}', async () => {
    const reply = await rawHttp('GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n')
    expect(reply.status).toBe(400)
    expect(reply.headers).toMatch(/content-type: application\/json/i)
    const body = JSON.parse(reply.body)
    expect(body.error).toBe('validation_error')
    expect(body.message).toMatch(/HTTP/)
  })

  test('huge headers: 431 with {error, message}', async () => {
    const reply = await rawHttp(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`)
    expect(reply.status).toBe(431)
    const body = JSON.parse(reply.body)
    expect(body.error).toBe('validation_error')
    expect(body.message).toMatch(/headers/)
  })
})
