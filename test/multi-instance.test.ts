// More than one machine (README, "Running more than one instance"): two API processes and two worker
// processes, started as production starts them (src/main-api.ts, src/main-worker.ts), each with its
// own pool, on one database and one Temporal server. A lead-to-invoice lifecycle alternates its calls
// between the two APIs, and what only holds across processes is checked:
// - an approval held by the payment chase, whose invoice was sent through API 1, is answered through
//   API 2 and the workflow goes on, on whichever worker holds it;
// - both workers took tasks (the worker identity, pid@host, in the workflows' histories), and no API
//   process did;
// - each webhook event reached the receiver once, with two dispatchers (one per worker) and two
//   outbox relays (one per API) running;
// - a key revoked through API 1 is refused by API 2 within the key cache's bound (KEY_CACHE_TTL_MS);
// - a legacy-SSE stream held by API 2 gets the answer to a POST made to API 1. API 2 and worker 2
//   LISTEN on a connection of their own (DATABASE_LISTEN_URL, the owner role here, so it can be told
//   apart) and run without prepared statements (DB_PREPARE=false), the settings a transaction-mode
//   pooler needs.
//   test/mcp-sse-instances.test.ts covers the SSE routing itself (large answers, closed streams).
// API 2 and worker 2 run their app pools through a PgBouncer in transaction mode in front of the test
// server (test/helpers/pgbouncer.ts), or through the pooler at TEST_POOLER_URL when that is set
// (e.g. postgres://127.0.0.1:6543, any database).
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { ChildProcess } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Client } from '@temporalio/client'
import { loadConfig, type Config } from '../src/config.js'
import { connect, type Sql } from '../src/db/sql.js'
import { KEY_CACHE_TTL_MS } from '../src/core/key-cache.js'
import { connectClient } from '../src/temporal/connection.js'
import { invoiceChaseWorkflowId } from '../src/domains/automations/payment-chase/workflows/invoice-chase.js'
import { startApiProcess, type ApiProcess } from './helpers/api-process.js'
import { workerProcesses, type WorkerProcesses } from './helpers/worker-process.js'
import { createDatabaseFromTemplate, databaseNames, OWNER_BASE, retireDatabase } from './helpers/databases.js'
import { freePort } from './helpers/local-server.js'
import { startReceiver, type Receiver } from './helpers/receiver.js'
import { startPgBouncer, type PgBouncer } from './helpers/pgbouncer.js'
import { rpc } from './helpers/mcp.js'
import { openStream } from './helpers/sse-stream.js'
import { waitFor } from './helpers/wait.js'

const DAY_MS = 1000
/**
 * Four processes importing the whole service at once: about 5 s of CPU each (measured), so 10 to 15 s
 * on two idle cores, and far longer on a machine shared with other work (69 s at a load average of 20).
 */
const STARTUP_MS = 150_000
const suffix = randomBytes(5).toString('hex')
const databases = databaseNames(inject('databaseRun'))
const dbUrl = new URL(OWNER_BASE)
dbUrl.pathname = `/${databases.test(suffix)}`
const target: { config: Config } = { config: loadConfig({}, { DATABASE_URL: dbUrl.toString(), TEMPORAL_TASK_QUEUE: `test-${suffix}` }) }

let api1: ApiProcess
let api2: ApiProcess
let workers: WorkerProcesses
let workerChildren: ChildProcess[] = []
const processes: ChildProcess[] = []
let stopSecondWorkers = () => {}
let owner: Sql
let temporal: Client
let receiver: Receiver
let pgbouncer: PgBouncer | undefined

