// Inputs at the edge of what the code after validation can compute with: the three a fuzz pass
// found answered internal_error (a quote valid until 9999-12-31, a quantity of 5e-324, a daily
// summary of 9999-12-31), and empty idempotency keys, which were read as no key. Each must be
// refused as validation_error naming the field and its range, through a real MCP client and over
// REST; the ranges are docs/decisions.md's (dates 2000-01-01..2099-12-31, quantities 0.001..100000).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { fittingInput } from './helpers/arbitrary.js'
import { createRegistry } from '../src/domains/index.js'
import type { AnyOperation } from '../src/core/operation.js'

const DATE_RANGE = /must be a date \(YYYY-MM-DD\) from 2000-01-01 to 2099-12-31/
const QUANTITY_RANGE = /from 0\.001 to 100000/

let app: TestApp
let client: Client
let key: string
let leadId: string
const line = (quantity: number) => ({ description: 'Labour', quantity, unitPrice: 95 })

beforeAll(async () => {
  app = await startTestApp()
  key = (await onboard(app, { plan: 'business', phone: '0412 000 111' })).api_key
  client = await connectHttp(app, key)
  leadId = (await tool(client, 'leads.create', { name: 'Robin Vale', phone: '0412 555 010', email: 'robin@example.com.au', suburb: 'Newtown' })).lead.id
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

/** The one message naming `field`, asserted to be a validation_error. */
async function refusal(name: string, args: Record<string, unknown>, field: string): Promise<string> {
  const body = await toolError(client, name, args)
  expect(body.error, JSON.stringify(body)).toBe('validation_error')
  const named = (body.messages as string[]).filter((m) => m.startsWith(`${field}: `))
  expect(named, JSON.stringify(body)).toHaveLength(1)
  return named[0]!
}

describe('dates hold a range the code after them can compute with', () => {
  it('quotes.update refuses valid_until 9999-12-31 naming the range, keeps the edge, and the quote still sends', async () => {
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: [line(1)] })
    expect(await refusal('quotes.update', { quote_id: quote.id, valid_until: '9999-12-31' }, 'valid_until')).toMatch(DATE_RANGE)
    expect(await refusal('quotes.update', { quote_id: quote.id, valid_until: '2100-01-01' }, 'valid_until')).toMatch(DATE_RANGE)
    expect(await refusal('quotes.update', { quote_id: quote.id, valid_until: '1999-12-31' }, 'valid_until')).toMatch(DATE_RANGE)
    expect((await tool(client, 'quotes.update', { quote_id: quote.id, valid_until: '2099-12-31' })).quote.validUntil).toBe('2099-12-31')
    // The follow-up arithmetic after the last allowed day still computes.
    expect((await tool(client, 'quotes.send', { quote_id: quote.id })).quote.status).toBe('Sent')
  })

  it('workflows.daily_summary refuses 9999-12-31 and 0000-01-01 naming the range', async () => {
    expect(await refusal('workflows.daily_summary', { date: '9999-12-31' }, 'date')).toMatch(DATE_RANGE)
    expect(await refusal('workflows.daily_summary', { date: '0000-01-01' }, 'date')).toMatch(DATE_RANGE)
    expect((await tool(client, 'workflows.daily_summary', { date: '2099-12-31' })).date).toBe('2099-12-31')
  })

  // None of the three above has a REST binding: every REST operation with a date input shows the
  // same rule holds there, each from a fitting input with that one date set past the range.
  const registry = createRegistry()
  const restDates = registry.restOperations().flatMap((op) => dateFields(op).map((field) => [`${op.rest!.method} ${op.rest!.path} ${field}`, op, field] as const))
  it('REST operations exist with date inputs', () => expect(restDates.length).toBeGreaterThan(3))
  it.for(restDates)('REST %s refuses 9999-12-31 naming the field and the range', async ([, op, field]) => {
    const dateTime = (op.input as any).properties[field].format === 'date-time'
    const input = { ...fittingInput(op.input as Record<string, unknown>), [field]: dateTime ? '9999-12-31T00:00:00Z' : '9999-12-31' }
    const reply = await restCall(op, input)
    expect(reply.status, JSON.stringify(reply.body)).toBe(400)
    expect(reply.body.error).toBe('validation_error')
    expect(reply.body.messages, JSON.stringify(reply.body)).toContainEqual(expect.stringMatching(new RegExp(`^${field}: must be .*from 2000-01-01 to 2099-12-31`)))
  })
})

