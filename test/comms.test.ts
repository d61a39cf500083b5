// comms.send_sms, comms.send_email and comms.list with the local outboxes (no provider configured):
// the Australian-mobile rule, the honest 'recorded' status, list filters and cursor paging, the
// service://communications resource, GET /usage counting what the tools sent, cross-tenant ids, and
// the Spam Act layer applied to a marketing message another domain queues (review_request).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { withTenant } from '../src/db/sql.js'
import { withTenantThenStart } from '../src/temporal/outbox.js'
import { reserveMessageDelivery } from '../src/domains/comms/deliver.js'
import { recordOptOut } from '../src/domains/comms/opt-outs.js'
import { MARKETING_MESSAGE_TYPES, isMarketing } from '../src/domains/comms/spam-act.js'

let app: TestApp
let client: Client
let other: Client
let company: Awaited<ReturnType<typeof onboard>>
let lead: any

beforeAll(async () => {
  app = await startTestApp()
  company = await onboard(app, { plan: 'business', business_name: 'Harbour Plumbing' })
  client = await connectHttp(app, company.api_key)
  other = await connectHttp(app, (await onboard(app, { plan: 'business' })).api_key)
  lead = (await tool(client, 'leads.create', { name: 'Alex Doe', email: 'alex@example.com' })).lead
})
afterAll(async () => {
  await client?.close()
  await other?.close()
  await app?.stop()
})

describe('comms.send_sms: an Australian mobile is required', () => {
  it.each([
    ['02 9876 5432', /landline/],
    ['(03) 9123 4567', /landline/],
    ['+1 415 555 2671', /not an Australian number/],
    ['+44 7911 123456', /not an Australian number/],
    ['hello there', /not a valid phone number/],
    ['0412', /not a valid phone number/],
  ])('%s is a validation_error naming to', async (to, rule) => {
    const error = await toolError(client, 'comms.send_sms', { to, message: 'Hi' })
    expect(error.error).toBe('validation_error')
    expect(error.messages).toHaveLength(1)
    expect(error.messages[0]).toMatch(/^to: /)
    expect(error.messages[0]).toMatch(rule)
    expect(error.messages[0]).toContain('an Australian mobile number is required')
  })

  it('nothing is recorded or counted for a refused number', async () => {
    expect(await app.owner`select id from communications where message_type = 'manual' and channel = 'sms'`).toEqual([])
  })

  it('local and international forms are normalised to E.164; the local outbox records, it does not claim delivery', async () => {
    const { message } = await tool(client, 'comms.send_sms', { to: '0412 345 678', message: 'Running 10 minutes late', lead_id: lead.id })
    expect(message).toMatchObject({ to: '+61412345678', status: 'queued', provider: 'local-outbox', leadId: lead.id, marketing: false })
    const done = await waitFor(async () => (await tool(client, 'comms.list', { channel: 'sms' })).messages.find((m: any) => m.id === message.id), (m) => m?.status === 'recorded')
    expect(done).toMatchObject({ status: 'recorded', sentAt: expect.any(String) })
    const intl = await tool(client, 'comms.send_sms', { to: '+61 412 345 678', message: 'Second' })
    expect(intl.message.to).toBe('+61412345678')
  })
})

