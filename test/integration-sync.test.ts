// The accounting sync workflow (issue 24) on the real Temporal dev server against the local Xero
// (helpers/xero-server.ts), with batches of two so every step takes several: our clients and
// invoices (and a credit note) go out once with our numbers, a contact already in Xero is matched,
// a new Xero contact becomes a lead and one matching ours is linked, never duplicated; a Xero
// payment on our invoice is recorded once and ours goes out once; a second sync changes nothing;
// a 429 the adapter may not wait out is slept on the workflow's timer; a webhook asks for a round.
import { createHmac, randomBytes } from 'node:crypto'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { Client as TemporalClient } from '@temporalio/client'
import { temporal as proto } from '@temporalio/proto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { connectClient } from '../src/temporal/connection.js'
import { connectLocalXero, localXeroConfig, startLocalXero, type LocalXero } from './helpers/xero-server.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'

const WEBHOOK_KEY = 'xero-webhook-key-for-sync-tests'
let xero: LocalXero
let app: TestApp
let temporal: TemporalClient
let client: Client
let connectionId: string

beforeAll(async () => {
  xero = await startLocalXero()
  app = await startTestApp({
    config: {
      ...localXeroConfig(xero, WEBHOOK_KEY), INTEGRATIONS_TOKEN_KEY: randomBytes(32).toString('base64'),
      // No wait inside a call: a 429 goes back to the workflow, which sleeps it out on a timer.
      INTEGRATIONS_MAX_RETRY_WAIT_MS: 0, INTEGRATIONS_SYNC_BATCH_SIZE: 2, INTEGRATIONS_SYNC_INTERVAL_MS: 3_600_000,
    },
  })
  temporal = await connectClient(inject('temporalAddress'), 'default')
  const company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
  connectionId = await connectLocalXero(client, xero)
})
afterAll(async () => {
  await client?.close()
  await temporal?.connection.close()
  await app?.stop()
  await xero?.close()
})

const cursors = () => app.owner<{ entity_type: string; direction: string; last_synced_at: Date; cursor: string | null; last_result: string }[]>`
  select entity_type, direction, last_synced_at, cursor, last_result from integration_sync_cursors where connection_id = ${connectionId}`
/** Every step (six cursors) has finished a pass since `since`: a whole round ran. */
const roundAfter = (since: Date) => waitFor(cursors, (rows) => rows.length === 6 && rows.every((r) => r.last_synced_at >= since), 60_000, 200)
async function syncRound() {
  const asked = new Date()
  const out = await tool(client, 'integrations.sync', { connection_id: connectionId })
  await roundAfter(asked)
  return out
}

async function invoicedClient(name: string, email: string, amount: number) {
  const { lead } = await tool(client, 'leads.create', { name, email })
  const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: `Work for ${name}`, amount })
  await tool(client, 'jobs.complete', { job_id: job.id })
  const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id })
  return { lead, invoice }
}

const named = (records: Record<string, unknown>[], field: string, value: string) => records.filter((r) => String(r[field]).toLowerCase() === value.toLowerCase())
const serverCounts = () => ({ contacts: xero.contacts.length, invoices: xero.invoices.length, creditNotes: xero.creditNotes.length, payments: xero.payments.length })
const ourCounts = async () => (await app.owner<{ leads: number; payments: number; links: number }[]>`
  select (select count(*)::int from leads) as leads, (select count(*)::int from payments) as payments,
         (select count(*)::int from integration_entity_links where connection_id = ${connectionId}) as links`)[0]!

let alice: Awaited<ReturnType<typeof invoicedClient>>
let bob: Awaited<ReturnType<typeof invoicedClient>>