describe('quantities below a thousandth are refused', () => {
  it('quotes.create, quotes.update and jobs.update refuse 5e-324 naming the field and its range', async () => {
    expect(await refusal('quotes.create', { lead_id: leadId, line_items: [line(5e-324)] }, 'line_items.0.quantity')).toMatch(QUANTITY_RANGE)
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: [line(0.001)] })
    expect(quote.lineItems[0].quantity).toBe(0.001)
    expect(await refusal('quotes.update', { quote_id: quote.id, line_items: [line(1), line(5e-324)] }, 'line_items.1.quantity')).toMatch(QUANTITY_RANGE)
    expect(await refusal('quotes.update', { quote_id: quote.id, line_items: [line(1e-9)] }, 'line_items.0.quantity')).toMatch(QUANTITY_RANGE)
    const { job } = await tool(client, 'jobs.create', { lead_id: leadId, title: 'Bounds job' })
    expect(await refusal('jobs.update', { job_id: job.id, add_extras: [line(5e-324)] }, 'add_extras.0.quantity')).toMatch(QUANTITY_RANGE)
    expect(await refusal('jobs.update', { job_id: job.id, add_extras: [line(100_001)] }, 'add_extras.0.quantity')).toMatch(QUANTITY_RANGE)
  })

  it('a priced line that comes to less than a cent is refused; a free line and a cent are not', async () => {
    const tenthOfACent = { description: 'Washer', quantity: 0.001, unitPrice: 1 } // 0.1 cents
    expect(await refusal('quotes.create', { lead_id: leadId, line_items: [line(1), tenthOfACent] }, 'line_items.1')).toMatch(/less than one cent/)
    const { job } = await tool(client, 'jobs.create', { lead_id: leadId, title: 'Cent job' })
    expect(await refusal('jobs.update', { job_id: job.id, add_extras: [tenthOfACent] }, 'add_extras.0')).toMatch(/less than one cent/)
    // 0.005 x $1.00 is half a cent, which rounds up to one; a free line bills nothing and says so.
    const { quote } = await tool(client, 'quotes.create', { lead_id: leadId, line_items: [{ ...tenthOfACent, quantity: 0.005 }, { ...tenthOfACent, unitPrice: 0 }] })
    expect(quote.lineItems.map((l: { total: number }) => l.total)).toEqual([0.01, 0])
  })
})

describe('an empty idempotency key is refused, not read as none', () => {
  const good = /idempotency_key: is (empty|null); send 1 to 255 printable ASCII characters without spaces \(a new UUID per request is a good choice\), or leave it out/

  it('over MCP: the argument empty or null, and _meta.idempotency_key empty', async () => {
    const args = { name: 'Empty Key', phone: '0412 555 011' }
    for (const idempotency_key of ['', null]) {
      const body = await toolError(client, 'leads.create', { ...args, idempotency_key })
      expect(body.error).toBe('validation_error')
      expect(body.messages).toEqual([expect.stringMatching(good)])
    }
    const res = await client.callTool({ name: 'leads.create', arguments: args, _meta: { idempotency_key: '' } })
    expect(res.isError).toBe(true)
    expect((res.structuredContent as any).messages).toEqual([expect.stringMatching(/^_meta\.idempotency_key: is empty; send 1 to 255/)])
    expect(await app.owner`select 1 from leads where name = 'Empty Key'`).toHaveLength(0)
  })

  it('over REST: an Idempotency-Key header sent empty', async () => {
    const reply = await app.call('POST', '/api/v1/leads', { key, headers: { 'idempotency-key': '' }, body: { name: 'Empty Header', phone: '0412 555 012' } })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ error: 'validation_error', messages: [expect.stringMatching(/^Idempotency-Key: is empty; send 1 to 255 printable ASCII/)] })
    expect(await app.owner`select 1 from leads where name = 'Empty Header'`).toHaveLength(0)
    // Not sent at all is still no key: the write runs.
    expect((await app.call('POST', '/api/v1/leads', { key, body: { name: 'No Header', phone: '0412 555 013' } })).status).toBe(201)
  })
})

function dateFields(op: AnyOperation): string[] {
  const properties = ((op.input as { properties?: Record<string, { format?: string }> }).properties) ?? {}
  return Object.entries(properties).filter(([, s]) => s.format === 'date' || s.format === 'date-time').map(([name]) => name)
}

async function restCall(op: AnyOperation, input: Record<string, unknown>) {
  const { method, path } = op.rest!
  const params = [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!)
  const url = path.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(String(input[name] ?? 'x')))
  const rest = Object.fromEntries(Object.entries(input).filter(([k]) => !params.includes(k)))
  if (method === 'GET' || method === 'DELETE') {
    const query = new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
    return app.call(method, `/api/v1${url}?${query}`, { key })
  }
  return app.call(method, `/api/v1${url}`, { key, body: rest })
}
