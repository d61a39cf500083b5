// Issue 23's cross-tenant matrix for the subcontractor tools: company B calls every operation whose
// name starts with "subcontractors." (taken from the registry, so a new tool is in the matrix the
// day it is registered) over MCP and over its REST route, with company A's ids: A's subcontractors,
// A's job and A's candidates, alone and mixed with B's own ids, every value of each small-domain
// field (the verify actions, list statuses, booleans) and A's trade and area as filters. Each answer
// must be not_found or validation_error wherever one of A's ids was given, and must carry nothing of
// A's (names, phones, emails, ABN, licence and policy numbers, ids, the offer token) that B did not
// send itself; and A's subcontractors, job, dispatch, offers, history and events read the same after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import type { TSchema } from 'typebox'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { createRegistry } from '../src/domains/index.js'
import type { AnyOperation } from '../src/core/operation.js'

type Args = Record<string, unknown>
type Schema = TSchema & { type?: string; enum?: unknown[]; format?: string; items?: Schema; anyOf?: Schema[]; minimum?: number }

const subcontractorTools = createRegistry().operations.filter((op) => op.name.startsWith('subcontractors.'))

let app: TestApp
let a: Awaited<ReturnType<typeof onboard>>
let b: Awaited<ReturnType<typeof onboard>>
let clientA: McpClient
let clientB: McpClient
// A's records, and the text of them that must never reach B.
const A = { trade: 'stained glass restoration', area: 'wollstonecraft', subs: [] as string[], jobId: '', leadId: '', dispatchId: '', offerId: '', offerToken: '' }
let secretsOfA: string[] = []
// B's own ids, to mix with one of A's at a time (B's job with A's candidates, and so on).
const B = { subId: '', jobId: '' }

