// Issue 27's cross-tenant matrix, generated from the registry: every operation, over REST and MCP.
// Company A (business plan) holds one of each record an operation takes an id of; company B, seeded
// the same way, calls EVERY operation with A's ids in every id field (alone; mixed with B's own where
// the field is a list or another id is required; and a malformed id), and every operation that takes
// no id with a plain fitting input. Asserted for each answer: never a 5xx; an error has the
// {error, message} body; an answer carries none of A's ids or text that B did not send itself. After
// the whole run, every row of every company table for A (owner connection, RLS aside) is unchanged,
// and none of B's rows points at one of A's ids. The id fields are found in the schemas (names ending
// in _id, _ids or Id, `id`, uuid formats, lists of those): one with no seeded record of A to use fails
// the file with its name, so a new operation cannot slip past. The counts of operations covered are
// printed and must equal the registry's. test/subcontractors-tenancy.test.ts goes deeper on the
// subcontractor tools (an offer open mid-dispatch, every verify action); this file goes wide.
import { randomBytes, randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRegistry } from '../src/domains/index.js'
import type { AnyOperation } from '../src/core/operation.js'
import { statusOfCode } from '../src/core/errors.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { startReceiver, type Receiver } from './helpers/receiver.js'
import { localXeroConfig, startLocalXero, type LocalXero } from './helpers/xero-server.js'
import { pdfOf } from './helpers/document-samples.js'
import { withField, type FieldPath } from './helpers/arbitrary.js'
import { waitFor } from './helpers/wait.js'

type Args = Record<string, unknown>
type Schema = Record<string, any>
const registry = createRegistry()

// ---------------------------------------------------------------------------------------------
// Id fields: found in the schemas, mapped to the kind of record they name.

/** Fields that look like ids but name no record of a company, each with why the matrix sends no id of A there. */
const NOT_TENANT_IDS: Record<string, string> = {
  'onboard.stripe_payment_method_id': "a payment method token of the payment provider, not a record of ours",
  'funding.program_details.program_id': 'a program of the public funding catalogue, the same for every company',
  'workflows.toggle.workflow_id': 'an automation of the shared catalogue (team_notify ...), each company its own settings row',
  'wallet.transfer.to_company_id': "the recipient of a transfer is another company by design (credits its wallet; test/wallet.test.ts); the matrix sends B's own id, refused",
}

/** The kind of record an id field names: by operation and field first, then by field name alone. */
const KIND_OF_FIELD: Record<string, Kind> = {
  'keys.revoke.id': 'key',
  'invoicing.get.id': 'invoice', 'invoicing.send.id': 'invoice', 'invoicing.void.id': 'invoice',
  'invoicing.credit_note.id': 'invoice', 'invoicing.record_payment.id': 'invoice',
  'cashflow.delete_recurring_cost.id': 'recurringCost',
  'reminders.update.id': 'reminder',
  'webhooks.rotate_secret.id': 'webhook', 'webhooks.deliveries.id': 'webhook', 'webhooks.recover.id': 'webhook',
  'webhooks.redeliver.id': 'delivery',
  'workflows.pending_actions.workflow_id': 'actionWorkflow',
  'operator.switch_company.company_id': 'company',
  lead_id: 'lead', quote_id: 'quote', quoteId: 'quote', job_id: 'job', jobId: 'job', service_id: 'service',
  subcontractor_id: 'subcontractor', candidates: 'subcontractor', subscription_id: 'webhook',
  connection_id: 'connection', action_id: 'action', entity_id: 'entity', item_ids: 'priceItem',
}
// Lists of ids whose names do not say so.
const ID_LISTS = ['candidates']

type Kind = 'lead' | 'quote' | 'job' | 'service' | 'subcontractor' | 'webhook' | 'delivery' | 'connection' | 'action' | 'actionWorkflow'
  | 'company' | 'entity' | 'priceItem' | 'key' | 'invoice' | 'recurringCost' | 'reminder'

interface IdField { path: FieldPath; label: string; list: boolean; required: boolean; kind: Kind | null }

