// The fault suite's scenario: the service as production runs it (API, worker and Temporal dev server
// as their own processes, test/faults/stack.ts) on a database of its own, with a webhook receiver,
// an SMTP server and an SMS provider on loopback. While leads (half with an instant response by SMS
// and email), quote sends, invoice sends with their payment chases, approvals, dispatches and over
// 100 webhook deliveries are in flight, it kills the API, the worker and the dev server in turn
// (SIGKILL, then a restart; the dev server on its own file store), restarts Postgres (pg_ctlcluster restart when FAULTS_RESTART_POSTGRES=1, as CI sets it; otherwise a proxy cuts
// every connection and refuses new ones, test/faults/pg-proxy.ts), and takes the webhook receiver
// and the SMTP server down and up. The client retries every call with the same idempotency key, as
// a careful agent would. After recovery it prints the counts and holds the service to them:
//   - no event lost: every event the company recorded after subscribing reached the receiver;
//   - no message sent twice: each SMS idempotency token and each email Message-ID arrived once
//     (again only when the worker's kill caught it between the provider's answer and its record:
//     at-least-once with the same key, which Twilio deduplicates), and every message the database
//     says went out arrived;
//   - webhook redeliveries (the same webhook-id again: at-least-once) no more than the deliveries
//     the faults cut mid-call;
//   - every workflow the service queued finished, or is still waiting (no pending activity), and
//     none failed, timed out or was terminated.
// Webhook delivery is a black box here (events in the database -> the receiver), whatever
// workflows carry it.
import { randomBytes, randomUUID } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, it, onTestFailed } from 'vitest'
import { connect, type Sql } from '../../src/db/sql.js'
import { connectClient } from '../../src/temporal/connection.js'
import { WEBHOOK_EVENT_CATALOGUE } from '../../src/domains/webhooks/events.js'
import { createDatabaseFromTemplate, databaseNames, databaseUrl, retireDatabase } from '../helpers/databases.js'
import { startLocalTwilio, type LocalTwilio } from '../helpers/twilio-server.js'
import { waitFor } from '../helpers/wait.js'
import { startPgProxy, type PgProxy } from './pg-proxy.js'
import { arrivedJustBefore, countIds, repeats, startSmtpReceiver, startWebhookReceiver, type SmtpReceiver, type WebhookReceiver } from './receivers.js'
import { entryPart, freePort, temporalDevServer } from './stack.js'

const LEADS = 100
/** Leads that carry a phone and an email: each gets an instant-response SMS and email. */
const LEADS_WITH_CONTACT = 30
const QUOTES = 5
const INVOICES = 3
const APPROVALS = 3
const DISPATCHES = 2
const CANDIDATES = 3
/** One automation "day" (chase offsets, follow-up delays) lasts this long. */
const DAY_MS = 2000

const suffix = randomBytes(5).toString('hex')
const names = databaseNames(inject('databaseRun'))
const dataDir = mkdtempSync(join(tmpdir(), 'tradie-faults-'))
let owner: Sql
let proxy: PgProxy
const realPostgresRestart = process.env.FAULTS_RESTART_POSTGRES === '1'
/** Restarts the machine's Postgres cluster (Debian's pg_ctlcluster): every connection is cut, the server stops and starts. */
function restartPostgres(): void {
  const version = readdirSync('/etc/postgresql').sort().at(-1)!
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'], { stdio: 'inherit' })
}
let hooks: WebhookReceiver
let smtp: SmtpReceiver
let sms: LocalTwilio
let temporal: Awaited<ReturnType<typeof temporalDevServer>>
let api: ReturnType<typeof entryPart>
let worker: ReturnType<typeof entryPart>
let base: string