beforeAll(async () => {
  receiver = await startReceiver()
  await createDatabaseFromTemplate(databases.test(suffix), databases.template)
  owner = connect(dbUrl.toString(), { max: 2 })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  const [port1, port2] = [await freePort(), await freePort()]
  const shared = {
    AUTOMATION_DAY_MS: String(DAY_MS),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
    RETENTION_SCHEDULE: 'false',
    LOG_LEVEL: 'info',
    WALLET_STARTING_CREDIT_CENTS: '100000000',
    // The address a load balancer would have: links name one site whichever instance made them.
    PUBLIC_URL: `http://127.0.0.1:${port1}`,
  }
  // Instance 2's settings: what a transaction-mode pooler asks for (README, "Running more than one instance").
  const second: Record<string, string> = { DB_PREPARE: 'false', DATABASE_LISTEN_URL: dbUrl.toString() }
  if (!process.env.TEST_POOLER_URL) pgbouncer = await startPgBouncer({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) }, ['tradie_app'])
  const viaPooler = new URL(dbUrl)
  viaPooler.host = process.env.TEST_POOLER_URL ? new URL(process.env.TEST_POOLER_URL).host : pgbouncer!.host
  viaPooler.username = 'tradie_app'
  second.APP_DATABASE_URL = viaPooler.toString()
  workers = workerProcesses(() => target, () => shared)
  const secondWorkers = workerProcesses(() => target, () => ({ ...shared, ...second }))
  stopSecondWorkers = () => secondWorkers.killAll()
  // The four processes start together: each migrates (nothing to apply on the template's copy, under
  // the advisory lock), API processes run the outbox relay, worker processes the webhook dispatcher.
  const startedAt = performance.now()
  const apis = [
    startApiProcess(target, { ...shared, PORT: String(port1), OUTBOX_RELAY_INTERVAL_MS: '1000' }, STARTUP_MS),
    startApiProcess(target, {
      ...shared, PORT: String(port2), OUTBOX_RELAY_INTERVAL_MS: '1000',
      ...second,
    }, STARTUP_MS),
  ].map((p) => p.then((api) => (processes.push(api.child), api)))
  const started = await Promise.allSettled([...apis, workers.start(), secondWorkers.start()])
  const failed = started.find((s) => s.status === 'rejected')
  if (failed) throw (failed as PromiseRejectedResult).reason
  const [a1, a2, w1, w2] = started.map((s) => (s as PromiseFulfilledResult<unknown>).value)
  ;[api1, api2, workerChildren] = [a1 as ApiProcess, a2 as ApiProcess, [w1 as ChildProcess, w2 as ChildProcess]]
  console.log(`multi-instance: 2 API and 2 worker processes up in ${Math.round(performance.now() - startedAt)} ms`)
}, STARTUP_MS + 30_000)

afterAll(async () => {
  // An API process that came up while another failed to is killed too (processes, not api1/api2).
  for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  workers?.killAll()
  stopSecondWorkers()
  await temporal?.connection.close()
  await owner?.end()
  await receiver?.close()
  await pgbouncer?.stop()
  await retireDatabase(databases.test(suffix), databases.retired(suffix)).catch(() => {})
})

interface Reply { status: number; body: any }