const isIdName = (name: string, s: Schema) => name === 'id' || /(_id|_ids|Id)$/.test(name) || ID_LISTS.includes(name)
  || s.format === 'uuid' || s.items?.format === 'uuid'

/** The id fields of an operation's input, nested ones (line_items[].service_id) included. */
function idFields(op: AnyOperation): IdField[] {
  const out: IdField[] = []
  const walk = (schema: Schema, path: FieldPath, requiredHere: boolean) => {
    const req = new Set<string>(schema.required ?? [])
    for (const [name, s] of Object.entries<Schema>(schema.properties ?? {})) {
      const at = [...path, name]
      const label = `${op.name}.${at.filter((p) => typeof p === 'string').join('.')}`
      if (isIdName(name, s)) {
        if (!(label in NOT_TENANT_IDS)) {
          out.push({ path: at, label, list: s.type === 'array', required: requiredHere && req.has(name), kind: KIND_OF_FIELD[label] ?? KIND_OF_FIELD[name] ?? null })
        }
      } else if (s.type === 'array' && s.items?.type === 'object') walk(s.items, [...at, 0], requiredHere && req.has(name))
      else if (s.type === 'object') walk(s, at, requiredHere && req.has(name))
    }
  }
  walk(op.input as Schema, [], true)
  return out
}

// ---------------------------------------------------------------------------------------------
// Plain values for the other fields, from the schema, so a call reaches the tenant check.

let receiver: Receiver
let pdfBase64 = ''
/** Values by field name where the schema alone cannot say what is accepted. */
const BY_NAME: Record<string, () => unknown> = {
  phone: () => '0412 999 000',
  due_at: () => '2027-03-01T09:00:00Z',
  events: () => ['lead.created'],
  content_base64: () => pdfBase64,
  to: () => '0412 999 000',
  url: () => receiver.url('/b-hook'),
  csv: () => 'item_code,description,cost\nPRB-1,Probe part,10',
  supplier: () => 'Probe Supplies',
  filename: () => 'probe.txt',
  provider: () => 'xero',
  email: () => `probe+${randomBytes(3).toString('hex')}@example.com.au`,
}
const LINE = { description: 'probe line', quantity: 1, unitPrice: 10 }
/**
 * Per operation: what a fitting call needs that the schema does not require (an update needs one
 * field to change; some tools want one of several fields), so B's call gets past validation to the
 * tenant check rather than being refused for its other fields.
 */
const byOperation = (): Record<string, Args> => ({
  'company.update_profile': { contact_name: 'Probe Person' },
  'onboarding.update_company_settings': { state: 'NSW' },
  'invoicing.update_settings': { payment_terms_days: 14 },
  'reviews.update_settings': { links: {} },
  'leads.update': { name: 'Probe Person' },
  'quotes.create': { line_items: [LINE] },
  'quotes.update': { notes: 'probe', line_items: [LINE] },
  'jobs.update': { notes: 'probe' },
  'services.update': { description: 'probe' },
  'reminders.update': { title: 'probe' },
  'comms.send_email': { to: 'probe@example.com.au' },
  'formation.location_score': { suburb: 'Ryde' },
  'formation.simulate_business': { hourly_rate: 90, billable_hours_per_week: 30, monthly_materials_cost: 500, monthly_overheads: 1000, monthly_insurance: 200, startup_costs: 5000 },
  'workflows.toggle': { workflow_id: 'team_notify' },
  // NOT_TENANT_IDS: a transfer to A would be the feature; to B itself it is refused.
  'wallet.transfer': { to_company_id: B.companyId },
})

