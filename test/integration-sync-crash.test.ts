// Crash test for the accounting sync: the Temporal worker runs as a separate process
// (src/main-worker.ts) and is killed with SIGKILL in the middle of a batch of invoice pushes (the
// local Xero takes a while over each write, so the kill lands with some invoices there and some
// not, and maybe one in flight). After a new worker starts, the sync resumes from its cursors and
// completes: Xero holds each invoice and each contact exactly once (a write in flight at the kill
// is sent again with the same Idempotency-Key, which Xero answers with the first record), each
// invoice was counted once by the cursor, and the pull cursor moved on.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { workerProcesses } from './helpers/worker-process.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { connectLocalXero, localXeroConfig, startLocalXero, type LocalXero } from './helpers/xero-server.js'

const CLIENTS = 9
const TOKEN_KEY = randomBytes(32).toString('base64')
let app: TestApp
let xero: LocalXero
let client: McpClient

const settings = () => ({
  ...localXeroConfig(xero, 'crash-webhook-key'), INTEGRATIONS_TOKEN_KEY: TOKEN_KEY, INTEGRATIONS_SYNC_BATCH_SIZE: 3, INTEGRATIONS_SYNC_INTERVAL_MS: 3_600_000,
})
const workerProcs = workerProcesses(() => app, () => Object.fromEntries(Object.entries(settings()).map(([k, v]) => [k, String(v)])))

beforeAll(async () => {
  xero = await startLocalXero()
  app = await startTestApp({ worker: false, config: settings() })
})
afterAll(async () => {
  workerProcs.killAll()
  await client?.close()
  await app?.stop()
  await xero?.close()
})

describe('the accounting sync survives a worker crash', () => {
  it('kill -9 of the worker mid-batch: after a restart the sync resumes from its cursor and Xero holds each record exactly once', async () => {
    const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    client = await connectHttp(app, company.api_key)
    const connectionId = await connectLocalXero(client, xero)
    const numbers: string[] = []
    for (let i = 0; i < CLIENTS; i++) {
      const { lead } = await tool(client, 'leads.create', { name: `Crash Client ${i}`, email: `crash${i}@example.com.au` })
      const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: `Crash job ${i}`, amount: 100 + i })
      await tool(client, 'jobs.complete', { job_id: job.id })
      numbers.push((await tool(client, 'invoicing.generate', { job_id: job.id })).invoice.invoiceNumber)
    }
    xero.add('contacts', { Name: 'Pulled Before Crash', EmailAddress: 'pulled@example.com.au' })

    xero.writeDelayMs = 150
    const first = await workerProcs.start()
    const asked = new Date()
    const out = await tool(client, 'integrations.sync', { connection_id: connectionId })
    // Killed mid-way through the invoices (contacts went first), with an invoice write in flight:
    // its Idempotency-Key has reached Xero, the invoice is not stored yet.
    const invoiceKeys = () => xero.idempotencyKeys.filter((k) => k.includes('-invoice-'))
    await waitFor(async () => ({ stored: xero.invoices.length, sent: invoiceKeys().length }), (n) => n.stored >= 2 && n.sent > n.stored, 60_000, 5)
    first.kill('SIGKILL')
    await new Promise((resolve) => first.once('exit', resolve))
    const atKill = xero.invoices.length
    expect(atKill).toBeLessThan(CLIENTS)

    xero.writeDelayMs = 0
    await workerProcs.start()
    const cursors = () => app.owner<{ entity_type: string; direction: string; last_synced_at: Date; cursor: string | null; records_done: number }[]>`
      select entity_type, direction, last_synced_at, cursor, records_done from integration_sync_cursors where connection_id = ${connectionId}`
    // Done: every cursor moved since the ask, and each pull pass finished (its cursor's started cleared: a
    // pull moves its cursor page by page, so a moved cursor alone may still be mid-pass).
    const passFinished = (r: { direction: string; cursor: string | null }) => r.direction !== 'pull' || (r.cursor !== null && JSON.parse(r.cursor).started === null)
    const done = await waitFor(cursors, (rows) => rows.length === 6 && rows.every((r) => r.last_synced_at >= asked && passFinished(r)) && xero.invoices.length >= CLIENTS, 90_000, 250)

    for (const n of numbers) expect(xero.invoices.filter((i) => i.InvoiceNumber === n), n).toHaveLength(1)
    expect(xero.invoices).toHaveLength(CLIENTS)
    for (let i = 0; i < CLIENTS; i++) expect(xero.contacts.filter((c) => c.Name === `Crash Client ${i}`)).toHaveLength(1)
    expect(await app.owner`select id from leads where name = 'Pulled Before Crash'`).toHaveLength(1)
    // The cursor counted each invoice once (its link and its move share a transaction), and the pull moved on.
    expect(done.find((c) => c.entity_type === 'invoice' && c.direction === 'push')!.records_done).toBe(CLIENTS)
    expect(JSON.parse(done.find((c) => c.entity_type === 'contact' && c.direction === 'pull')!.cursor!)).toMatchObject({ since: expect.any(String), page: 1, skip: 0 })
    const links = await app.owner<{ n: number }[]>`select count(*)::int as n from integration_entity_links where connection_id = ${connectionId} and entity_type = 'invoice'`
    expect(links[0]!.n).toBe(CLIENTS)
    // Only the write in flight at the kill went twice (same key); the invoices stored before it were not sent again.
    const keys = invoiceKeys()
    expect(new Set(keys).size).toBe(CLIENTS)
    expect(keys.length).toBe(CLIENTS + 1)
    console.log(`integration-sync-crash: killed with ${atKill}/${CLIENTS} invoices in Xero; ${keys.length} invoice writes for ${new Set(keys).size} keys (${out.workflow_id})`)
  }, 180_000)
})