describe('integrations.sync', () => {
  it('pushes our clients and invoices once with our numbers, matches a contact already in Xero, pulls a new one as a lead and links one of ours: never a duplicate', async () => {
    xero.add('contacts', { Name: 'BOB BUILDER PTY', EmailAddress: 'bob@example.com.au' })
    xero.add('contacts', { Name: 'Dana Distinct', EmailAddress: 'dana@example.com.au' })
    xero.add('contacts', { Name: 'Eve Existing', EmailAddress: 'EVE@example.com.au' })
    alice = await invoicedClient('Alice Apple', 'alice@example.com.au', 1100)
    bob = await invoicedClient('Bob Builder', 'bob@example.com.au', 550)
    const carl = await invoicedClient('Carl Credit', 'carl@example.com.au', 880)
    const { credit_note: credit } = await tool(client, 'invoicing.credit_note', { id: carl.invoice.id, amount: 110, reason: 'Callout fee waived' })
    await tool(client, 'leads.create', { name: 'Eve E', email: 'eve@example.com.au' }) // a lead, not a client: not pushed, but matched when pulled

    const out = await syncRound()
    expect(out).toMatchObject({ connection_id: connectionId, workflow_id: `integration-sync:${(await app.owner`select company_id from integration_connections where id = ${connectionId}`)[0]!.company_id}:${connectionId}`, requested: true })

    expect(named(xero.contacts, 'Name', 'Alice Apple')).toHaveLength(1)
    expect(named(xero.contacts, 'Name', 'Carl Credit')).toHaveLength(1)
    expect(named(xero.contacts, 'EmailAddress', 'bob@example.com.au')).toHaveLength(1) // matched by email, not created again
    expect(named(xero.contacts, 'EmailAddress', 'eve@example.com.au')).toHaveLength(1)
    for (const { invoice } of [alice, bob, carl]) expect(named(xero.invoices, 'InvoiceNumber', invoice.invoiceNumber)).toHaveLength(1)
    expect(named(xero.creditNotes, 'CreditNoteNumber', credit.invoiceNumber)).toHaveLength(1)

    const leads = await app.owner<{ name: string; source: string | null }[]>`select name, source from leads order by created_at`
    expect(leads.filter((l) => l.name === 'Dana Distinct')).toEqual([{ name: 'Dana Distinct', source: 'xero' }])
    expect(leads.filter((l) => /bob|eve/i.test(l.name)).map((l) => l.name).sort()).toEqual(['Bob Builder', 'Eve E'])
    const links = await app.owner<{ name: string; linked_by: string }[]>`
      select l.name, k.linked_by from integration_entity_links k join leads l on l.id = k.our_id where k.entity_type = 'contact' order by l.name`
    expect(links).toEqual(expect.arrayContaining([
      { name: 'Bob Builder', linked_by: 'matched_email' }, { name: 'Dana Distinct', linked_by: 'pulled' }, { name: 'Eve E', linked_by: 'matched_email' },
    ]))

    const status = await tool(client, 'integrations.connection_status', { connection_id: connectionId })
    expect(status.sync_workflow_id).toBe(out.workflow_id)
    expect(status.entities).toHaveLength(6)
    expect(status.entities.every((e: { last_result: string }) => e.last_result === 'ok')).toBe(true)
  }, 90_000)

  it('a payment made in Xero on our invoice is recorded once; ours goes to Xero once; a second sync changes nothing', async () => {
    const [aliceLink] = await app.owner<{ provider_id: string }[]>`select provider_id from integration_entity_links where entity_type = 'invoice' and our_id = ${alice.invoice.id}`
    const [bobLink] = await app.owner<{ provider_id: string }[]>`select provider_id from integration_entity_links where entity_type = 'invoice' and our_id = ${bob.invoice.id}`
    const paidInXero = xero.add('payments', { Invoice: { InvoiceID: aliceLink!.provider_id }, Amount: 100, Date: '2026-11-20', Reference: 'EFT 123' })
    const { payment: ours } = await tool(client, 'invoicing.record_payment', { id: bob.invoice.id, amount: 50, method: 'bank_transfer', reference: 'BOB-1' })
    const balanceBefore = (await tool(client, 'invoicing.get', { id: alice.invoice.id })).invoice.balance

    await syncRound()
    const recorded = await app.owner<{ invoice_id: string; amount_cents: string; provider_payment_id: string }[]>`select invoice_id, amount_cents::text, provider_payment_id from payments where provider = 'xero'`
    expect(recorded).toEqual([{ invoice_id: alice.invoice.id, amount_cents: '10000', provider_payment_id: paidInXero.PaymentID }])
    expect((await tool(client, 'invoicing.get', { id: alice.invoice.id })).invoice.balance).toBeCloseTo(balanceBefore - 100, 2)
    const sent = xero.payments.filter((p) => (p.Invoice as { InvoiceID: string }).InvoiceID === bobLink!.provider_id)
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ Amount: 50 })
    expect(xero.idempotencyKeys.filter((k) => k.endsWith(`-payment-${ours.id}`)).length).toBeGreaterThanOrEqual(1)

    const before = { server: serverCounts(), ours: await ourCounts(), puts: { ...xero.counts } }
    await syncRound()
    expect(serverCounts()).toEqual(before.server)
    expect(await ourCounts()).toEqual(before.ours)
    for (const key of Object.keys(xero.counts).filter((k) => k.startsWith('PUT'))) expect(xero.counts[key], key).toBe(before.puts[key])
  }, 90_000)

  it('a 429 the adapter may not wait out is slept on the workflow timer, then the invoice goes once', async () => {
    const fay = await invoicedClient('Fay Later', 'fay@example.com.au', 220)
    xero.failNext('Invoices', { status: 429, headers: { 'retry-after': '1', 'x-rate-limit-problem': 'minute' } })
    const out = await syncRound()
    expect(named(xero.invoices, 'InvoiceNumber', fay.invoice.invoiceNumber)).toHaveLength(1)
    const history = await temporal.workflow.getHandle(out.workflow_id).fetchHistory()
    const timers = history.events!.filter((e) => e.eventType === proto.api.enums.v1.EventType.EVENT_TYPE_TIMER_STARTED)
      .map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds))
    expect(timers).toContain(1) // the Retry-After, as a durable timer
    expect((await cursors()).find((c) => c.entity_type === 'invoice' && c.direction === 'push')!.last_result).toBe('ok')
  }, 90_000)

  it('a signed Xero webhook asks for a round: the new contact arrives without integrations.sync', async () => {
    const gus = xero.add('contacts', { Name: 'Gus Webhook', EmailAddress: 'gus@example.com.au' })
    const event = { resourceUrl: 'x', resourceId: gus.ContactID, eventDateUtc: new Date().toISOString(), eventType: 'CREATE', eventCategory: 'CONTACT', tenantId: xero.tenantId, tenantType: 'ORGANISATION' }
    const body = JSON.stringify({ events: [event], firstEventSequence: 1, lastEventSequence: 1, entropy: 'ABCDEFGHIJ' })
    const started = Date.now()
    const res = await fetch(`${app.url}/api/v1/integrations/xero/webhooks`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-xero-signature': createHmac('sha256', WEBHOOK_KEY).update(body).digest('base64') }, body,
    })
    expect(res.status).toBe(200)
    expect(Date.now() - started).toBeLessThan(5000)
    await waitFor(() => app.owner`select id from leads where name = 'Gus Webhook'`, (rows) => rows.length === 1, 30_000, 200)
    const status = await waitFor(() => tool(client, 'integrations.connection_status', { connection_id: connectionId }), (s) => s.webhook_events_waiting === 0, 30_000, 200)
    expect(status.webhook_events_waiting).toBe(0)
    expect(await app.owner`select id from leads where name = 'Gus Webhook'`).toHaveLength(1)
  }, 60_000)

  it('workflows.sync_contact pushes through the same path: created, then already linked; Xero holds one', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Hana Sync', email: 'hana@example.com.au' })
    const first = await tool(client, 'workflows.sync_contact', { lead_id: lead.id })
    expect(first).toMatchObject({ synced: true, results: [{ connectionId, provider: 'xero', status: 'created', error: null }] })
    const again = await tool(client, 'workflows.sync_contact', { lead_id: lead.id, connection_id: connectionId })
    expect(again.results).toEqual([expect.objectContaining({ status: 'already_linked', externalId: first.results[0].externalId })])
    expect(named(xero.contacts, 'Name', 'Hana Sync')).toHaveLength(1)
  })

  it('needs a connection of the company that is not disconnected, else says to connect with integrations.connect', async () => {
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    expect((await toolError(otherClient, 'integrations.sync', { connection_id: connectionId })).error).toBe('not_found')
    await otherClient.close()
    await app.owner`update integration_connections set status = 'disconnected' where id = ${connectionId}`
    try {
      const refused = await toolError(client, 'integrations.sync', { connection_id: connectionId })
      expect(refused.error).toBe('conflict')
      expect(refused.message).toContain('integrations.connect')
    } finally {
      await app.owner`update integration_connections set status = 'active' where id = ${connectionId}`
    }
  })
})