function sample(name: string, s: Schema): unknown {
  if (BY_NAME[name]) return BY_NAME[name]!()
  if ('const' in s) return s.const
  if (Array.isArray(s.enum)) return s.enum[0]
  const alternatives: Schema[] | undefined = s.anyOf ?? s.oneOf
  if (alternatives) return sample(name, alternatives.find((a) => a.type !== 'null') ?? alternatives[0]!)
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'boolean': return false
    case 'integer': case 'number': return Math.min(Math.max(1, s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1), s.maximum ?? Infinity)
    case 'array': return Array.from({ length: Math.max(1, s.minItems ?? 1) }, (_, i) => {
      const item = sample(name, s.items ?? {})
      return typeof item === 'string' && s.uniqueItems && i > 0 ? `${item} ${i}` : item
    })
    case 'object': return requiredOf(s)
    case 'string': {
      if (s.format === 'email') return 'probe@example.com.au'
      if (s.format === 'date') return '2027-03-01'
      if (s.format === 'date-time') return '2027-03-01T09:00:00Z'
      if (s.format === 'uri') return 'https://example.com/probe'
      return 'probe text'.padEnd(s.minLength ?? 0, 'x')
    }
    default: return 'probe'
  }
}
const requiredOf = (schema: Schema): Args =>
  Object.fromEntries((schema.required ?? []).map((n: string) => [n, sample(n, schema.properties[n])]))

// ---------------------------------------------------------------------------------------------
// The two companies and their records.

let app: TestApp
let xero: LocalXero
interface Company { key: string; companyId: string; email: string; ids: Record<Kind, string>; secrets: string[] }
let A: Company
let B: Company
/** A's ids and text: none may reach B unless B sent it. */
let secretsOfA: string[] = []