describe('comms.list', () => {
  it('filters by channel, message type, delivery status, lead, job and since; pages by cursor', async () => {
    const job = (await tool(client, 'jobs.create', { lead_id: lead.id, scheduled_date: '2026-12-01T08:00:00+11:00' })).job
    const email = (await tool(client, 'comms.send_email', { to: 'alex@example.com', subject: 'Booked', body: '<p>See you Tuesday</p>', job_id: job.id })).message
    expect(email).toMatchObject({ jobId: job.id, leadId: lead.id })
    await waitFor(() => app.owner`select status from communications where id = ${email.id}`, (r) => r[0]?.status === 'recorded')

    const byJob = await tool(client, 'comms.list', { job_id: job.id })
    expect(byJob.messages.map((m: any) => m.id)).toEqual([email.id])
    const emails = await tool(client, 'comms.list', { channel: 'email', message_type: 'manual' })
    expect(emails.messages.map((m: any) => m.id)).toEqual([email.id])
    const byLead = await tool(client, 'comms.list', { lead_id: lead.id, channel: 'sms' })
    expect(byLead.messages.every((m: any) => m.leadId === lead.id && m.channel === 'sms')).toBe(true)
    expect((await tool(client, 'comms.list', { delivery_status: 'delivered' })).messages).toEqual([])
    expect((await tool(client, 'comms.list', { since: '2099-01-01T00:00:00Z' })).messages).toEqual([])

    const all = (await tool(client, 'comms.list', { limit: 100 })).messages
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await tool(client, 'comms.list', { limit: 2, ...(cursor ? { cursor } : {}) })
      seen.push(...page.messages.map((m: any) => m.id))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toEqual(all.map((m: any) => m.id))
    expect(new Set(seen).size).toBe(all.length)
    expect(all.length).toBeGreaterThanOrEqual(4)
  })

  it('service://communications returns the same history', async () => {
    const resource = await client.readResource({ uri: 'service://communications' })
    const listed = await tool(client, 'comms.list', { limit: 100 })
    expect(JSON.parse((resource.contents[0] as any).text).messages.map((m: any) => m.id)).toEqual(listed.messages.map((m: any) => m.id))
  })

  it("another company's lead or job id is not_found, in the list filter and on a send; its messages are not listed", async () => {
    expect(await toolError(other, 'comms.list', { lead_id: lead.id })).toMatchObject({ error: 'not_found' })
    const job = (await tool(client, 'jobs.create', { lead_id: lead.id })).job
    expect(await toolError(other, 'comms.list', { job_id: job.id })).toMatchObject({ error: 'not_found' })
    expect(await toolError(other, 'comms.send_sms', { to: '0412 345 678', message: 'x', lead_id: lead.id })).toMatchObject({ error: 'not_found' })
    expect(await toolError(other, 'comms.send_email', { to: 'a@example.com', subject: 's', body: 'b', job_id: job.id })).toMatchObject({ error: 'not_found' })
    expect((await tool(other, 'comms.list', {})).messages).toEqual([])
  })
})

describe('GET /usage counts what the tools sent this month', () => {
  it('each comms.send_sms and comms.send_email adds one to usage.sms / usage.emails', async () => {
    const usage = async () => (await app.call('GET', '/api/v1/usage', { key: company.api_key })).body.usage
    const before = await usage()
    await tool(client, 'comms.send_sms', { to: '0412 345 678', message: 'One' })
    await tool(client, 'comms.send_sms', { to: '0412 345 679', message: 'Two' })
    await tool(client, 'comms.send_email', { to: 'x@example.com', subject: 'Three', body: 'Three' })
    const after = await usage()
    expect(after.sms.used).toBe(before.sms.used + 2)
    expect(after.emails.used).toBe(before.emails.used + 1)
    expect(after.sms.remaining).toBe(after.sms.limit - after.sms.used)
  })
})

describe('the Spam Act layer under every sender', () => {
  it('classifies marketing types in one place', () => {
    expect([...MARKETING_MESSAGE_TYPES].sort()).toEqual(['follow_up', 'marketing', 'referral', 'review_request', 'upsell'])
    for (const t of ['instant_response', 'quote', 'eta', 'invoice', 'reminder', 'payment_link', 'webhook_disabled', 'manual']) expect(isMarketing(t)).toBe(false)
  })

  it('a review_request queued by another domain gets the identification and STOP line, and is not sent after an opt-out', async () => {
    const deps = app.runtime.deps
    const queue = (n: number) => withTenantThenStart(deps, company.company_id, async (tx, start) =>
      start(await reserveMessageDelivery(tx, {
        companyId: company.company_id, subject: `test-review:${n}`, now: deps.clock.now(),
        messages: [{ channel: 'sms', messageType: 'review_request', to: '+61455000111', body: 'How did we go? Leave a review: https://g.page/r/x', idempotencyKey: `test-review:${n}:sms` }],
      })))
    await queue(1)
    const first = await waitFor(() => app.owner`select status, body, error from communications where idempotency_key = 'test-review:1:sms'`, (r) => r[0]?.status === 'recorded')
    expect(first[0]!.body).toBe('How did we go? Leave a review: https://g.page/r/x\n- Harbour Plumbing. Reply STOP to opt out')

    await withTenant(deps.db, company.company_id, (tx) => recordOptOut(tx, { companyId: company.company_id, channel: 'sms', address: '0455 000 111', source: 'sms_keyword', detail: 'STOP', at: new Date() }))
    const usage = async () => (await app.call('GET', '/api/v1/usage', { key: company.api_key })).body.usage.sms.used
    const before = await usage()
    await queue(2)
    const second = await waitFor(() => app.owner`select status, error, handed_to_provider_at, quota_counted from communications where idempotency_key = 'test-review:2:sms'`, (r) => r[0]?.status === 'failed')
    expect(second[0]).toMatchObject({ status: 'failed', handed_to_provider_at: null, quota_counted: false, error: expect.stringMatching(/^not sent: \+61455000111 replied STOP/) })
    // Counted when queued, given back when not sent.
    expect(await usage()).toBe(before)
  })
})