beforeAll(async () => {
  await createDatabaseFromTemplate(names.test(suffix), names.template)
  owner = connect(databaseUrl(names.test(suffix)), { max: 2 })
  ;[proxy, hooks, smtp, sms] = await Promise.all([startPgProxy(), startWebhookReceiver(150), startSmtpReceiver(), startLocalTwilio()])
  temporal = await temporalDevServer(join(dataDir, 'temporal'))
  await temporal.start()
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  const env = (): Record<string, string> => ({
    DATABASE_URL: proxy.url(databaseUrl(names.test(suffix))),
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE: `faults-${suffix}`,
    TEMPORAL_WORKFLOW_BUNDLE: inject('workflowBundlePath'),
    TEMPORAL_STICKY_TIMEOUT_MS: '1000',
    TEMPORAL_UPDATE_TIMEOUT_MS: '10000',
    DATA_DIR: join(dataDir, 'service'),
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: base,
    RATE_LIMIT_PER_MINUTE: '100000',
    ONBOARD_LIMIT_PER_HOUR: '1000',
    OUTBOX_RELAY_INTERVAL_MS: '500',
    RETENTION_SCHEDULE: 'false',
    WALLET_STARTING_CREDIT_CENTS: '100000000',
    AUTOMATION_DAY_MS: String(DAY_MS),
    DISPATCH_OFFER_TIMEOUT_MS: '2500',
    SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: sms.accountSid, TWILIO_AUTH_TOKEN: sms.authToken, TWILIO_FROM: sms.from, TWILIO_BASE_URL: sms.url,
    EMAIL_PROVIDER: 'smtp', SMTP_URL: smtp.url, EMAIL_FROM: 'Sparky Bros <jobs@sparky.example>',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    // Enough attempts to outlast the receiver's outage.
    WEBHOOK_RETRY_SCHEDULE_MS: '0,300,600,1000,1500,2000,3000,4000,6000,8000',
    WEBHOOK_TIMEOUT_MS: '5000',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
  })
  api = entryPart('api', 'main-api', () => ({ ...env(), LOG_LEVEL: 'warn' }), { url: base })
  worker = entryPart('worker', 'main-worker', () => ({ ...env(), LOG_LEVEL: 'info' }), { log: '"worker ready"' })
  await Promise.all([api.start(), worker.start()])
})