async function mcp(key: string, name: string, args: unknown) {
  const res = await fetch(`${app.url}/api/v1/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  })
  return { status: res.status, text: await res.text() }
}
async function tool(key: string, name: string, args: Args): Promise<any> {
  const { text } = await mcp(key, name, args)
  const body = JSON.parse(text)
  if (body.error || body.result.isError) throw new Error(`seeding: ${name} failed: ${text.slice(0, 500)}`)
  return body.result.structuredContent
}

/** One of each record an operation takes an id of, named with `tag` so its text is recognisable. */
async function seed(tag: string): Promise<Company> {
  const co = await onboard(app, { business_name: `${tag} Leadlight`, plan: 'business', stripe_payment_method_id: 'pm_card_visa', phone: '0412 000 111', review_link: `https://g.page/r/${tag}`, review_platform: 'google' })
  const key = co.api_key
  const t = (name: string, args: Args) => tool(key, name, args)
  const { subscription: webhook, secret } = await t('webhooks.subscribe', { url: receiver.url(`/${tag}`), events: ['lead.created'] })
  const { lead } = await t('leads.create', { name: `${tag} Castellan`, phone: '0412 555 202', email: `${tag.toLowerCase()}@castellan.example` })
  const { service } = await t('services.create', { name: `${tag} window restoration`, price: 240 })
  const { quote } = await t('quotes.create', { lead_id: lead.id, line_items: [{ service_id: service.id, description: `${tag} sash cords`, quantity: 1, unit_price: 240 }] })
  const { job } = await t('jobs.create', { lead_id: lead.id, quote_id: quote.id, title: `${tag} hall window`, amount: 1870 })
  const { job: done } = await t('jobs.create', { lead_id: lead.id, title: `${tag} back door`, amount: 990 })
  await t('jobs.complete', { job_id: done.id })
  const { invoice } = await t('invoicing.generate', { job_id: done.id })
  await t('invoicing.record_payment', { id: invoice.id, amount: 100, method: 'cash' })
  await t('reviews.request', { job_id: done.id })
  const { reminder } = await t('reminders.create', { title: `${tag} ring back`, due_at: '2027-03-01T09:00:00Z', lead_id: lead.id, job_id: job.id })
  const { subcontractor } = await t('subcontractors.register', { name: `${tag} Quarrington`, trades: ['glazing'], phone: '0412 555 101' })
  const newKey = await t('keys.create', { name: `${tag} spare key`, scopes: ['leads'], permission: 'read' })
  const { recurring_cost: cost } = await t('cashflow.create_recurring_cost', { name: `${tag} van lease`, amount: 650, frequency: 'monthly' })
  await t('pricebook.import', { csv: `item_code,description,cost\n${tag}-1,${tag} lead came,10`, supplier: `${tag} Glass` })
  await t('documents.auto_file', { content_base64: (await pdfOf([`${tag} glass invoice`, 'Total $120.00'])).toString('base64'), filename: `${tag}.pdf`, job_id: job.id })
  await t('workflows.record_ad_spend', { source: 'google', period_start: '2026-01-01', period_end: '2026-01-31', amount: 300, campaign: `${tag} campaign` })
  await t('workflows.toggle', { workflow_id: 'team_notify', require_approval: true })
  const held = await t('workflows.team_notify', { message: `${tag} van 2 is in for service`, recipients: ['0412 345 601'] })
  // The Xero connection, through the local Xero's OAuth link and callback.
  const link = await t('integrations.connect', { provider: 'xero' })
  const granted = await fetch(link.authorise_url, { redirect: 'manual' })
  const callback = await fetch(granted.headers.get('location')!)
  if (callback.status !== 200) throw new Error(`seeding: the Xero callback answered ${callback.status}`)
  const { connections } = await t('integrations.list_connections', {})
  const [delivery] = await waitFor(() => app.owner<{ id: string }[]>`select id from webhook_deliveries where subscription_id = ${webhook.id}`, (r) => r.length > 0, 20_000)
  const [item] = await app.owner<{ id: string }[]>`select id from company_pricebook_items where company_id = ${co.company_id}`
  const ids: Record<Kind, string> = {
    lead: lead.id, quote: quote.id, job: job.id, service: service.id, subcontractor: subcontractor.id, webhook: webhook.id,
    delivery: delivery!.id, connection: connections[0].id, action: held.actionId, actionWorkflow: held.workflowId, company: co.company_id,
    entity: lead.id, priceItem: item!.id, key: newKey.key.id, invoice: invoice.id, recurringCost: cost.id, reminder: reminder.id,
  }
  // Records that are A's besides the one per kind: the completed job, the invoice's job.
  extraIds.set(tag, { job: [done.id], entity: [invoice.id] })
  return { key, companyId: co.company_id, email: co.email, ids, secrets: [secret, newKey.api_key] }
}
const extraIds = new Map<string, Partial<Record<Kind, string[]>>>()

// ---------------------------------------------------------------------------------------------
// Every row of every company table for one company, through the owner connection.

let tables: string[] = []
async function rowsOf(companyId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const table of tables) {
    const column = table === 'companies' ? 'id' : 'company_id'
    const rows = await app.owner.unsafe<{ row: string }[]>(`select to_jsonb(t)::text as row from "${table}" t where ${column} = $1`, [companyId])
    out[table] = rows.map((r) => r.row).sort()
  }
  return out
}
/** A's rows once nothing of A's own is still in flight (the relay, the instant response, the first Xero sync). */
async function settledRowsOfA() {
  let last = JSON.stringify(await rowsOf(A.companyId))
  const deadline = Date.now() + 45_000
  for (;;) {
    await new Promise((r) => setTimeout(r, 1_500))
    const now = JSON.stringify(await rowsOf(A.companyId))
    if (now === last) return JSON.parse(now) as Record<string, string[]>
    if (Date.now() > deadline) throw new Error("company A's rows kept changing for 45 s after seeding: the matrix cannot tell B's changes from A's own")
    last = now
  }
}

beforeAll(async () => {
  receiver = await startReceiver()
  pdfBase64 = (await pdfOf(['Probe supplier invoice', 'Total $10.00'])).toString('base64')
  xero = await startLocalXero()
  app = await startTestApp({
    config: {
      ...localXeroConfig(xero, 'xero-webhook-key-matrix'), INTEGRATIONS_TOKEN_KEY: randomBytes(32).toString('base64'),
      INTEGRATIONS_SYNC_INTERVAL_MS: 3_600_000, WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    },
  })
  ;[A, B] = await Promise.all([seed('Zanthoxylum'), seed('Bravo')])
  tables = (await app.owner<{ table_name: string }[]>`
    select distinct table_name from information_schema.columns
    where table_schema = 'public' and (column_name = 'company_id' or table_name = 'companies') order by table_name`).map((r) => r.table_name)
}, 240_000)
afterAll(async () => {
  await app?.stop()
  await receiver?.close()
  await xero?.close()
})

