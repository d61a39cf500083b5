// The Xero adapter (issue 24) against a local server speaking Xero's endpoints
// (helpers/xero-server.ts), through the running service over MCP and the OAuth callback: connect
// (link -> authorise -> callback -> connection stored, tokens only as ciphertext), token refresh with
// rotation (two concurrent refreshes: one call to the token endpoint, both get the new token), 429
// with Retry-After waited out, a push whose first answer is lost (500 after storing) retried without
// a duplicate, a contact matched rather than duplicated, webhooks with good and bad signatures.
import { createHmac, randomBytes } from 'node:crypto'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { accountingListings } from '../src/providers/accounting/catalogue.js'
import { connectionAccess } from '../src/domains/integrations/tokens.js'
import { startLocalXero, type LocalXero } from './helpers/xero-server.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool, toolError } from './helpers/tools.js'

const WEBHOOK_KEY = 'xero-webhook-key-for-tests'
let xero: LocalXero
let app: TestApp
let company: Awaited<ReturnType<typeof onboard>>
let client: Client
let connectionId: string

const sign = (body: string, key = WEBHOOK_KEY) => createHmac('sha256', key).update(body).digest('base64')
const webhook = (body: string, signature: string) =>
  fetch(`${app.url}/api/v1/integrations/xero/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-xero-signature': signature }, body })

beforeAll(async () => {
  xero = await startLocalXero()
  app = await startTestApp({
    config: {
      XERO_CLIENT_ID: xero.clientId, XERO_CLIENT_SECRET: xero.clientSecret, XERO_API_BASE_URL: xero.apiBaseUrl, XERO_IDENTITY_URL: xero.url,
      XERO_LOGIN_URL: xero.url, XERO_WEBHOOK_KEY: WEBHOOK_KEY, INTEGRATIONS_TOKEN_KEY: randomBytes(32).toString('base64'), INTEGRATIONS_MAX_RETRY_WAIT_MS: 5000,
    },
  })
  company = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
  client = await connectHttp(app, company.api_key)
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await xero?.close()
})

describe('providers', () => {
  it('without Xero settings, Xero is listed as not available naming what is missing; MYOB and QuickBooks Online never are, with the reason', () => {
    const listings = accountingListings(loadConfig({}))
    expect(listings.map((l) => [l.provider, l.available])).toEqual([['xero', false], ['myob', false], ['quickbooks_online', false]])
    expect(listings[0]!.unavailable_reason).toContain('XERO_CLIENT_ID, XERO_CLIENT_SECRET, INTEGRATIONS_TOKEN_KEY')
    expect(listings[1]!.unavailable_reason).toContain('adapter is not built')
    expect(listings[2]!.unavailable_reason).toContain('adapter is not built')
  })

  it('integrations.available_providers over MCP: Xero available (configured) and not yet connected; connecting MYOB is refused with the reason', async () => {
    const { providers } = await tool(client, 'integrations.available_providers', {})
    expect(providers.find((p: any) => p.provider === 'xero')).toMatchObject({ available: true, connected: false, unavailable_reason: null })
    expect(providers.find((p: any) => p.provider === 'myob')).toMatchObject({ available: false, connected: false })
    const refused = await toolError(client, 'integrations.connect', { provider: 'myob' })
    expect(refused.error).toBe('conflict')
    expect(refused.message).toContain('MYOB adapter is not built')
  })
})

describe('connect', () => {
  it('link -> authorise -> callback: the connection is stored with the tenant, and no token appears in the table in plain text', async () => {
    const link = await tool(client, 'integrations.connect', { provider: 'xero' })
    expect(link.authorise_url).toContain(`${xero.url}/identity/connect/authorize?`)
    expect(new URL(link.authorise_url).searchParams.get('redirect_uri')).toBe(link.redirect_uri)
    const granted = await fetch(link.authorise_url, { redirect: 'manual' })
    expect(granted.status).toBe(302)
    const callback = await fetch(granted.headers.get('location')!)
    expect(callback.status).toBe(200)
    expect(await callback.text()).toContain(`Connected to ${xero.tenantName}`)
    expect(xero.counts['token:authorization_code']).toBe(1)
    expect(xero.counts.connections).toBe(1)

    const { connections } = await tool(client, 'integrations.list_connections', {})
    expect(connections).toHaveLength(1)
    expect(connections[0]).toMatchObject({ provider: 'xero', tenant_id: xero.tenantId, tenant_name: xero.tenantName, status: 'active' })
    connectionId = connections[0].id

    const [stored] = await app.owner<{ row: string }[]>`select row_to_json(c)::text as row from integration_connections c`
    expect(xero.issuedTokens.length).toBe(2)
    for (const token of xero.issuedTokens) expect(stored!.row).not.toContain(token)
    expect(stored!.row).toContain('"token_key_id"')
    const { providers } = await tool(client, 'integrations.available_providers', { category: 'accounting' })
    expect(providers.find((p: any) => p.provider === 'xero').connected).toBe(true)
  })

  it('a callback with a forged state is refused and stores nothing', async () => {
    const res = await fetch(`${app.url}/api/v1/integrations/xero/callback?code=x&state=${encodeURIComponent('e30.forged')}`)
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('not one we issued')
    const [row] = await app.owner<{ n: number }[]>`select count(*)::int as n from integration_connections`
    expect(row!.n).toBe(1)
  })
})

describe('tokens', () => {
  it('two concurrent refreshes of one connection make one call to the token endpoint; both get the new token, and the rotated refresh token replaces the old one', async () => {
    await app.owner`update integration_connections set access_token_expires_at = now() - interval '1 minute' where id = ${connectionId}`
    const before = xero.counts['token:refresh_token'] ?? 0
    xero.tokenDelayMs = 300
    const [a, b] = await Promise.all([
      connectionAccess(app.runtime.deps, company.company_id, connectionId),
      connectionAccess(app.runtime.deps, company.company_id, connectionId),
    ])
    xero.tokenDelayMs = 0
    expect(xero.counts['token:refresh_token']).toBe(before + 1)
    expect(a.auth.accessToken).toBe(b.auth.accessToken)
    expect(a.auth.accessToken).toBe(xero.issuedTokens.at(-2))

    // The server spent the old refresh token: a second refresh works only because the new one was stored.
    await app.owner`update integration_connections set access_token_expires_at = now() - interval '1 minute' where id = ${connectionId}`
    const again = await connectionAccess(app.runtime.deps, company.company_id, connectionId)
    expect(xero.counts['token:refresh_token']).toBe(before + 2)
    expect(again.auth.accessToken).toBe(xero.issuedTokens.at(-2))
    const status = await tool(client, 'integrations.connection_status', { connection_id: connectionId })
    expect(status.connection).toMatchObject({ status: 'active', last_error: null })
  })
})

describe('push', () => {
  it('a 429 with Retry-After is waited out, not reported as a failure; the limits left are shown', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Rita Retry', email: 'rita@example.com.au' })
    xero.failNext('Contacts', { status: 429, headers: { 'retry-after': '1', 'x-rate-limit-problem': 'minute' } })
    const started = Date.now()
    const pushed = await tool(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'lead', entity_id: lead.id })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    expect(pushed).toMatchObject({ outcome: 'created', entity_type: 'lead' })
    expect(xero.contacts.filter((c) => c.EmailAddress === 'rita@example.com.au')).toHaveLength(1)
    expect(pushed.rate_limits.minute_remaining).toEqual(expect.any(Number))
    expect(pushed.rate_limits.day_remaining).toEqual(expect.any(Number))
    const status = await tool(client, 'integrations.connection_status', { connection_id: connectionId })
    expect(status.connection.rate_limits.day_remaining).toBe(pushed.rate_limits.day_remaining)
    expect(status.entities).toEqual([expect.objectContaining({ entity_type: 'contact', direction: 'push', last_result: 'ok' })])
  })

  it('an invoice push whose first answer is lost (500 after Xero stored it) is retried with the same Idempotency-Key: Xero holds one invoice; pushing again changes nothing', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Ivan Invoice', email: 'ivan@example.com.au' })
    const { job } = await tool(client, 'jobs.create', { lead_id: lead.id, title: 'Switchboard upgrade', amount: 1100 })
    await tool(client, 'jobs.complete', { job_id: job.id })
    const { invoice } = await tool(client, 'invoicing.generate', { job_id: job.id })
    xero.failNext('Invoices', { status: 500, afterStoring: true })
    const pushed = await tool(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'invoice', entity_id: invoice.id })
    expect(pushed).toMatchObject({ outcome: 'created', provider_number: invoice.invoice_number ?? invoice.invoiceNumber, contact: { outcome: 'created' } })
    const sent = xero.invoices.filter((i) => i.InvoiceNumber === pushed.provider_number)
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ InvoiceID: pushed.provider_id, Type: 'ACCREC', Contact: { ContactID: pushed.contact.provider_id } })
    const keys = xero.idempotencyKeys.filter((k) => k.includes(invoice.id))
    expect(keys).toHaveLength(2) // the lost answer and its retry, with one key
    expect(new Set(keys).size).toBe(1)

    const again = await tool(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'invoice', entity_id: invoice.id })
    expect(again).toMatchObject({ outcome: 'already_linked', provider_id: pushed.provider_id, contact: { outcome: 'already_linked' } })
    expect(xero.invoices.filter((i) => i.InvoiceNumber === pushed.provider_number)).toHaveLength(1)
  })

  it('a contact already in Xero is matched (by email, whatever its name) rather than duplicated', async () => {
    xero.contacts.push({ ContactID: 'existing-contact-1', Name: 'MEGAN MATCH PLUMBING', EmailAddress: 'Megan@Example.com.au' })
    const puts = xero.counts['PUT /Contacts'] ?? 0
    const { lead } = await tool(client, 'leads.create', { name: 'Megan Match', email: 'megan@example.com.au' })
    const pushed = await tool(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'lead', entity_id: lead.id })
    expect(pushed).toMatchObject({ outcome: 'matched', matched_by: 'email', provider_id: 'existing-contact-1' })
    expect(xero.counts['PUT /Contacts'] ?? 0).toBe(puts)
    expect(xero.contacts.filter((c) => String(c.EmailAddress).toLowerCase() === 'megan@example.com.au')).toHaveLength(1)
  })

  it('a job is refused with what to push instead; another company cannot push through this connection', async () => {
    const refused = await toolError(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'job', entity_id: connectionId })
    expect(refused.error).toBe('validation_error')
    const other = await onboard(app, { plan: 'business', stripe_payment_method_id: 'pm_card_visa' })
    const otherClient = await connectHttp(app, other.api_key)
    const hidden = await toolError(otherClient, 'integrations.connection_status', { connection_id: connectionId })
    expect(hidden.error).toBe('not_found')
    expect((await tool(otherClient, 'integrations.list_connections', {})).connections).toEqual([])
    await otherClient.close()
  })
})

describe('limits and refusals', () => {
  it('a Retry-After longer than the wait allowed is answered rate_limited with retry_after (never a 5xx), and recorded on the connection', async () => {
    const { lead } = await tool(client, 'leads.create', { name: 'Larry Later', email: 'larry@example.com.au' })
    xero.failNext('Contacts', { status: 429, headers: { 'retry-after': '120', 'x-rate-limit-problem': 'day' } })
    const refused = await toolError(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'lead', entity_id: lead.id })
    expect(refused).toMatchObject({ error: 'rate_limited', retry_after: 120 })
    expect(refused.message).toContain('Nothing was duplicated')
    const status = await tool(client, 'integrations.connection_status', { connection_id: connectionId })
    expect(status.entities.find((e: any) => e.entity_type === 'contact')).toMatchObject({ last_result: 'error' })
    expect(status.connection.status).toBe('active')
    // Once the limit resets, the same push goes through.
    expect((await tool(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'lead', entity_id: lead.id })).outcome).toBe('created')
  })
})

describe('webhooks', () => {
  it('the intent-to-receive check (no events) with a good signature gets 200; a bad signature gets 401', async () => {
    const intent = JSON.stringify({ events: [], firstEventSequence: 0, lastEventSequence: 0, entropy: 'ABCDEFGHIJ' })
    const good = await webhook(intent, sign(intent))
    expect(good.status).toBe(200)
    expect(await good.text()).toBe('')
    const bad = await webhook(intent, sign(intent, 'some-other-key'))
    expect(bad.status).toBe(401)
    expect(await bad.text()).toBe('')
  })

  it('a signed event for the connected tenant is recorded once (a redelivery adds nothing)', async () => {
    const event = { resourceUrl: 'x', resourceId: 'contact-123', eventDateUtc: '2026-11-26T01:02:03.000Z', eventType: 'UPDATE', eventCategory: 'CONTACT', tenantId: xero.tenantId, tenantType: 'ORGANISATION' }
    const body = JSON.stringify({ events: [event], firstEventSequence: 1, lastEventSequence: 1, entropy: 'KLMNOPQRST' })
    const started = Date.now()
    expect((await webhook(body, sign(body))).status).toBe(200)
    expect(Date.now() - started).toBeLessThan(5000)
    expect((await webhook(body, sign(body))).status).toBe(200)
    const tampered = body.replace('contact-123', 'contact-999')
    expect((await webhook(tampered, sign(body))).status).toBe(401)
    // Recorded once; the sync round it asked for (test/integration-sync.test.ts) then marks it processed.
    expect(await app.owner`select id from integration_webhook_events where resource_id = 'contact-123'`).toHaveLength(1)
  })
})

describe('a revoked grant', () => {
  it('a refresh refused (invalid_grant) puts the connection in error saying to connect again; connecting again makes it active with new tokens', async () => {
    xero.revokeRefreshTokens()
    await app.owner`update integration_connections set access_token_expires_at = now() - interval '1 minute' where id = ${connectionId}`
    const { lead } = await tool(client, 'leads.create', { name: 'Rex Revoked', email: 'rex@example.com.au' })
    const refused = await toolError(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'lead', entity_id: lead.id })
    expect(refused.error).toBe('conflict')
    expect(refused.message).toContain('connect again with integrations.connect')
    const status = await tool(client, 'integrations.connection_status', { connection_id: connectionId })
    expect(status.connection).toMatchObject({ status: 'error', last_error: expect.stringContaining('invalid_grant') })
    expect(status.next_steps[0].tool).toBe('integrations.connect')

    const link = await tool(client, 'integrations.connect', { provider: 'xero' })
    const granted = await fetch(link.authorise_url, { redirect: 'manual' })
    expect((await fetch(granted.headers.get('location')!)).status).toBe(200)
    const { connections } = await tool(client, 'integrations.list_connections', {})
    expect(connections).toEqual([expect.objectContaining({ id: connectionId, status: 'active', last_error: null })])
    expect((await tool(client, 'integrations.push_entity', { connection_id: connectionId, entity_type: 'lead', entity_id: lead.id })).outcome).toBe('created')
  })
})