beforeAll(async () => {
  // An offer that stays open for the whole file: A's dispatch is mid-offer while B probes it.
  app = await startTestApp({ config: { DISPATCH_OFFER_TIMEOUT_MS: 3_600_000 } })
  a = await onboard(app, { business_name: 'Wollstonecraft Leadlight', plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  b = await onboard(app, { business_name: 'Bravo Electrical', plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  clientA = await connectHttp(app, a.api_key)
  clientB = await connectHttp(app, b.api_key)

  const documents = { licence_state: 'NSW', licence_expiry: '2099-06-30', insurer: 'Zenith Mutual', insurance_expiry: '2099-06-30', service_suburbs: [A.area] }
  const { subcontractor: active } = await tool(clientA, 'subcontractors.register', {
    ...documents, name: 'Ottoline Quarrington', trades: [A.trade], phone: '0412 555 101', email: 'ottoline@leadlight.example', abn: '53 004 085 616',
    licence_number: 'LL-778899', policy_number: 'ZM-4455667',
  })
  await tool(clientA, 'subcontractors.verify', { subcontractor_id: active.id, action: 'verify' })
  await tool(clientA, 'subcontractors.verify', { subcontractor_id: active.id, action: 'activate' })
  const { subcontractor: pending } = await tool(clientA, 'subcontractors.register', {
    ...documents, name: 'Percival Yardley', trades: [A.trade], phone: '0412 555 102', email: 'percival@leadlight.example', licence_number: 'LL-112233',
  })
  const { lead } = await tool(clientA, 'leads.create', { name: 'Hermione Castellan', phone: '0412 555 202', email: 'hermione@castellan.example' })
  const { job } = await tool(clientA, 'jobs.create', { lead_id: lead.id, title: 'Restore the hall window', amount: 1870, address: '7 Bay Rd, Wollstonecraft NSW 2065' })
  const dispatch = await tool(clientA, 'subcontractors.dispatch', { job_id: job.id, candidates: [active.id] })
  const [offer] = await waitFor(
    async () => app.owner<{ id: string; token: string; dispatch_id: string }[]>`select o.id, o.token, o.dispatch_id from dispatch_offers o join dispatches d on d.id = o.dispatch_id where d.workflow_id = ${dispatch.workflow_id}`,
    (rows) => rows.length === 1, 20_000)
  // The offer's messages (SMS, then email) are the last thing the run does before it waits: once both
  // are recorded, A's rows hold still (waiting for the SMS alone let the email land mid-test).
  await waitFor(async () => app.owner`select channel from communications where job_id = ${job.id} and message_type = 'dispatch_offer'`, (rows) => new Set(rows.map((r) => r.channel)).size >= 2, 20_000)
  Object.assign(A, { subs: [active.id, pending.id], jobId: job.id, leadId: lead.id, dispatchId: offer!.dispatch_id, offerId: offer!.id, offerToken: offer!.token })
  secretsOfA = [
    a.company_id, a.user_id, a.email, 'Wollstonecraft Leadlight', ...A.subs, A.jobId, A.leadId, A.dispatchId, A.offerId, A.offerToken,
    'Ottoline Quarrington', 'Percival Yardley', 'Hermione Castellan', 'Restore the hall window', '7 Bay Rd',
    '+61412555101', '0412 555 101', '+61412555102', '+61412555202', 'ottoline@leadlight.example', 'percival@leadlight.example', 'hermione@castellan.example',
    '53004085616', 'LL-778899', 'LL-112233', 'ZM-4455667', 'Zenith Mutual', A.trade, A.area,
  ]

  const { subcontractor: own } = await tool(clientB, 'subcontractors.register', { name: 'Bea Volt', trades: ['electrical'], phone: '0412 666 101', service_suburbs: ['ryde'] })
  await tool(clientB, 'subcontractors.verify', { subcontractor_id: own.id, action: 'verify' })
  const { lead: bLead } = await tool(clientB, 'leads.create', { name: 'Bruno Client', phone: '0412 666 202' })
  const { job: bJob } = await tool(clientB, 'jobs.create', { lead_id: bLead.id, title: 'Rewire the shed' })
  Object.assign(B, { subId: own.id, jobId: bJob.id })
})
afterAll(async () => {
  await clientA?.close()
  await clientB?.close()
  await app?.stop()
})

// ---------------------------------------------------------------------------------------------
// The calls, generated from each operation's input schema.

const properties = (op: AnyOperation) => (op.input as unknown as { properties: Record<string, Schema> }).properties
const required = (op: AnyOperation) => new Set((op.input as unknown as { required?: string[] }).required ?? [])

// Lists of ids whose names do not say so (their items are plain strings, not format uuid).
const ID_LISTS = ['candidates']
/** A field that names records: *_id, *_ids, a uuid, a list of uuids, or one of ID_LISTS. */
const isIdField = (name: string, s: Schema) =>
  name.endsWith('_id') || name.endsWith('_ids') || ID_LISTS.includes(name) || s.format === 'uuid' || s.items?.format === 'uuid'

/** Company A's values for each id field; a new id field fails here until the matrix is told A's ids for it. */
function idsOfA(name: string): unknown[] {
  const table: Record<string, unknown[]> = { subcontractor_id: A.subs, job_id: [A.jobId], candidates: [A.subs, [B.subId, A.subs[0]]] }
  if (!table[name]) throw new Error(`no id of company A for the field ${name}: add one to idsOfA so the cross-tenant matrix covers it`)
  return table[name]
}
const idOfB = (name: string): unknown => ({ subcontractor_id: B.subId, job_id: B.jobId, candidates: [B.subId] } as Args)[name]

// Filters that could match A's rows by content rather than by id.
const contentOfA: Args = { get trade() { return A.trade }, get area() { return A.area } }
// Required fields that are neither ids nor A's content: B's own, plain values.
const fillers: Args = { name: 'Probe Person', trades: ['probe trade'] }

function sample(name: string, s: Schema): unknown {
  if (name in fillers) return fillers[name]
  if (s.enum) return s.enum[0]
  if (s.anyOf) return sample(name, s.anyOf[0]!)
  if (s.type === 'boolean') return false
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1
  if (s.type === 'array') return [sample(name, s.items!)]
  if (s.format === 'date') return '2099-01-01'
  return 'probe'
}

/** Each finite-domain optional field's values (enums and booleans), to try one field at a time. */
const smallDomain = (s: Schema): unknown[] | null => s.enum ?? (s.type === 'boolean' ? [true, false] : null)

/** hasIdOfA: some id in args is not B's own (one of A's, or not an id at all), so the call must be refused. */
interface Call { args: Args; hasIdOfA: boolean }

function callsFor(op: AnyOperation): Call[] {
  const props = Object.entries(properties(op))
  const req = required(op)
  const idFields = props.filter(([n, s]) => isIdField(n, s)).map(([n]) => n)
  const base: Args = {}
  for (const [n, s] of props) {
    if (isIdField(n, s)) continue
    if (n in contentOfA) base[n] = contentOfA[n]
    else if (req.has(n)) base[n] = sample(n, s)
  }
  const calls: Call[] = []
  const add = (args: Args) => calls.push({ args, hasIdOfA: idFields.some((f) => f in args && JSON.stringify(args[f]) !== JSON.stringify(idOfB(f))) })
  if (idFields.length === 0) add(base)
  // Every id field A's, each of A's values in turn.
  for (const f of idFields) {
    for (const value of idsOfA(f)) {
      const allOfA = Object.fromEntries(idFields.map((g) => [g, g === f ? value : idsOfA(g)[0]]))
      add({ ...base, ...allOfA })
      // The one field A's, the required others B's own, the optional others left out.
      const mixed = Object.fromEntries(idFields.filter((g) => g !== f && req.has(g)).map((g) => [g, idOfB(g)]))
      add({ ...base, ...mixed, [f]: value })
    }
  }
  // An id that is no id at all: refused as one, never a 5xx from the database's uuid cast.
  for (const f of idFields) {
    const mixed = Object.fromEntries(idFields.filter((g) => g !== f && req.has(g)).map((g) => [g, idOfB(g)]))
    add({ ...base, ...mixed, [f]: Array.isArray(idOfB(f)) ? ['not-a-uuid'] : 'not-a-uuid' })
  }
  // Every value of each small-domain optional field, on the first call.
  const first = calls[0]!.args
  for (const [n, s] of props) {
    const values = !req.has(n) && smallDomain(s)
    if (values) for (const v of values) add({ ...first, [n]: v })
  }
  const seen = new Set<string>()
  return calls.filter((c) => !seen.has(JSON.stringify(c.args)) && seen.add(JSON.stringify(c.args)))
}

/** The same call over the operation's REST route: path params from the args, the rest as query or body. */
async function restCall(op: AnyOperation, args: Args) {
  const rest = op.rest!
  const rem = { ...args }
  const path = rest.path.replace(/:([A-Za-z_]+)/g, (_, p: string) => { const v = rem[p]; delete rem[p]; return encodeURIComponent(String(v)) })
  if (rest.method === 'GET') {
    const query = new URLSearchParams(Object.entries(rem).map(([k, v]): [string, string] => [k, String(v)])).toString()
    return app.call('GET', `/api/v1${path}${query ? `?${query}` : ''}`, { key: b.api_key })
  }
  return app.call(rest.method, `/api/v1${path}`, { key: b.api_key, body: rem })
}

// ---------------------------------------------------------------------------------------------
// A's rows: what A's own key reads, and the rows no tool shows (dispatch, offers, history, events,
// messages), including any row of any company that points at one of A's ids.

async function snapshotOfA() {
  const all = async (name: string, args: Args, key: string) => {
    const out: unknown[] = []
    let cursor: string | undefined
    do {
      const page = await tool(clientA, name, { ...args, limit: 100, ...(cursor ? { cursor } : {}) })
      out.push(...page[key])
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    return out
  }
  return {
    subcontractors: await all('subcontractors.list', {}, 'subcontractors'),
    jobs: await all('jobs.list', {}, 'jobs'),
    dispatches: await app.owner`select * from dispatches where company_id = ${a.company_id} or job_id = ${A.jobId} or subcontractor_id = any(${A.subs}::uuid[]) or candidates && ${A.subs}::uuid[] order by id`,
    offers: await app.owner`select * from dispatch_offers where company_id = ${a.company_id} or subcontractor_id = any(${A.subs}::uuid[]) order by id`,
    jobsPointingAtA: await app.owner`select id, company_id, subcontractor_id, updated_at from jobs where subcontractor_id = any(${A.subs}::uuid[]) order by id`,
    verifications: await app.owner`select * from subcontractor_verifications where company_id = ${a.company_id} or subcontractor_id = any(${A.subs}::uuid[]) order by at, id`,
    expiryReminders: await app.owner`select * from subcontractor_expiry_reminders where company_id = ${a.company_id} or subcontractor_id = any(${A.subs}::uuid[]) order by reminder_id`,
    // Events and messages of A's subcontractors and job only: A's new lead has its own replies and
    // events (the instant response), written after commit, which this matrix has no part in.
    events: await app.owner`select id, company_id, event_type, entity_id from event_outbox
      where entity_id = any(${[...A.subs, A.jobId]}::uuid[]) or (company_id = ${a.company_id} and (event_type like 'dispatch.%' or event_type like 'subcontractor.%')) order by id`,
    messages: await app.owner`select id, company_id, channel, to_address from communications
      where job_id = ${A.jobId} or to_address = any(${['+61412555101', '+61412555102', 'ottoline@leadlight.example', 'percival@leadlight.example']}::text[]) order by id`,
  }
}

describe('cross-tenant matrix: company B with company A\'s ids, over every subcontractors.* tool', () => {
  it('the registry has the subcontractor tools the issue names, so the matrix is not empty', () => {
    expect(subcontractorTools.map((op) => op.name)).toEqual(expect.arrayContaining(['subcontractors.list', 'subcontractors.register', 'subcontractors.verify', 'subcontractors.dispatch']))
  })

  it("A's trade and area filters find A's subcontractors with A's key, so B's empty answers mean something", async () => {
    const { subcontractors } = await tool(clientA, 'subcontractors.list', { trade: A.trade, area: A.area })
    expect(subcontractors.map((s: { id: string }) => s.id).sort()).toEqual([...A.subs].sort())
  })

  it.each(subcontractorTools.map((op) => [op.name, op] as const))('%s leaks nothing of A and changes nothing of A (MCP and REST)', async (_name, op) => {
    const before = await snapshotOfA()
    const calls = callsFor(op)
    expect(calls.length).toBeGreaterThan(0)
    const refusals = op.planned ? ['not_implemented'] : ['not_found', 'validation_error']
    for (const { args, hasIdOfA } of calls) {
      const sent = JSON.stringify(args)
      const leaked = (text: string) => secretsOfA.filter((s) => !sent.includes(s) && text.toLowerCase().includes(s.toLowerCase()))

      if (op.mcp !== false) {
        const res = await clientB.callTool({ name: op.name, arguments: args })
        const what = `${op.name} ${sent} -> ${JSON.stringify(res.structuredContent)}`
        if (hasIdOfA) {
          expect(res.isError, what).toBe(true)
          expect(refusals, what).toContain((res.structuredContent as { error: string }).error)
        } else {
          expect(res.isError, what).toBeFalsy()
        }
        expect(leaked(JSON.stringify(res)), what).toEqual([])
      }
      if (op.rest) {
        const res = await restCall(op, args)
        const what = `${op.rest.method} ${op.rest.path} ${sent} -> ${res.status} ${JSON.stringify(res.body)}`
        if (hasIdOfA) {
          expect([404, 400], what).toContain(res.status)
          expect(refusals, what).toContain(res.body.error)
        } else {
          expect(res.status, what).toBeLessThan(300)
        }
        expect(leaked(JSON.stringify(res.body)), what).toEqual([])
      }
    }
    expect(await snapshotOfA()).toEqual(before)
  })
})