// ---------------------------------------------------------------------------------------------
// The calls.

/** idOfA: the id of A's in args; the same call with a fresh random id must get the same kind of answer. */
interface Call { args: Args; hasIdOfA: boolean; what: string; idOfA?: string }

function idsFor(company: Company, tag: string, kind: Kind): string[] {
  return [company.ids[kind], ...(extraIds.get(tag)?.[kind] ?? [])]
}

/** Every call B makes for op: A's ids field by field (alone, with B's for the other required ids, in a list beside B's), a malformed id. */
function callsFor(op: AnyOperation): Call[] {
  const fields = idFields(op)
  const missing = fields.filter((f) => f.kind === null)
  if (missing.length) {
    throw new Error(`no seeded record of company A for the id field(s) ${missing.map((f) => f.label).join(', ')}: seed one in seed() and name its kind in KIND_OF_FIELD (or list the field in NOT_TENANT_IDS with why it names no record of a company)`)
  }
  const base: Args = { ...requiredOf(op.input as Schema), ...byOperation()[op.name] }
  // Required id fields are filled below; the sampler's placeholder must not stay in.
  const strip = (args: Args) => fields.reduce((acc, f) => (f.path.length === 1 ? (delete acc[f.path[0] as string], acc) : acc), { ...args })
  const valueOf = (f: IdField, id: string) => (f.list ? [id] : id)
  const bOf = (f: IdField) => valueOf(f, B.ids[f.kind!])
  const calls: Call[] = []
  if (!fields.length) calls.push({ args: base, hasIdOfA: false, what: 'no id' })
  for (const f of fields) {
    for (const idOfA of idsFor(A, 'Zanthoxylum', f.kind!)) {
      // Every id field A's (this one with this id of A).
      let all = strip(base)
      for (const g of fields) all = withField(all, g.path, g === f ? valueOf(g, idOfA) : valueOf(g, A.ids[g.kind!]))
      calls.push({ args: all, hasIdOfA: true, idOfA, what: `${f.label} = A's ${f.kind}, every id field A's` })
      // This field A's, the other required id fields B's own.
      let mixed = strip(base)
      for (const g of fields) if (g === f || g.required) mixed = withField(mixed, g.path, g === f ? valueOf(g, idOfA) : bOf(g))
      calls.push({ args: mixed, hasIdOfA: true, idOfA, what: `${f.label} = A's ${f.kind}, other required ids B's` })
      // A list of ids: B's own first, then A's.
      if (f.list) calls.push({ args: withField(mixed, f.path, [B.ids[f.kind!], idOfA]), hasIdOfA: true, idOfA, what: `${f.label} = [B's, A's ${f.kind}]` })
    }
    let malformed = strip(base)
    for (const g of fields) if (g === f || g.required) malformed = withField(malformed, g.path, g === f ? valueOf(g, 'not-a-uuid') : bOf(g))
    calls.push({ args: malformed, hasIdOfA: false, what: `${f.label} malformed` })
  }
  const seen = new Set<string>()
  return calls.filter((c) => !seen.has(JSON.stringify(c.args)) && seen.add(JSON.stringify(c.args)))
}

/** The same call over the operation's REST route: path params from the args, the rest as query or body. */
async function restCall(op: AnyOperation, args: Args) {
  const { method, path } = op.rest!
  const rest = { ...args }
  const url = path.replace(/:([A-Za-z_]+)/g, (_, p: string) => {
    const v = rest[p]
    delete rest[p]
    return encodeURIComponent(String(v))
  })
  const inQuery = method === 'GET' || method === 'DELETE'
  const query = inQuery ? new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString() : ''
  const res = await fetch(`${app.url}/api/v1${url}${query ? `?${query}` : ''}`, {
    method,
    headers: { authorization: `Bearer ${B.key}`, ...(inQuery ? {} : { 'content-type': 'application/json' }) },
    body: inQuery ? undefined : JSON.stringify(rest),
    redirect: 'manual',
  })
  return { status: res.status, text: await res.text() }
}

/** The refusal or answer's error code, or 'ok'. */
type Outcome = string
const tally = new Map<string, number>()
const successesWithIdOfA: string[] = []
const covered = { rest: new Set<string>(), mcp: new Set<string>() }

