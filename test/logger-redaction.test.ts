// The logger never writes a credential: api_key and password at the top level or one level down,
// and req.headers.authorization, come out as [Redacted] (the rule pino's `redact` paths expressed
// before; src/logger.ts). Read back from the JSON lines a real pino logger writes.
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createLogger, redactSecrets } from '../src/logger.js'

function capture() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { logger: createLogger('info', stream), lines }
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
