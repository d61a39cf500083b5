// Crash test for the payment chase: the Temporal worker runs as a separate process (src/main-worker.ts,
// as in production) and is killed with SIGKILL while 10 chases are part-way through their cadence
// (4 SMS reminders each, a "day" of one second). After a new worker starts, every chase finishes and
// every reminder was handed to the SMS provider (a local Twilio) exactly once per idempotency key:
// one communications row per key, and the provider saw each key. A request that reached the
// provider but whose answer the dead worker never recorded goes again with the same
// I-Twilio-Idempotency-Token, which Twilio deduplicates; those repeats are reported.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { workerProcesses } from './helpers/worker-process.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { startLocalTwilio, type LocalTwilio } from './helpers/twilio-server.js'
import { waitFor } from './helpers/wait.js'

const CHASES = 10
const STEPS = 4
let app: TestApp
let twilio: LocalTwilio
let company: Awaited<ReturnType<typeof onboard>>
let client: McpClient

function smsConfig() {
  return { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: twilio.from, TWILIO_BASE_URL: twilio.url } as const
}

const workerProcs = workerProcesses(() => app, () => ({ ...smsConfig(), AUTOMATION_DAY_MS: '1000' }))
const startWorker = () => workerProcs.start()

beforeAll(async () => {
  twilio = await startLocalTwilio()
  app = await startTestApp({ worker: false, config: { AUTOMATION_DAY_MS: 1000, ...smsConfig() } })
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  await app.owner`insert into automation_settings (company_id, automation, enabled, settings) values (${company.company_id}, 'chase_payment', true,
    ${app.owner.json({ steps: [1, 2, 3, 4].map((d, i) => ({ offset_days: d, tone: ['friendly', 'friendly', 'firm', 'final'][i], channel: 'sms' })) } as never)})`
})

afterAll(async () => {
  workerProcs.killAll()
  await client?.close()
  await app?.stop()
  await twilio?.close()
})

const chaseTokens = () => twilio.messages.map((m) => m.idempotencyToken ?? '').filter((t) => t.startsWith('invoice-chase:'))

describe('the payment chase survives a worker crash', () => {
  it('kill -9 of the worker mid-chase: after a restart every reminder goes out, once per key', async () => {
    const first = await startWorker()
    const invoices: string[] = []
    for (let i = 0; i < CHASES; i++) {
      const { lead } = await tool(client, 'leads.create', { name: `Crash Client ${i}`, phone: `0412 500 ${String(i).padStart(3, '0')}` })
      const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, amount: 100 + i })
      await tool(client, 'jobs.complete', { job_id: job.id })
      const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id, due_in_days: 0 })
      expect((await app.call('POST', `/api/v1/invoices/${invoice.id}/send`, { key: company.api_key, body: { send_email: false, send_sms: true } })).status).toBe(200)
      invoices.push(invoice.id)
    }
    const expected = invoices.flatMap((id) => [1, 2, 3, 4].map((n) => `invoice-chase:${id}:step${n}:sms`)).sort()

    // Killed part-way: some reminders out, not all. Every chase must have begun first: a run whose
    // first task comes only after the restart (seconds later, which are days here) finds all its
    // steps past and skips them by design, so it would prove nothing about the crash.
    // And some are further on (12 reminders out at least), so the restart has chases mid-cadence;
    // on a loaded machine that is a moment after the last first reminder.
    const everyChaseBegan = (tokens: Set<string>) => invoices.every((id) => tokens.has(`invoice-chase:${id}:step1:sms`))
    await waitFor(async () => new Set(chaseTokens()), (tokens) => everyChaseBegan(tokens) && tokens.size >= 12, 30_000, 20)
    const atKill = new Set(chaseTokens()).size
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    expect(atKill).toBeGreaterThanOrEqual(12)
    expect(atKill).toBeLessThan(CHASES * STEPS)

    const restartedAt = Date.now()
    await startWorker()
    const runs = () => app.owner<{ status: string }[]>`select status from automation_runs where company_id = ${company.company_id} and automation = 'chase_payment'`
    const done = await waitFor(runs, (rows) => rows.length === CHASES && rows.every((r) => r.status === 'completed'), 90_000, 250)
    expect(done.map((r) => r.status)).toEqual(Array(CHASES).fill('completed'))

    // One communications row per reminder, each handed to the provider.
    const rows = await app.owner<{ idempotency_key: string; handed: boolean; message_type: string }[]>`
      select idempotency_key, handed_to_provider_at is not null as handed, message_type from communications
      where company_id = ${company.company_id} and idempotency_key like 'invoice-chase:%'`
    expect(rows.map((r) => r.idempotency_key).sort()).toEqual(expected)
    expect(rows.every((r) => r.handed && r.message_type === 'invoice_chase')).toBe(true)
    // The provider saw exactly the expected keys; any repeat carried the same idempotency token.
    const tokens = chaseTokens()
    expect([...new Set(tokens)].sort()).toEqual(expected)
    const repeats = tokens.length - expected.length
    expect(repeats).toBeLessThanOrEqual(CHASES) // at most the requests in flight when it died
    console.log(`automations-crash: killed the worker with ${atKill}/${expected.length} chase reminders out; ${tokens.length} provider requests, ` +
      `${repeats} repeat(s) with the same idempotency token; all chases done ${Math.round((Date.now() - restartedAt) / 1000)} s after the restart`)
  }, 150_000)
})
