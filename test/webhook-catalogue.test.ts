// The webhook event table agrees with what the domains write, and is published where the issue says:
// the README table and OpenAPI 3.1's top-level `webhooks` section, each event with its payload schema.
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRegistry } from '../src/domains/index.js'
import { canonicalEvents, SUBSCRIBABLE_EVENT_NAMES, WEBHOOK_EVENT_CATALOGUE } from '../src/domains/webhooks/events.js'
import { startTestApp, type TestApp } from './helpers/app.js'
import { SPEC_EVENT_NAMES } from './helpers/spec-data.js'

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app?.stop())

describe('webhook event catalogue', () => {
  it('every event a domain writes can be subscribed to, and nothing else', () => {
    expect(WEBHOOK_EVENT_CATALOGUE.map((e) => e.name).sort()).toEqual([...createRegistry().events].sort())
  })

  it("accepts both of the spec's name sets (section 6) and maps each to its canonical name", () => {
    const { rest, mcp } = SPEC_EVENT_NAMES
    for (const name of [...rest, ...mcp]) expect(SUBSCRIBABLE_EVENT_NAMES).toContain(name)
    expect(canonicalEvents(mcp)).toEqual({ events: mcp.map((n) => n.replace('_', '.')), unknown: [] })
    expect(canonicalEvents(['lead.created', 'lead_created', 'lead.exploded'])).toEqual({ events: ['lead.created'], unknown: ['lead.exploded'] })
  })

  it('the README table names every event, its alias and what emits it', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    for (const e of WEBHOOK_EVENT_CATALOGUE) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${e.name}\` |`))
      expect(row, e.name).toBeDefined()
      expect(row).toContain(`\`${e.alias}\``)
    }
  })

  it("OpenAPI's webhooks section has every event with its envelope and the resource schema", async () => {
    const spec = (await app.call('GET', '/api/v1/openapi.json')).body
    expect(Object.keys(spec.webhooks).sort()).toEqual(WEBHOOK_EVENT_CATALOGUE.map((e) => e.name).sort())
    const lead = spec.webhooks['lead.created'].post
    const body = lead.requestBody.content['application/json'].schema
    expect(body.required).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'company_id', 'data']))
    expect(body.properties.data.properties.lead.properties.name).toBeDefined()
    expect(lead.parameters.map((p: any) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'X-Webhook-Signature'])
    expect(spec.webhooks['payment.received'].post.requestBody.content['application/json'].schema.properties.data.properties.invoice).toBeDefined()
  })
})