async function rest(api: ApiProcess, method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = options.body === undefined ? {} : { 'content-type': 'application/json' }
  if (options.key) headers.authorization = `Bearer ${options.key}`
  const res = await fetch(`${api.base}/api/v1${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : null }
}

/** A tool call over MCP (streamable HTTP, stateless: any instance answers any call); its structured result. */
async function tool(api: ApiProcess, key: string, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const res = await rpc({ url: api.base }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, { key })
  const result = res.body.result
  if (!result || result.isError) throw new Error(`${name} on ${api.base}: ${JSON.stringify(res.body)}`)
  return result.structuredContent
}

/** How many workflow and activity tasks of the company's workflows each worker (its identity, pid@host) ran. */
async function tasksByWorker(companyId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for await (const run of temporal.workflow.list({ query: `CompanyId = "${companyId}"` })) {
    const history = await temporal.workflow.getHandle(run.workflowId, run.runId).fetchHistory()
    for (const event of history.events ?? []) {
      const identity = event.workflowTaskStartedEventAttributes?.identity ?? event.activityTaskStartedEventAttributes?.identity
      if (identity) counts.set(identity, (counts.get(identity) ?? 0) + 1)
    }
  }
  return counts
}

const smsCount = async (prefix: string) =>
  (await owner<{ n: number }[]>`select count(*)::int as n from communications where idempotency_key like ${`${prefix}%`} and channel = 'sms'`)[0]!.n

describe('two API instances and two workers on one database and one Temporal server', () => {
  it('a lead becomes a paid invoice through both APIs, with an approval held through one and answered through the other', async () => {
    // Sign-up on API 1; the key works on API 2 at once (unknown keys are never cached).
    const signup = await fetch(`${api1.base}/api/v1/onboard`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Two Site Plumbing', email: `owner+${suffix}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
    })
    expect(signup.status).toBe(201)
    const company = (await signup.json()) as { company_id: string; api_key: string }
    const key = company.api_key

    // Settings through API 2: a webhook to our receiver and the payment chase held for approval.
    const hook = await tool(api2, key, 'webhooks.subscribe', { url: receiver.url('/hooks'), events: ['lead.created', 'quote.accepted', 'payment.received'] })
    expect(hook.subscription.status).toBe('active')
    const gated = await tool(api2, key, 'workflows.toggle', {
      workflow_id: 'chase_payment', enabled: true, require_approval: true,
      settings: { steps: [{ offset_days: 1, tone: 'friendly', channel: 'sms' }], approval_expiry_hours: 720 },
    })
    expect(gated.workflow).toMatchObject({ requireApproval: true, enabled: true })

    // The lead over REST on API 1: its instant response runs on a worker (a local-outbox SMS).
    const created = await rest(api1, 'POST', '/leads', { key, body: { name: 'Jane Citizen', phone: '0412 987 654', email: 'jane@example.com.au' } })
    expect(created.status).toBe(201)
    const lead = created.body.lead
    await waitFor(() => smsCount(`instant-response:${lead.id}:`), (n) => n === 1, 20_000)
    // The lead list through the pooler (API 2, one statement that sets the company itself) and directly
    // (API 1): the same page and total, and nothing of another company's. (Ids, not whole leads: the
    // instant response may still be moving the lead's status between the two reads.)
    const [viaPooler, direct] = [await rest(api2, 'GET', '/leads', { key }), await rest(api1, 'GET', '/leads', { key })]
    const page = (r: Reply) => ({ status: r.status, total: r.body.total, ids: r.body.leads.map((l: { id: string }) => l.id) })
    expect(page(viaPooler)).toEqual({ status: 200, total: 1, ids: [lead.id] })
    expect(page(direct)).toEqual(page(viaPooler))
    if (pgbouncer) expect(pgbouncer.log()).toContain(`login attempt: db=${databases.test(suffix)} user=tradie_app`)

    // Quote on API 2, sent through API 1, accepted by the client on API 2's page.
    const { quote } = await tool(api2, key, 'quotes.create', { lead_id: lead.id, line_items: [{ description: 'Replace mixer tap', quantity: 1, unitPrice: 400 }] })
    const sent = await tool(api1, key, 'quotes.send', { quote_id: quote.id, send_sms: true })
    expect(sent.quote.status).toBe('Sent')
    const token = new URL(sent.public_url).pathname.split('/').pop()!
    const accepted = await fetch(`${api2.base}/q/${token}/accept`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Jane+Citizen', redirect: 'manual' })
    expect(accepted.status).toBe(303)
    const listed = (await tool(api1, key, 'quotes.list', { lead_id: lead.id })).quotes.find((q: any) => q.id === quote.id)
    expect(listed.status).toBe('Accepted')
    const jobId = listed.job_id as string

    // The job completed on API 2; its invoice generated and sent through API 1, which starts the chase.
    expect((await tool(api2, key, 'jobs.complete', { job_id: jobId })).job.status).toBe('Completed')
    const { invoice } = await tool(api1, key, 'invoicing.generate', { job_id: jobId, due_in_days: 0, send_sms: true })
    expect(invoice.status).toBe('Sent')

    // The chase's step waits for approval: seen through API 2, approved through API 2.
    const pending = await waitFor(() => tool(api2, key, 'workflows.pending_actions', { workflow_id: 'chase_payment' }), (l) => l.actions.length >= 1, 20_000, 200)
    expect(pending.actions).toHaveLength(1)
    const held = pending.actions[0]
    expect(held).toMatchObject({ workflow: 'chase_payment', status: 'pending', messages: [{ channel: 'sms', to: '+61412987654' }] })
    expect(await smsCount(`invoice-chase:${invoice.id}:`)).toBe(0)
    const approved = await tool(api2, key, 'workflows.approve_action', { action_id: held.id })
    expect(approved).toMatchObject({ alreadyDecided: false, action: { status: 'executed', outcome: { sent: [{ channel: 'sms', to: '+61412987654' }], failed: [] } } })
    // The workflow went on past its approval and finished its one step, on whichever worker held it.
    const chase = await temporal.workflow.getHandle(invoiceChaseWorkflowId({ companyId: company.company_id, invoiceId: invoice.id })).result()
    expect(chase.outcome).toBe('completed')
    expect(await smsCount(`invoice-chase:${invoice.id}:`)).toBe(1)
    // API 1 sees it decided.
    expect((await tool(api1, key, 'workflows.pending_actions', { workflow_id: 'chase_payment' })).actions).toEqual([])

    // Paid over REST on API 1; API 2 reads it Paid.
    const paid = await rest(api1, 'POST', `/invoices/${invoice.id}/payments`, { key, body: { amount: invoice.total, method: 'bank_transfer' } })
    expect(paid.status).toBe(201)
    expect((await tool(api2, key, 'invoicing.get', { id: invoice.id })).invoice).toMatchObject({ status: 'Paid', balance: 0 })

    // Each event reached the receiver once, though two dispatchers and two relays were running:
    // delivered ones are waited for, then a few sweep intervals more for any second copy.
    const types = () => receiver.at('/hooks').map((h) => JSON.parse(h.body).type as string).sort()
    await waitFor(async () => types(), (t) => t.length >= 3, 20_000)
    await new Promise((r) => setTimeout(r, 2000))
    expect(types()).toEqual(['lead.created', 'payment.received', 'quote.accepted'])

    // Both workers took tasks; no API process did. A workflow's first task goes to whichever worker
    // polls first, so on the rare run where one worker got them all, a few more leads give the other its turn.
    const workerIds = workerChildren.map((w) => `${w.pid}@${hostname()}`)
    let extraLeads = 0
    const tasks = await waitFor(async () => {
      const seen = await tasksByWorker(company.company_id)
      if (!workerIds.every((id) => seen.has(id))) {
        const more = await rest(++extraLeads % 2 ? api2 : api1, 'POST', '/leads', { key, body: { name: 'Another Lead', phone: '0412 987 655' } })
        await waitFor(() => smsCount(`instant-response:${more.body.lead.id}:`), (n) => n === 1, 20_000)
      }
      return seen
    }, (seen) => workerIds.every((id) => seen.has(id)), 40_000, 0)
    expect([...tasks.keys()].sort()).toEqual([...workerIds].sort())
    console.log(`multi-instance: tasks per worker ${workerIds.map((id) => tasks.get(id)).join(' and ')} (${extraLeads} extra leads)`)
  }, 120_000)

  it('a key revoked through API 1 is refused by API 2 within the key cache\'s bound', async () => {
    const signup = await fetch(`${api2.base}/api/v1/onboard`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Key Rotation Electrical', email: `keys+${suffix}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
    })
    const admin = ((await signup.json()) as { api_key: string }).api_key
    const made = await rest(api1, 'POST', '/keys', { key: admin, body: { name: 'Reader', scopes: ['leads'], permission: 'read' } })
    expect(made.status).toBe(201)
    const reader = made.body.api_key as string
    // API 2 has it cached now (the worst case: a lookup as fresh as possible when the revoke lands).
    expect((await rest(api2, 'GET', '/leads', { key: reader })).status).toBe(200)
    const revoked = await rest(api1, 'DELETE', `/keys/${made.body.key.id}`, { key: admin })
    expect(revoked.status).toBe(200)
    const revokedAt = performance.now()
    // API 1 forgot the company's keys when it revoked: refused there at once.
    expect((await rest(api1, 'GET', '/leads', { key: reader })).status).toBe(401)
    // API 2 learns it from its next lookup, at most KEY_CACHE_TTL_MS after its last one.
    const refused = await waitFor(() => rest(api2, 'GET', '/leads', { key: reader }), (r) => r.status !== 200, 5000, 25)
    const took = performance.now() - revokedAt
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ error: 'unauthorized', message: expect.stringMatching(/revoked/) })
    // The bound plus one poll and one request's time on a shared machine.
    expect(took).toBeLessThan(KEY_CACHE_TTL_MS + 500)
    console.log(`multi-instance: revoked on API 1, refused on API 2 after ${Math.round(took)} ms (bound ${KEY_CACHE_TTL_MS} ms)`)
  })

  it('an SSE stream held by API 2 (LISTEN on DATABASE_LISTEN_URL) is answered when the POST lands on API 1', async () => {
    const signup = await fetch(`${api1.base}/api/v1/onboard`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'Stream Roofing', email: `sse+${suffix}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' }),
    })
    const key = ((await signup.json()) as { api_key: string }).api_key
    const stream = await openStream({ url: api2.base }, key)
    try {
      const posted = await fetch(`${api1.base}${stream.path}`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'leads.create', arguments: { name: 'Routed Lead' } } }),
      })
      expect(posted.status).toBe(202)
      const event = await stream.nextEvent()
      expect(JSON.parse(event!.data)).toMatchObject({ id: 7, result: { structuredContent: { lead: { name: 'Routed Lead' } } } })
    } finally {
      stream.close()
    }
    // API 2's LISTEN runs on the connection DATABASE_LISTEN_URL names (the owner role here); the
    // others' on their app pools (tradie_app).
    const listeners = await owner<{ usename: string; query: string }[]>`
      select usename, query from pg_stat_activity where datname = current_database() and query ilike 'listen %'`
    expect(listeners).toContainEqual({ usename: 'postgres', query: expect.stringContaining('mcp_sse') })
    expect(listeners.filter((l) => l.query.includes('mcp_sse')).map((l) => l.usename).sort()).toEqual(['postgres', 'tradie_app'])
  })
})
