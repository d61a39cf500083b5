// Requests reach only the router that can answer them (transports/route-prefix.ts), with the same
// answers as when every router looked at every request: 405 and 501 where a path exists, 404 where
// none does, case-insensitive paths, and MCP, legacy SSE and the webhooks under their prefixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startTestApp()
  key = (await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })).api_key
})
afterAll(() => app?.stop())

describe('routing by prefix and first segment', () => {
  it('answers a REST route, in any letter case and with a trailing slash', async () => {
    for (const path of ['/api/v1/leads', '/API/V1/Leads', '/api/v1/leads/']) {
      const res = await app.call('GET', path, { key })
      expect(res.status, path).toBe(200)
      expect(res.body.leads, path).toEqual([])
    }
  })

  it('405 names the methods a path has; 501 for a method no router implements; 404 for no path', async () => {
    const put = await app.call('PUT', '/api/v1/leads', { key, body: {} })
    expect(put.status).toBe(405)
    expect(put.body.error).toBe('method_not_allowed')
    expect(put.headers.get('allow')?.split(/,\s*/).sort()).toEqual(expect.arrayContaining(['GET', 'POST']))
    const propfind = await app.call('PROPFIND', '/api/v1/leads', { key })
    expect(propfind.status).toBe(501)
    expect(propfind.body.error).toBe('not_implemented')
    for (const path of ['/api/v1/no-such-thing', '/api/v1', '/api/v1/leadsx', '/nowhere']) {
      const res = await app.call('GET', path, { key })
      expect(res.status, path).toBe(404)
      expect(res.body.error, path).toBe('not_found')
    }
  })

  it('reaches MCP, the discovery routes and the webhooks under their own prefixes', async () => {
    const mcp = await app.call('GET', '/api/v1/mcp', { key })
    expect(mcp.status).toBe(200)
    // The legacy SSE message route answers with its own check of session_id, not a missing route.
    const sse = await app.call('POST', '/api/v1/mcp/sse/messages?session_id=nope', { key, body: {} })
    expect(sse.status).toBe(400)
    expect(sse.body.error.data.messages).toEqual(['session_id: is not a session id'])
    expect((await app.call('GET', '/api/v1/openapi.json')).status).toBe(200)
    expect((await app.call('GET', '/healthz')).status).toBe(200)
    // The Twilio route answers for itself (this deployment sends SMS locally), not as a missing route.
    const twilio = await app.call('POST', '/api/v1/comms/webhooks/twilio/inbound', { raw: 'From=%2B61412345678&Body=STOP', headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(twilio.body.message).toMatch(/SMS_PROVIDER is not twilio/)
  })
})