afterAll(async () => {
  await api?.stop()
  await worker?.stop()
  await temporal?.stop()
  await Promise.all([hooks?.close(), smtp?.close(), sms?.close(), proxy?.close()])
  await owner?.end()
  await retireDatabase(names.test(suffix), names.retired(suffix)).catch(() => {})
  rmSync(dataDir, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Retries whose first request committed its change and was then cut before its response was kept
 * (the API's kill between the two): the service refuses to run them again (core/claim-scope.ts), so
 * call() and tool() answer ANSWER_LOST and the caller finds what it needs another way.
 */
const ANSWER_LOST = { answerLost: true } as const
const answersLost: string[] = []
const answerLost = (body: any) => body?.error === 'idempotency_conflict' && /made its change/.test(body?.message ?? '')

/**
 * Calls until the service answers for good: a refused or cut connection, a 5xx, or an error that
 * says "try again" (the database or the worker away) is retried with the same idempotency key.
 */
async function call(method: string, path: string, body: unknown, key?: string): Promise<any> {
  const idempotencyKey = randomUUID()
  const deadline = Date.now() + CALL_DEADLINE_MS
  for (;;) {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey, ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }), () => ({ status: 0, body: null }))
    if (answerLost(reply.body)) {
      answersLost.push(`${method} ${path}`)
      return ANSWER_LOST
    }
    if (reply.status > 0 && reply.status < 500 && !stillRunning(reply.body)) {
      if (reply.status >= 400) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`)
      return reply.body
    }
    if (Date.now() > deadline) throw new Error(`${method} ${path}: no answer for good within ${CALL_DEADLINE_MS / 1000} s (last ${reply.status} ${JSON.stringify(reply.body)})`)
    await sleep(250)
  }
}

/**
 * The first request with this key has not finished: its process was killed holding the claim, which
 * another request takes over once it is abandoned for long enough (core/idempotency.ts). Retried.
 */
const stillRunning = (body: any) => body?.error === 'idempotency_conflict' && /still being processed/.test(body?.message ?? '')

/**
 * How long a caller keeps retrying: a request cut by the API's kill holds its idempotency key until
 * the claim counts as abandoned (20 s without a beat), and the restarted processes take tens of seconds to load on
 * a busy machine.
 */
const CALL_DEADLINE_MS = 150_000

const RETRYABLE = new Set(['database_unavailable', 'worker_unavailable', 'temporal_unavailable', 'service_unavailable'])

/** A tool call over MCP (JSON-RPC), retried as call() is; an isError answer other than "try again" throws. */
async function tool(key: string, name: string, args: Record<string, unknown>): Promise<any> {
  const idempotencyKey = randomUUID()
  const deadline = Date.now() + CALL_DEADLINE_MS
  for (;;) {
    const reply = await fetch(`${base}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: { ...args, idempotency_key: idempotencyKey } } }),
      signal: AbortSignal.timeout(20_000),
    }).then(async (r) => ({ status: r.status, body: (await r.json().catch(() => null)) as any }), () => ({ status: 0, body: null }))
    const result = reply.body?.result
    if (reply.status === 200 && result && !result.isError) return result.structuredContent
    if (reply.status === 200 && result?.isError && answerLost(result.structuredContent)) {
      answersLost.push(name)
      return ANSWER_LOST
    }
    if (reply.status === 200 && result?.isError && !RETRYABLE.has(result.structuredContent?.error) && !stillRunning(result.structuredContent)) {
      throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`)
    }
    if (reply.status > 0 && reply.status < 500 && reply.status !== 200) throw new Error(`${name}: ${reply.status} ${JSON.stringify(reply.body)}`)
    if (Date.now() > deadline) throw new Error(`${name}: no answer for good within ${CALL_DEADLINE_MS / 1000} s (last ${reply.status} ${JSON.stringify(reply.body)})`)
    await sleep(250)
  }
}

/** Runs fn over items, `width` at a time. */
async function inParallel<T>(items: T[], width: number, fn: (item: T, i: number) => Promise<void>) {
  let next = 0
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++
      await fn(items[i]!, i)
    }
  }))
}

/** The Message-ID the SMTP provider gives a message key (src/providers/email/smtp.ts). */
const messageIdOf = (key: string) => `<${key.replace(/[^A-Za-z0-9._-]/g, '.')}@sparky.example>`

it('kill -9 of the API, the worker and Temporal, a Postgres restart and receivers down and up, with work in flight: nothing lost, nothing sent twice, every workflow where it should be', async () => {
  const started = Date.now()
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
  const log: string[] = []
  const note = (what: string) => log.push(`${elapsed()} ${what}`)
  const printTimeline = () => console.log(`faults: timeline\n  ${log.join('\n  ')}`)
  onTestFailed(() => {
    printTimeline()
    for (const part of [api, worker]) console.log(`faults: ${part.name} output (tail)\n${part.output().slice(-6000)}`)
  })

  // ---- Before the faults: a company, its webhook subscription to every event, and the things the
  // in-flight work acts on (quotes to send, invoices to send, subcontractors to dispatch).
  const company = await call('POST', '/api/v1/onboard', { business_name: 'Fault Line Electrical', email: `faults+${suffix}@example.com.au`, plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  const key = company.api_key as string
  const companyId = company.company_id as string
  const [before] = await owner<{ last: string }[]>`select coalesce(max(id), 0)::text as last from event_outbox where company_id = ${companyId}`
  const last = before!.last
  const subscription = await call('POST', '/api/v1/webhooks', { url: hooks.url, events: WEBHOOK_EVENT_CATALOGUE.map((e) => e.name) }, key)
  hooks.secret = subscription.secret
  await tool(key, 'workflows.toggle', { workflow_id: 'team_notify', require_approval: true })
  // The chase: three steps, "days" 0, 3 and 6 after the due date (0, 6 and 12 s).
  await owner`insert into automation_settings (company_id, automation, enabled, settings) values (${companyId}, 'chase_payment', true,
    ${owner.json({ steps: [{ offset_days: 0, tone: 'friendly' }, { offset_days: 3, tone: 'firm', channel: 'both' }, { offset_days: 6, tone: 'final' }] } as never)})
    on conflict (company_id, automation) do update set enabled = excluded.enabled, settings = excluded.settings`

  const phone = (n: number) => `0412 ${String(100 + Math.floor(n / 1000)).slice(-3)} ${String(n % 1000).padStart(3, '0')}`
  const quotes: string[] = []
  const invoices: string[] = []
  const jobsToDispatch: string[] = []
  await inParallel(Array.from({ length: QUOTES }), 4, async (_, i) => {
    const { lead } = await tool(key, 'leads.create', { name: `Quote Client ${i}`, phone: phone(500 + i), email: `quote${i}@example.com.au` })
    quotes.push((await tool(key, 'quotes.create', { lead_id: lead.id, line_items: [{ description: `Install fan ${i}`, quantity: 1, unitPrice: 330 + i }] })).quote.id)
  })
  await inParallel(Array.from({ length: INVOICES }), 3, async (_, i) => {
    const { lead } = await tool(key, 'leads.create', { name: `Invoice Client ${i}`, phone: phone(600 + i), email: `invoice${i}@example.com.au` })
    const { job } = await tool(key, 'jobs.create', { lead_id: lead.id, title: `Switchboard ${i}`, amount: 440 + i })
    await tool(key, 'jobs.complete', { job_id: job.id })
    invoices.push((await tool(key, 'invoicing.generate', { job_id: job.id, due_in_days: 0 })).invoice.id)
  })
  const subcontractors: string[] = []
  for (let i = 0; i < CANDIDATES; i++) {
    const { subcontractor } = await tool(key, 'subcontractors.register', {
      name: `Fault Sub ${i}`, trades: ['electrical'], phone: phone(700 + i), licence_number: `L-${i}`, licence_expiry: '2099-01-31', policy_number: `PL-${i}`, insurance_expiry: '2099-01-31',
    })
    await tool(key, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'verify' })
    subcontractors.push(subcontractor.id)
  }
  for (let i = 0; i < DISPATCHES; i++) {
    const { lead } = await tool(key, 'leads.create', { name: `Dispatch Client ${i}`, phone: phone(800 + i) })
    jobsToDispatch.push((await tool(key, 'jobs.create', { lead_id: lead.id, title: `Dispatch job ${i}`, amount: 200 + i })).job.id)
  }
  note('set up')

  // ---- The work, spread over the fault window so that each fault finds some of it in flight.
  const actions: string[] = []
  /** The longest any call of each kind took to be answered for good, retries included (ms). */
  const slowest: Record<string, number> = {}
  const work: Promise<void>[] = []
  const at = (ms: number, what: string, fn: () => Promise<unknown>) => {
    const done = sleep(ms).then(async () => {
      const t = Date.now()
      await fn()
      actions.push(what)
      slowest[what] = Math.max(slowest[what] ?? 0, Date.now() - t)
    })
    done.catch(() => {}) // awaited below, with the others
    work.push(done)
  }
  for (let i = 0; i < LEADS; i++) {
    const contact = i < LEADS_WITH_CONTACT ? { phone: phone(i), email: `lead${i}@example.com.au` } : {}
    at(i * 180, 'lead', () => call('POST', '/api/v1/leads', { name: `Fault Lead ${i}`, serviceType: 'Hot water', ...contact }, key))
  }
  quotes.forEach((id, i) => at(500 + i * 3000, 'quote send', () => tool(key, 'quotes.send', { quote_id: id, send_sms: true, send_email: true })))
  invoices.forEach((id, i) => at(1000 + i * 4000, 'invoice send', () => tool(key, 'invoicing.send', { id, send_email: true })))
  const pendingActions: string[] = []
  for (let i = 0; i < APPROVALS; i++) {
    at(1500 + i * 4000, 'approval requested', async () => {
      const res = await tool(key, 'workflows.team_notify', { message: `Fault notice ${i}`, recipients: [phone(900 + i)] })
      if (res !== ANSWER_LOST) return void pendingActions.push(res.actionId)
      // The action was recorded with the change; its id was in the answer that was lost.
      const [action] = await owner<{ id: string }[]>`
        select id from pending_actions where company_id = ${companyId} and automation = 'team_notify'
          and messages::text ~ ${`Fault notice ${i}\\y`}`
      pendingActions.push(action!.id)
    })
  }
  jobsToDispatch.forEach((id, i) => at(2000 + i * 5000, 'dispatch', () => tool(key, 'subcontractors.dispatch', { job_id: id, candidates: subcontractors })))

  /** SMS tokens and Message-IDs the worker's kill may have caught between the provider's answer and its record. */
  const messagesCut = new Set<string>()
  // ---- The faults, one after another while that work runs.
  const faults: Record<string, number> = {}
  const timed = async (name: string, fn: () => Promise<unknown>) => {
    const t = Date.now()
    note(`${name}...`)
    await fn()
    faults[name] = Date.now() - t
    note(`${name} done (${faults[name]} ms)`)
  }
  // The API and the worker are each started again at once, as a supervisor would; the worker is
  // killed while the API is still starting (each start takes seconds of module loading).
  await sleep(2000)
  await timed('kill -9 API, then worker; restart both', async () => {
    await api.kill()
    const apiUp = api.start()
    await sleep(1500)
    hooks.fault()
    // A message the provider took just before the kill may be unrecorded: its retry sends it again
    // with the same key (Twilio drops the repeat; the Message-ID marks it for a mail system).
    for (const id of arrivedJustBefore(sms.messages.map((m) => m.idempotencyToken ?? ''), sms.messages.map((m) => m.at))) messagesCut.add(id)
    for (const id of arrivedJustBefore(smtp.messageIds, smtp.arrivals)) messagesCut.add(id)
    await worker.kill()
    await Promise.all([apiUp, worker.start()])
  })
  await sleep(1500)
  await timed('kill -9 Temporal dev server, restart on its file', async () => {
    hooks.fault()
    await temporal.kill()
    await sleep(1000)
    await temporal.start()
  })
  await sleep(1500)
  await timed(realPostgresRestart ? 'restart Postgres (pg_ctlcluster restart)' : 'restart Postgres (3 s outage at the proxy)', async () => {
    hooks.fault()
    // CI runs this suite alone on its own machine (.ci/run sets FAULTS_RESTART_POSTGRES=1), so the
    // real server is restarted there; on a shared machine the proxy cuts and refuses connections instead.
    if (realPostgresRestart) restartPostgres()
    else await proxy.restart(3000)
  })
  await sleep(1000)
  await timed('webhook receiver down 3 s, up', async () => {
    await hooks.down()
    await sleep(3000)
    await hooks.up()
  })
  await sleep(500)
  await timed('SMTP server down 3 s, up', async () => {
    await smtp.down()
    await sleep(3000)
    await smtp.up()
  })

  // ---- Recovery: the callers' work completes, the held notices are approved, and everything settles.
  await Promise.all(work)
  note(`all ${actions.length} calls answered; slowest (ms) ${JSON.stringify(slowest)}`)
  expect(pendingActions).toHaveLength(APPROVALS)
  for (const actionId of pendingActions) {
    const res = await tool(key, 'workflows.approve_action', { action_id: actionId })
    expect(res.action.status).toBe('executed')
  }
  note('approvals executed')

  const newEvents = async () => (await owner<{ id: string }[]>`select id::text from event_outbox where company_id = ${companyId} and id > ${last}::bigint`).map((e) => `evt_${e.id}`)
  type Outbound = { idempotency_key: string; channel: string; status: string; message_type: string; handed: boolean; error: string | null }
  const outbound = () => owner<Outbound[]>`
    select idempotency_key, channel, status, message_type, handed_to_provider_at is not null as handed, error
    from communications where company_id = ${companyId} and direction = 'outbound'`
  /** Handed to the provider (SMS stays 'queued' until Twilio's status callback), or failed for good. */
  const settled = (m: Outbound) => m.handed || m.status === 'failed'
  const workflows = () => owner<{ workflow_type: string; workflow_id: string; started: boolean }[]>`
    select workflow_type, workflow_id, started_at is not null as started from workflow_outbox where company_id = ${companyId} order by id`
  const dispatchStatuses = async () => (await owner<{ status: string }[]>`select status from dispatches where company_id = ${companyId}`).map((d) => d.status)

  const temporalClient = await connectClient(temporal.address, 'default')
  type Described = { type: string; id: string; status: string; pendingActivities: number }
  const describeAll = async (): Promise<Described[]> => Promise.all((await workflows()).map(async (w) => {
    const d = await temporalClient.workflow.getHandle(w.workflow_id).describe().catch(() => null)
    return { type: w.workflow_type, id: w.workflow_id, status: d?.status.name ?? (w.started ? 'NOT_FOUND' : 'NOT_STARTED'), pendingActivities: d?.raw.pendingActivities?.length ?? 0 }
  }))
  const final = await waitFor(async () => {
    const [events, messages, described, dispatches] = await Promise.all([newEvents(), outbound(), describeAll(), dispatchStatuses()])
    const received = new Set(hooks.ids)
    const brief = (list: Outbound[]) => list.slice(0, 4).map((m) => `${m.idempotency_key} ${m.status}${m.handed ? ' handed' : ''}${m.error ? ` (${m.error})` : ''}`)
    return {
      eventsMissing: events.filter((id) => !received.has(id)).length,
      messagesUnsettled: brief(messages.filter((m) => !settled(m))),
      smsMissing: brief(messages.filter((m) => m.channel === 'sms' && !sms.messages.some((s) => s.idempotencyToken === m.idempotency_key))),
      emailMissing: brief(messages.filter((m) => m.channel === 'email' && !smtp.messageIds.includes(messageIdOf(m.idempotency_key)))),
      workflowsBusy: described.filter((d) => d.status !== 'COMPLETED' && !(d.status === 'RUNNING' && d.pendingActivities === 0)).length,
      dispatchesOpen: dispatches.filter((s) => s !== 'exhausted').length,
    }
  }, (v) => Object.values(v).every((n) => (Array.isArray(n) ? n.length : n) === 0), 100_000, 500)
  note(`settled ${JSON.stringify(final)}`)

  // ---- The counts.
  const events = await newEvents()
  const messages = await outbound()
  const described = await describeAll()
  await temporalClient.connection.close()
  const received = new Set(hooks.ids)
  const redelivered = [...countIds(hooks.ids)].filter(([, n]) => n > 1).map(([id]) => id)
  const smsTokens = sms.messages.map((m) => m.idempotencyToken ?? '(none)')
  /** Ids that arrived more than once, among those the worker's kill cut (cut=true) or the others. */
  const repeatedOf = (ids: string[], cut: boolean) => [...countIds(ids)].filter(([id, n]) => n > 1 && messagesCut.has(id) === cut).length
  const byType: Record<string, Record<string, number>> = {}
  for (const d of described) (byType[d.type] ??= {})[d.status] = (byType[d.type]![d.status] ?? 0) + 1
  const counts = {
    events: events.length,
    eventsLost: events.filter((id) => !received.has(id)).length,
    webhookRequests: hooks.ids.length,
    webhookRedeliveries: repeats(hooks.ids),
    webhookIdsRedelivered: redelivered.length,
    webhookDeliveriesCut: hooks.cut.size,
    badSignatures: hooks.badSignatures.length,
    sms: { sent: messages.filter((m) => m.channel === 'sms').length, received: smsTokens.length, repeatsOfCut: repeatedOf(smsTokens, true), duplicates: repeatedOf(smsTokens, false) },
    email: { sent: messages.filter((m) => m.channel === 'email').length, received: smtp.messageIds.length, repeatsOfCut: repeatedOf(smtp.messageIds, true), duplicates: repeatedOf(smtp.messageIds, false) },
    messagesCut: messagesCut.size,
    messageStatuses: countIds(messages.map((m) => m.status)),
    workflows: byType,
    faultsMs: faults,
    answersLost,
    seconds: Math.round((Date.now() - started) / 1000),
  }
  for (const id of redelivered.filter((r) => !hooks.cut.has(r))) {
    const times = hooks.ids.flatMap((h, i) => (h === id ? [`${((hooks.arrivals[i]! - started) / 1000).toFixed(1)} s`] : []))
    note(`webhook ${id} redelivered outside the cut set, arrived at ${times.join(', ')}`)
  }
  // Where a message arrived twice: when its row was made and handed over, against the timeline.
  const twice = [...countIds([...smsTokens, ...smtp.messageIds])].filter(([, n]) => n > 1).map(([id]) => id)
  for (const id of twice) {
    const [row] = await owner<{ created_at: Date; handed_to_provider_at: Date | null; status_updated_at: Date | null }[]>`
      select created_at, handed_to_provider_at, status_updated_at from communications
      where company_id = ${companyId} and (idempotency_key = ${id} or ${id} like '<%' and ${id} like '%' || replace(idempotency_key, ':', '.') || '%')`
    const rel = (d: Date | null | undefined) => (d ? `${((d.getTime() - started) / 1000).toFixed(1)} s` : '-')
    note(`arrived twice: ${id} (row made ${rel(row?.created_at)}, handed over ${rel(row?.handed_to_provider_at)})`)
  }
  printTimeline()
  console.log(`faults: counts ${JSON.stringify(counts, (_, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v), 2)}`)

  // Enough was in flight to mean something.
  expect(events.length).toBeGreaterThanOrEqual(LEADS)
  expect(counts.sms.sent).toBeGreaterThanOrEqual(LEADS_WITH_CONTACT + QUOTES)
  expect(counts.email.sent).toBeGreaterThanOrEqual(LEADS_WITH_CONTACT + QUOTES + INVOICES)
  // Nothing lost.
  expect(counts.eventsLost).toBe(0)
  expect(counts.badSignatures).toBe(0)
  expect(messages.filter((m) => !m.handed || m.status === 'failed')).toEqual([])
  expect(new Set(smsTokens)).toEqual(new Set(messages.filter((m) => m.channel === 'sms').map((m) => m.idempotency_key)))
  expect(new Set(smtp.messageIds)).toEqual(new Set(messages.filter((m) => m.channel === 'email').map((m) => messageIdOf(m.idempotency_key))))
  // Nothing sent twice: a key arrives again only if the worker was killed between the provider's
  // answer and its record (at-least-once, the same key; Twilio deduplicates on it).
  expect(counts.sms.duplicates).toBe(0)
  expect(counts.email.duplicates).toBe(0)
  // Each request made its change once: a retry of a lead whose first request committed and was cut
  // before answering made a second lead (and a second instant reply, under its own key) until
  // claims were marked by the change (core/claim-scope.ts).
  const leadsMade = await owner<{ name: string; n: number }[]>`
    select name, count(*)::int as n from leads where company_id = ${companyId} and name like 'Fault Lead %' group by name`
  expect(leadsMade.filter((l) => l.n !== 1)).toEqual([])
  expect(leadsMade).toHaveLength(LEADS)
  // At-least-once: webhook-ids arrive again no more often than the faults cut deliveries mid-call.
  // (Not always the very ones: a delivery whose result was lost with a killed worker or dev server
  // is retried when its timeout passes, and a workflow task late on a loaded machine repeats its
  // local activity; those are noted above with their arrival times.)
  expect(counts.webhookIdsRedelivered).toBeLessThanOrEqual(counts.webhookDeliveriesCut)
  // Every workflow finished or waiting; none failed, timed out or terminated.
  expect(described.filter((d) => d.status !== 'COMPLETED' && d.status !== 'RUNNING')).toEqual([])
  // The processes logged nothing unhandled.
  for (const part of [api, worker]) expect(part.output()).not.toMatch(/unhandled|uncaught/i)
})