function check(op: AnyOperation, call: Call, transport: 'rest' | 'mcp', reply: { status: number; text: string }): Outcome {
  const sent = JSON.stringify(call.args)
  const context = `${transport} ${op.name} (${call.what}) ${sent.slice(0, 400)} -> ${reply.status} ${reply.text.slice(0, 400)}`
  expect(reply.status < 500 || (reply.status === 501 && op.planned !== undefined), context).toBe(true)
  const leaked = secretsOfA.filter((s) => !sent.includes(s) && reply.text.toLowerCase().includes(s.toLowerCase()))
  expect(leaked, `A's data in B's answer: ${context}`).toEqual([])
  let outcome: Outcome = 'ok'
  if (transport === 'rest') {
    if (reply.status >= 400) {
      const body = JSON.parse(reply.text) as { error?: string; message?: string }
      expect(typeof body.message === 'string' && body.message.length > 0, context).toBe(true)
      expect(statusOfCode(body.error as string), context).toBe(reply.status)
      outcome = body.error!
    }
  } else {
    const body = JSON.parse(reply.text) as { result?: { isError?: boolean; structuredContent?: { error?: string; message?: string } }; error?: { code: number } }
    expect(body.error, context).toBeUndefined()
    if (body.result?.isError) {
      const error = body.result.structuredContent!
      expect(typeof error.error === 'string' && typeof error.message === 'string' && error.message.length > 0, context).toBe(true)
      expect(error.error, context).not.toBe('internal_error')
      outcome = error.error!
    }
  }
  if (process.env.MATRIX_DEBUG && outcome === 'validation_error' && !call.what.endsWith('malformed')) console.log('VALIDATION', context)
  if (call.hasIdOfA && outcome === 'ok') successesWithIdOfA.push(`${transport} ${op.name} (${call.what})`)
  const kind = call.hasIdOfA ? 'with A id' : call.what.endsWith('random id instead') ? 'random id' : call.what.endsWith('malformed') ? 'malformed id' : 'no id'
  const tallyKey = `${kind} -> ${outcome}`
  tally.set(tallyKey, (tally.get(tallyKey) ?? 0) + 1)
  return outcome
}

/**
 * A call with an id of A's and the same call with a random id in its place: one answer kind (both
 * not_found, both an empty list ...), so B cannot even learn that A's record exists.
 */
const oracles: string[] = []
async function runOperation(op: AnyOperation) {
  for (const call of callsFor(op)) {
    const twin = call.idOfA ? { ...call, args: JSON.parse(JSON.stringify(call.args).replaceAll(call.idOfA, randomUUID())) as Args, hasIdOfA: false, what: `${call.what}, random id instead` } : null
    for (const transport of ['mcp', 'rest'] as const) {
      if (transport === 'mcp' ? op.mcp === false : !op.rest) continue
      const send = (c: Call) => (transport === 'mcp' ? mcp(B.key, op.name, c.args) : restCall(op, c.args))
      const outcome = check(op, call, transport, await send(call))
      if (twin) {
        const twinOutcome = check(op, twin, transport, await send(twin))
        if (twinOutcome !== outcome) oracles.push(`${transport} ${op.name} (${call.what}): ${outcome} with A's id, ${twinOutcome} with a random one`)
      }
      covered[transport].add(op.name)
    }
  }
}

