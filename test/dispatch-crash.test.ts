// Crash test for dispatch: the Temporal worker runs as a separate process (src/main-worker.ts) and
// is killed with SIGKILL between two offers (the first offer's SMS at the provider, a local Twilio;
// the second not yet). After a new worker starts, the dispatch goes on: every offer goes out exactly
// once per idempotency key (one communications row each, the provider saw each key; a request in
// flight at the kill goes again with the same I-Twilio-Idempotency-Token, which Twilio deduplicates).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { workerProcesses } from './helpers/worker-process.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { startLocalTwilio, type LocalTwilio } from './helpers/twilio-server.js'
import { waitFor } from './helpers/wait.js'

const CANDIDATES = 3
let app: TestApp
let twilio: LocalTwilio
let client: McpClient

function smsConfig() {
  return { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: twilio.from, TWILIO_BASE_URL: twilio.url } as const
}

const workerProcs = workerProcesses(() => app, () => ({ ...smsConfig() }))

beforeAll(async () => {
  twilio = await startLocalTwilio()
  // Each offer times out after 1.5 s: nobody answers, so the run goes through every candidate.
  app = await startTestApp({ worker: false, config: { DISPATCH_OFFER_TIMEOUT_MS: 1500, ...smsConfig() } })
})
afterAll(async () => {
  workerProcs.killAll()
  await client?.close()
  await app?.stop()
  await twilio?.close()
})

const offerTokens = () => twilio.messages.map((m) => m.idempotencyToken ?? '').filter((t) => t.startsWith('dispatch-offer:'))

describe('dispatch survives a worker crash', () => {
  it('kill -9 of the worker between two offers: after a restart each offer is sent exactly once', async () => {
    const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    client = await connectHttp(app, company.api_key)
    const first = await workerProcs.start()
    const { lead } = await tool(client, 'leads.create', { name: 'Crash Client', phone: '0412 600 000' })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Crash job', amount: 100 })
    const ids: string[] = []
    for (let i = 0; i < CANDIDATES; i++) {
      const { subcontractor } = await tool(client, 'subcontractors.register', {
        name: `Crash Sub ${i}`, trades: ['electrical'], phone: `0412 600 10${i}`, licence_number: 'L-1', licence_expiry: '2099-01-31', policy_number: 'PL-1', insurance_expiry: '2099-01-31',
      })
      await tool(client, 'subcontractors.verify', { subcontractor_id: subcontractor.id, action: 'verify' })
      ids.push(subcontractor.id)
    }
    await tool(client, 'subcontractors.dispatch', { job_id: job.id, candidates: ids })

    // Killed between the first offer and the second.
    await waitFor(async () => new Set(offerTokens()).size, (n) => n >= 1, 30_000, 20)
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    const atKill = new Set(offerTokens()).size
    expect(atKill).toBeLessThan(CANDIDATES)

    await workerProcs.start()
    const dispatchRow = () => app.owner<{ status: string }[]>`select status from dispatches where job_id = ${job.id}`
    await waitFor(dispatchRow, (rows) => rows[0]?.status === 'exhausted', 60_000, 250)

    const offers = await app.owner<{ id: string; status: string }[]>`
      select o.id, o.status from dispatch_offers o join dispatches d on d.id = o.dispatch_id where d.job_id = ${job.id} order by o.position`
    expect(offers.map((o) => o.status)).toEqual(Array(CANDIDATES).fill('timed_out'))
    const expected = offers.map((o) => `dispatch-offer:${o.id}:sms`).sort()
    const rows = await app.owner<{ idempotency_key: string }[]>`
      select idempotency_key from communications where job_id = ${job.id} and message_type = 'dispatch_offer' and channel = 'sms'`
    expect(rows.map((r) => r.idempotency_key).sort()).toEqual(expected)
    expect([...new Set(offerTokens())].sort()).toEqual(expected)
    console.log(`dispatch-crash: killed with ${atKill}/${CANDIDATES} offers out; ${offerTokens().length} provider requests for ${expected.length} offers`)
  }, 150_000)
})
