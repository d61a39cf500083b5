// The webhook event table agrees with what the domains write, and is published where the issue says:
// the README table and OpenAPI 3.1's top-level `webhooks` section, each event with its payload schema.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
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
      expect(row!.split(' | ')[2], `${e.name}: README's "Emitted by" is the catalogue's emittedBy`).toBe(e.emittedBy.join('; '))
    }
  })

  it('every operation an event names as its emitter exists and reaches code that writes that event', () => {
    // emittedBy is prose for people, so it is checked against the code here: a tool or REST route it
    // names must be registered, and the file defining that operation must import (directly or through
    // other files) a file that records the event. Other emitters (pages, processor webhook, workflows)
    // are named in words and checked by their own tests.
    const registry = createRegistry()
    const sourceOf = new Map<string, string>()
    const domains = new URL('../src/domains/', import.meta.url)
    for (const dir of readdirSync(domains, { withFileTypes: true }).filter((d) => d.isDirectory())) {
      for (const file of readdirSync(new URL(`${dir.name}/`, domains)).filter((f) => f.endsWith('.ts'))) {
        const url = new URL(`${dir.name}/${file}`, domains)
        for (const m of readFileSync(url, 'utf8').matchAll(/\bname: '([a-z_]+(?:\.[a-z_]+)?)'/g)) if (!sourceOf.has(m[1]!)) sourceOf.set(m[1]!, url.href)
      }
    }
    const reaches = (start: string, event: string): boolean => {
      const seen = new Set<string>()
      const queue = [start]
      while (queue.length) {
        const href = queue.pop()!
        if (seen.has(href)) continue
        seen.add(href)
        const source = readFileSync(new URL(href), 'utf8')
        if (source.includes(`type: '${event}'`)) return true
        for (const m of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
          const next = new URL(`${m[1]}.ts`, href)
          if (existsSync(next)) queue.push(next.href)
        }
      }
      return false
    }
    let checked = 0
    for (const e of WEBHOOK_EVENT_CATALOGUE) {
      expect(e.emittedBy.length, e.name).toBeGreaterThan(0)
      for (const emitter of e.emittedBy) {
        const tool = emitter.match(/^([a-z]+\.[a-z_]+)\b/)?.[1]
        const route = emitter.match(/^(GET|POST|PATCH|PUT|DELETE) (\/\S+)/)
        const op = tool ? registry.get(tool) : route ? registry.restOperations().find((o) => o.rest!.method === route[1] && o.rest!.path === route[2]!.replace(/\{(\w+)\}/g, ':$1')) : undefined
        if (!tool && !route) continue
        expect(op, `${e.name}: emittedBy names ${emitter}, which is not a registered operation`).toBeDefined()
        expect(sourceOf.get(op!.name), op!.name).toBeDefined()
        expect(reaches(sourceOf.get(op!.name)!, e.name), `${e.name}: ${op!.name} reaches no code that records it`).toBe(true)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(10)
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
