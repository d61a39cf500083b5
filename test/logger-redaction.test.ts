// The logger never writes a credential: api_key and password at the top level or one level down,
// and req.headers.authorization, come out as [Redacted] (the rule pino's `redact` paths expressed
// before; src/logger.ts). Read back from the JSON lines a real pino logger writes.
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createLogger, logRequest, redactSecrets, type RequestLine } from '../src/logger.js'

function capture(level = 'info') {
  const lines: Record<string, unknown>[] = []
  const raw: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        raw.push(line)
        lines.push(JSON.parse(line) as Record<string, unknown>)
      }
      done()
    },
  })
  return { logger: createLogger(level, stream), lines, raw }
}

describe('log redaction', () => {
  it('censors api_key and password at the top level and one level down, and the authorization header', () => {
    const { logger, lines } = capture()
    const logged = {
      api_key: 'sk_live_top', password: 'hunter2', companyId: 'c1',
      body: { api_key: 'sk_live_nested', password: 'p', name: 'Jo' },
      req: { method: 'GET', headers: { authorization: 'Bearer sk_live_header', accept: 'application/json' } },
      deep: { inner: { password: 'three levels down is not a path we censor' } },
    }
    const before = structuredClone(logged)
    logger.info(logged, 'request')
    const [line] = lines
    expect(line).toMatchObject({
      api_key: '[Redacted]', password: '[Redacted]', companyId: 'c1', msg: 'request',
      body: { api_key: '[Redacted]', password: '[Redacted]', name: 'Jo' },
      req: { method: 'GET', headers: { authorization: '[Redacted]', accept: 'application/json' } },
    })
    expect(JSON.stringify(line)).not.toMatch(/sk_live|hunter2/)
    // The caller's object is not changed (it may be a live request or row).
    expect(logged).toEqual(before)
  })

  it('leaves a line without secrets as it is, and an Error with a password still an Error', () => {
    const plain = { requestId: 'r1', status: 200, path: '/api/v1/leads', ms: 1.2 }
    expect(redactSecrets(plain)).toBe(plain)
    const { logger, lines } = capture()
    const err = Object.assign(new Error('connect failed'), { password: 'pw' })
    logger.error({ err }, 'failed')
    const logged = lines[0]!.err as Record<string, unknown>
    expect(logged).toMatchObject({ type: 'Error', message: 'connect failed', password: '[Redacted]' })
    expect(String(logged.stack)).toContain('connect failed')
    expect(err.password).toBe('pw')
  })
})

describe('the request line', () => {
  const requests: RequestLine[] = [
    { requestId: 'f1d8a4e2-0b7c-4a51-9a63-2a0d6f3e9b10', method: 'GET', path: '/api/v1/leads', status: 200, ms: 1.3, companyId: '5b0f8d6e-4d2f-4e0a-8c53-0d2b6f1a7e44' },
    { requestId: 'req-1', method: 'POST', path: '/q/[redacted]/accept "quoted" \\ ü', status: 404, ms: 0 },
  ]

  it('is the line pino itself writes for logger.info(line, "request"), byte for byte but the time', () => {
    for (const request of requests) {
      const ours = capture()
      const pinos = capture()
      logRequest(ours.logger.child({ instance: 'api-1' }), request)
      pinos.logger.child({ instance: 'api-1' }).info(request, 'request')
      const withoutTime = (line: string) => line.replace(/"time":\d+,/, '')
      expect(ours.raw).toHaveLength(1)
      expect(withoutTime(ours.raw[0]!)).toBe(withoutTime(pinos.raw[0]!))
      expect(ours.lines[0]).toMatchObject({ level: 30, msg: 'request', service: 'tradie-ops', instance: 'api-1', path: request.path })
      expect(Math.abs((ours.lines[0]!.time as number) - Date.now())).toBeLessThan(5000)
    }
  })

  it('is not written below the info level', () => {
    const quiet = capture('warn')
    logRequest(quiet.logger, requests[0]!)
    expect(quiet.raw).toEqual([])
  })
})
