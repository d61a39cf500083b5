// GET /metrics (issue 27): a few MCP and REST calls, a webhook delivered, an SMS sent, one call
// refused by the burst limit, then a scrape that shows each named series with its labels.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { startMetricsServer } from '../src/transports/metrics-server.js'
import { startReceiver, type Receiver } from './helpers/receiver.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'

const TOKEN = 'metrics-test-token'
const BURST = 20

let app: TestApp
let receiver: Receiver
let client: Client
let company: Awaited<ReturnType<typeof onboard>>

beforeAll(async () => {
  receiver = await startReceiver()
  // The receiver listens on 127.0.0.1; a low burst limit makes one refusal cheap.
  app = await startTestApp({ config: { WEBHOOK_ALLOW_PRIVATE_TARGETS: true, METRICS_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: BURST } })
  company = await onboard(app, { plan: 'business' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await receiver?.close()
})

async function scrape(): Promise<string> {
  const res = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  return res.text()
}

/** The value of one series, its labels given in any order; undefined when it is not there. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!match || match[1] !== name) continue
    const has = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    if (Object.entries(labels).every(([k, v]) => has[k] === v)) return Number(match[3])
  }
  return undefined
}

describe('GET /metrics', () => {
  it('asks for the METRICS_TOKEN bearer when one is set', async () => {
    const none = await fetch(`${app.url}/metrics`)
    expect(none.status).toBe(401)
    expect(await none.json()).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('METRICS_TOKEN') })
    const wrong = await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
  })

  it('shows requests, latency, quota refusals, outbox backlog, messages, webhook deliveries and wallet charges', async () => {
    await tool(client, 'webhooks.subscribe', { url: receiver.url('/metrics-hook'), events: ['lead.created'] })
    const { lead } = await tool(client, 'leads.create', { name: 'Metric Lead', phone: '0412 345 678' })
    await tool(client, 'comms.send_sms', { to: '0412 345 678', message: 'On our way', lead_id: lead.id })
    expect((await app.call('GET', '/api/v1/leads', { key: company.api_key })).status).toBe(200)
    expect((await app.call('PATCH', `/api/v1/leads/${crypto.randomUUID()}`, { key: company.api_key, body: { name: 'Nobody' } })).status).toBe(404)

    // A second key's burst: the call after BURST in a minute is refused.
    const other = await onboard(app, { plan: 'business' })
    let refused = 0
    for (let i = 0; i <= BURST && refused === 0; i++) {
      if ((await app.call('GET', '/api/v1/leads', { key: other.api_key })).status === 429) refused++
    }
    expect(refused).toBe(1)

    const text = await waitFor(scrape, (t) =>
      (value(t, 'tradie_webhook_deliveries_total', { outcome: 'delivered' }) ?? 0) >= 1 &&
      (value(t, 'tradie_messages_total', { channel: 'sms' }) ?? 0) >= 1)

    expect(value(text, 'tradie_requests_total', { operation: 'leads.create', transport: 'mcp', status: '200' })).toBe(1)
    expect(value(text, 'tradie_requests_total', { operation: 'leads.list', transport: 'rest', status: '200' })).toBeGreaterThanOrEqual(1)
    expect(value(text, 'tradie_requests_total', { operation: 'leads.update', transport: 'rest', status: '404' })).toBe(1)
    expect(value(text, 'tradie_requests_total', { operation: 'leads.list', transport: 'rest', status: '429' })).toBe(1)
    expect(value(text, 'tradie_request_duration_seconds_count', { operation: 'leads.create', transport: 'mcp' })).toBe(1)
    expect(value(text, 'tradie_request_duration_seconds_bucket', { operation: 'leads.create', transport: 'mcp', le: '+Inf' })).toBe(1)
    expect(value(text, 'tradie_request_duration_seconds_sum', { operation: 'leads.create', transport: 'mcp' })).toBeGreaterThan(0)
    expect(value(text, 'tradie_quota_refusals_total', { limit: 'burst' })).toBe(1)
    for (const outbox of ['workflow', 'webhook_deliveries']) {
      expect(value(text, 'tradie_outbox_backlog', { outbox })).toBeGreaterThanOrEqual(0)
      expect(value(text, 'tradie_outbox_oldest_age_seconds', { outbox })).toBeGreaterThanOrEqual(0)
    }
    // The local SMS provider records what it would send: the lead's instant reply and ours.
    expect(value(text, 'tradie_messages_total', { channel: 'sms', outcome: 'recorded' })).toBeGreaterThanOrEqual(1)
    expect(value(text, 'tradie_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1)
    // MCP calls are paid from the wallet: reads 1 cent, writes 5 (three writes and no refunds here).
    expect(value(text, 'tradie_wallet_charges_total', { cost: 'write' })).toBe(3)
    expect(value(text, 'tradie_wallet_charges_cents_total', { cost: 'write' })).toBe(15)
    expect(receiver.at('/metrics-hook').length).toBeGreaterThanOrEqual(1)
  })

  it('counts a pending workflow start in the outbox backlog, with its age', async () => {
    const { owner } = app
    const [row] = await owner<{ id: string }[]>`
      insert into workflow_outbox (company_id, workflow_type, workflow_id, input, created_at)
      values (${company.company_id}, 'noSuchWorkflow', ${`metrics-${Date.now()}`}, '{}'::jsonb, now() - interval '1 hour')
      returning id::text`
    try {
      const text = await scrape()
      expect(value(text, 'tradie_outbox_backlog', { outbox: 'workflow' })).toBeGreaterThanOrEqual(1)
      expect(value(text, 'tradie_outbox_oldest_age_seconds', { outbox: 'workflow' })).toBeGreaterThanOrEqual(3600)
    } finally {
      await owner`delete from workflow_outbox where id = ${row!.id}`
    }
  })

  it('is served on METRICS_PORT by a process without the API (the worker), from the same registry', async () => {
    const server = await startMetricsServer(app.runtime.deps, 0, '127.0.0.1')
    try {
      const base = `http://127.0.0.1:${server.port}`
      expect((await fetch(`${base}/metrics`)).status).toBe(401)
      expect((await fetch(`${base}/other`)).status).toBe(404)
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
      expect(res.status).toBe(200)
      expect(value(await res.text(), 'tradie_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1)
    } finally {
      await server.stop()
    }
  })
})