describe("cross-tenant matrix: company B with company A's ids, every registry operation, REST and MCP", () => {
  it('every id field of every operation has a seeded record of A (or a reason it names none)', () => {
    const unknown = registry.operations.flatMap((op) => idFields(op).filter((f) => f.kind === null).map((f) => f.label))
    expect(unknown, 'id fields with no seeded record of company A: seed one and name its kind in KIND_OF_FIELD').toEqual([])
    for (const label of Object.keys(NOT_TENANT_IDS)) {
      const [opName] = [registry.operations.find((op) => label.startsWith(`${op.name}.`))?.name]
      expect(opName, `NOT_TENANT_IDS names ${label}, which no operation has`).toBeDefined()
    }
  })

  it("B's calls leak nothing of A, change nothing of A, and leave B pointing at nothing of A's", async () => {
    const before = await settledRowsOfA()
    const hitsOfA = receiver.at('/Zanthoxylum').length
    const beforeB = JSON.stringify(await rowsOf(B.companyId))
    // A's ids (every uuid-looking value in A's rows that B's rows do not hold too) and A's text.
    const uuids = (text: string) => new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? [])
    const inB = uuids(beforeB)
    secretsOfA = [...uuids(JSON.stringify(before))].filter((u) => !inB.has(u))
    secretsOfA.push('Zanthoxylum', 'zanthoxylum@castellan.example', A.email, A.key, A.ids.actionWorkflow, ...A.secrets)
    expect(secretsOfA).toContain(A.ids.lead)
    // The snapshot holds A's records, so "unchanged" means something.
    for (const table of ['leads', 'quotes', 'jobs', 'invoices', 'payments', 'services', 'reminders', 'subcontractors', 'webhook_subscriptions',
      'webhook_deliveries', 'api_keys', 'recurring_costs', 'company_pricebook_items', 'documents', 'pending_actions', 'integration_connections', 'ad_spend', 'review_requests', 'communications', 'event_outbox']) {
      expect(before[table]?.length, `company A has no ${table} rows to compare`).toBeGreaterThan(0)
    }

    const ops = [...registry.operations]
    // Eight operations at a time: they wait on the database and Temporal, not the CPU.
    const workers = Array.from({ length: 8 }, async () => {
      for (let op = ops.shift(); op; op = ops.shift()) await runOperation(op)
    })
    await Promise.all(workers)

    const rest = registry.restOperations().length
    const tools = registry.mcpTools().length
    console.log(`tenancy matrix: ${new Set([...covered.rest, ...covered.mcp]).size} of ${registry.operations.length} operations (REST ${covered.rest.size} of ${rest}, MCP ${covered.mcp.size} of ${tools})`)
    console.log(`tenancy matrix outcomes: ${JSON.stringify(Object.fromEntries([...tally].sort()))}`)
    if (successesWithIdOfA.length) console.log(`answered (with nothing of A's) despite an id of A:\n  ${successesWithIdOfA.join('\n  ')}`)
    // The MCP resources take no id: B reads each, and none may show A's records.
    const readable = registry.resources.filter((r) => r.read)
    for (const resource of readable) {
      const res = await fetch(`${app.url}/api/v1/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${B.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: resource.uri } }),
      })
      const text = await res.text()
      expect(text, `resources/read ${resource.uri}`).toContain('"contents"')
      expect(secretsOfA.filter((s) => text.includes(s)), `A's data in B's read of ${resource.uri}`).toEqual([])
    }
    console.log(`tenancy matrix: ${readable.length} of ${registry.resources.length} MCP resources read by B`)
    expect(readable.length).toBeGreaterThan(0)
    expect(new Set([...covered.rest, ...covered.mcp]).size).toBe(registry.operations.length)
    expect(covered.rest.size).toBe(rest)
    expect(covered.mcp.size).toBe(tools)

    // The leak check itself: an answer holding one of A's ids that B did not send is caught.
    const probe = registry.operations[0]!
    expect(() => check(probe, { args: {}, hasIdOfA: false, what: 'self-check' }, 'rest', { status: 200, text: JSON.stringify({ id: A.ids.invoice }) })).toThrow(/A's data/)
    expect(oracles, 'answers that tell an id of A from an unknown one').toEqual([])

    const after = await rowsOf(A.companyId)
    for (const table of tables) expect(after[table], `company A's ${table} rows changed`).toEqual(before[table])
    expect(receiver.at('/Zanthoxylum').length, "A's webhook endpoint was sent something during B's calls").toBe(hitsOfA)
    const afterB = JSON.stringify(await rowsOf(B.companyId))
    const pointing = [...uuids(afterB)].filter((u) => secretsOfA.includes(u))
    expect(pointing, "B's rows hold ids of A's records").toEqual([])
  }, 180_000)
})
