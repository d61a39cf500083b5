// A result that changes state says what happens next (src/core/next-steps.ts): `next_steps`, each a
// tool and why, named the caller's way (over REST each step also gives its route). Coverage comes
// from the registry: every built write tool declares it, but those NOTHING_FOLLOWS lists, each with
// the reason; a new write tool fails here until it says what follows it.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createRegistry } from '../src/domains/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'

const registry = createRegistry()
const writes = registry.operations.filter((op) => !op.planned && op.annotations.readOnlyHint !== true)

/** Write tools after which nothing follows, and why. Only shrinks or gains a reason. */
const NOTHING_FOLLOWS: Record<string, string> = {}

const declares = (name: string) => Boolean((registry.get(name)!.output as { properties?: Record<string, unknown> }).properties?.next_steps)

describe('which tools say what follows', () => {
  it('every built write tool declares next_steps in its output schema, unless listed with a reason', () => {
    const missing = writes.filter((op) => !declares(op.name) && !(op.name in NOTHING_FOLLOWS)).map((op) => op.name)
    expect(missing).toEqual([])
    for (const name of Object.keys(NOTHING_FOLLOWS)) expect(declares(name), `${name} declares next_steps: take it off the list`).toBe(false)
  })

  it('every tool a next step names exists (read from the next-steps sources)', () => {
    const dir = fileURLToPath(new URL('../src/domains/', import.meta.url))
    const files = (function walk(d: string): string[] {
      return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : /next-steps\.ts$/.test(n) ? [join(d, n)] : []))
    })(dir)
    expect(files.length).toBeGreaterThan(2)
    const named = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/tool: '([a-z_]+\.[a-z_]+)'/g)].map((m) => m[1]!))
    expect(named.length).toBeGreaterThan(10)
    expect(named.filter((n) => !registry.get(n))).toEqual([])
  })
})

let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
let client: Client
beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
})

describe('what a lead-to-job run is told', () => {
  it('lead -> quote -> accepted -> scheduled -> completed: each result names the next tool with the ids to pass', async () => {
    const { lead, next_steps: afterLead } = await tool(client, 'leads.create', { name: 'Jane Citizen', email: 'jane@example.com' })
    expect(afterLead[0]).toMatchObject({ tool: 'quotes.create', why: expect.stringContaining(lead.id) })
    const created = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Hot water system', quantity: 1, unitPrice: 2975 }], deposit_percent: 20 })
    expect(created.next_steps).toEqual([{ tool: 'quotes.send', why: expect.stringContaining(created.quote.id) }])
    const sent = await tool(client, 'quotes.send', { quote_id: created.quote.id, send_email: true })
    expect(sent.next_steps[0]).toMatchObject({ tool: 'quotes.list', why: expect.stringContaining('deposit invoice ($654.50)') })
    const accepted = await tool(client, 'quotes.update', { quote_id: created.quote.id, status: 'Accepted' })
    expect(accepted.next_steps).toEqual([{ tool: 'jobs.update', why: expect.stringContaining(accepted.quote.job_id) }])
    const scheduled = await tool(client, 'jobs.update', { job_id: accepted.quote.job_id, scheduled_date: '2026-12-03T09:00:00+11:00' })
    expect(scheduled.next_steps.map((s: { tool: string }) => s.tool)).toEqual(['jobs.send_eta', 'jobs.complete'])
    const done = await tool(client, 'jobs.complete', { job_id: accepted.quote.job_id })
    expect(done.next_steps.map((s: { tool: string }) => s.tool)).toEqual(['invoicing.generate', 'reviews.request'])
  })

  it('a dry run names the real call; the text summary lists the steps', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Sam Dry', email: 'sam@example.com' })
    const { quote } = await tool(client, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Tap washer', quantity: 1, unitPrice: 90 }] })
    const res = await client.callTool({ name: 'quotes.send', arguments: { quote_id: quote.id, send_email: true, dry_run: true } })
    const out = res.structuredContent as { next_steps: { tool: string; why: string }[] }
    expect(out.next_steps).toEqual([{ tool: 'quotes.send', why: expect.stringContaining('without dry_run') }])
    const text = (res.content as { text: string }[])[0]!.text
    expect(text).toContain('Next: quotes.send (This was a dry run')
  })

  it('over REST each step also gives its route, and the why names routes', async () => {
    const lead = await app.call('POST', '/api/v1/leads', { key: company.api_key, body: { name: 'Rest Caller' } })
    const quote = await app.call('POST', '/api/v1/quotes', { key: company.api_key, body: { lead_id: lead.body.lead.id, line_items: [{ description: 'Tap', quantity: 1, unitPrice: 50 }] } })
    expect(quote.status).toBe(201)
    expect(quote.body.next_steps).toEqual([{ tool: 'quotes.send', route: 'POST /api/v1/quotes/{quote_id}/send', why: expect.stringContaining(quote.body.quote.id) }])
    expect(quote.body.next_steps[0].why).not.toContain('quotes.send')
  })
})
