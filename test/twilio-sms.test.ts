// comms.send_sms end to end through the Twilio adapter (SMS_PROVIDER=twilio) against a local server
// speaking Twilio's Messages API: the request Twilio gets, its signed status callbacks moving the
// message to delivered (never backwards), forged callbacks refused, and an inbound STOP that blocks
// later marketing SMS to that number while an on-my-way notice still goes. Signatures in the test
// come from the twilio package (an independent implementation of Twilio's scheme).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import twilio from 'twilio'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { onboard, startTestApp, type TestApp } from './helpers/app.js'
import { connectHttp } from './helpers/mcp.js'
import { tool } from './helpers/tools.js'
import { waitFor } from './helpers/wait.js'
import { startLocalTwilio, type LocalTwilio, type TwilioRequest } from './helpers/twilio-server.js'
import { twilioSignature, verifyTwilioSignature } from '../src/providers/sms/twilio-signature.js'

let app: TestApp
let gateway: LocalTwilio
let client: Client
let company: Awaited<ReturnType<typeof onboard>>
/** The service's public base as Twilio is told it (PUBLIC_URL unset: http://localhost:<port>). */
let publicBase = ''

beforeAll(async () => {
  gateway = await startLocalTwilio()
  app = await startTestApp({
    config: { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: gateway.accountSid, TWILIO_AUTH_TOKEN: gateway.authToken, TWILIO_FROM: gateway.from, TWILIO_BASE_URL: gateway.url },
  })
  company = await onboard(app, { plan: 'business', business_name: 'Sparky Bros Electrical', abn: '51824753556' })
  client = await connectHttp(app, company.api_key)
  publicBase = app.url.replace('127.0.0.1', 'localhost')
})
afterAll(async () => {
  await client?.close()
  await app?.stop()
  await gateway?.close()
})

const messageAtGateway = (body: RegExp | string) =>
  waitFor(async () => gateway.messages.find((m) => (typeof body === 'string' ? m.form.Body === body : body.test(m.form.Body ?? ''))), Boolean, 20_000)

async function listed(id: string) {
  const page = await tool(client, 'comms.list', { channel: 'sms', limit: 100 })
  return page.messages.find((m: any) => m.id === id)
}

describe('Twilio request validation (our HMAC-SHA1 against the twilio package)', () => {
  it('computes the same signature as twilio.getExpectedTwilioSignature for any URL and form', () => {
    fc.assert(fc.property(
      fc.webUrl({ withQueryParameters: true }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !k.includes('\u0000')), fc.string({ maxLength: 40 }), { maxKeys: 8 }),
      fc.string({ minLength: 1, maxLength: 40 }),
      (url, params, token) => {
        const ours = twilioSignature(token, url, new URLSearchParams(params))
        expect(ours).toBe(twilio.getExpectedTwilioSignature(token, url, params))
        expect(twilio.validateRequest(token, ours, url, params)).toBe(true)
        expect(verifyTwilioSignature(token, url, new URLSearchParams(params), ours)).toBe(true)
        expect(verifyTwilioSignature(`${token}x`, url, new URLSearchParams(params), ours)).toBe(false)
      },
    ), { numRuns: 200 })
  })
})

describe('comms.send_sms through Twilio', () => {
  let message: any
  let atGateway: TwilioRequest

  it('queues the message and Twilio receives To, From, Body and a StatusCallback for it', async () => {
    const sent = await tool(client, 'comms.send_sms', { to: '0412 345 678', message: 'Your switchboard job is booked for Tuesday 8am.' })
    message = sent.message
    expect(message).toMatchObject({ channel: 'sms', direction: 'outbound', to: '+61412345678', status: 'queued', provider: 'twilio', messageType: 'manual', marketing: false })
    expect(sent.delivery.workflow_id).toBe(`deliver:${company.company_id}:comms:${message.id}`)
    atGateway = (await messageAtGateway('Your switchboard job is booked for Tuesday 8am.'))!
    expect(atGateway.form).toEqual({
      To: '+61412345678', From: gateway.from, Body: 'Your switchboard job is booked for Tuesday 8am.',
      StatusCallback: `${publicBase}/api/v1/comms/webhooks/twilio/status/${message.id}`,
    })
    expect(atGateway.idempotencyToken).toBe(`comms:${message.id}`)
    // Handed over; Twilio said queued, so it stays queued until Twilio reports more.
    const after = await waitFor(() => listed(message.id), (m) => m?.sentAt !== null)
    expect(after).toMatchObject({ status: 'queued', sentAt: expect.any(String) })
  })

  it('signed status callbacks move it to sent, then delivered, visible in comms.list', async () => {
    const sentReply = await gateway.statusCallback(atGateway, 'sent')
    expect(sentReply.status).toBe(200)
    expect(await listed(message.id)).toMatchObject({ status: 'sent', providerStatus: 'sent' })
    expect((await gateway.statusCallback(atGateway, 'delivered')).status).toBe(200)
    expect(await listed(message.id)).toMatchObject({ status: 'delivered', providerStatus: 'delivered', error: null })
    const byStatus = await tool(client, 'comms.list', { delivery_status: 'delivered' })
    expect(byStatus.messages.map((m: any) => m.id)).toEqual([message.id])
  })

  it('a late "sent" after "delivered" does not move it back', async () => {
    const late = await gateway.statusCallback(atGateway, 'sent')
    expect(late.status).toBe(200)
    expect(await late.json()).toMatchObject({ outcome: 'unchanged' })
    expect(await listed(message.id)).toMatchObject({ status: 'delivered' })
  })

  it('a callback with a wrong, missing or other-URL signature is refused with 403 and changes nothing', async () => {
    const before = await app.owner`select status, status_updated_at, provider_status from communications where id = ${message.id}`
    expect((await gateway.statusCallback(atGateway, 'failed', { signature: 'bm90IGEgc2lnbmF0dXJl' })).status).toBe(403)
    expect((await gateway.statusCallback(atGateway, 'undelivered', { signature: null })).status).toBe(403)
    // Signed correctly, but for another message's URL: the id in the URL is covered by the signature.
    const params = { MessageSid: atGateway.sid, MessageStatus: 'failed' }
    const otherUrl = `${publicBase}/api/v1/comms/webhooks/twilio/status/00000000-0000-4000-8000-000000000000`
    const forged = await fetch(atGateway.form.StatusCallback!, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(gateway.authToken, otherUrl, params) },
      body: new URLSearchParams(params),
    })
    expect(forged.status).toBe(403)
    expect(await forged.json()).toMatchObject({ error: 'forbidden' })
    // Signed with another auth token.
    const wrongToken = twilio.getExpectedTwilioSignature('not-our-token', atGateway.form.StatusCallback!, params)
    expect((await gateway.statusCallback(atGateway, 'failed', { signature: wrongToken })).status).toBe(403)
    expect(await app.owner`select status, status_updated_at, provider_status from communications where id = ${message.id}`).toEqual(before)
  })

  it('an undelivered report records the carrier error', async () => {
    const { message: second } = await tool(client, 'comms.send_sms', { to: '+61 413 000 111', message: 'Second message' })
    const req = (await messageAtGateway('Second message'))!
    expect((await gateway.statusCallback(req, 'undelivered', { extra: { ErrorCode: '30003' } })).status).toBe(200)
    expect(await listed(second.id)).toMatchObject({ status: 'undelivered', error: expect.stringContaining('30003') })
    // A terminal status stays: a late delivered does not overwrite it.
    await gateway.statusCallback(req, 'sent')
    expect(await listed(second.id)).toMatchObject({ status: 'undelivered' })
  })

  it('an idempotency key on the call sends once', async () => {
    const args = { to: '0414 555 666', message: 'Sent once only', idempotency_key: 'b3f0c1c2-0d7e-4d1e-9a53-3f1a2b4c5d6e' }
    const first = await tool(client, 'comms.send_sms', args)
    const again = await tool(client, 'comms.send_sms', args)
    expect(again.message.id).toBe(first.message.id)
    await messageAtGateway('Sent once only')
    await new Promise((r) => setTimeout(r, 1500))
    expect(gateway.messages.filter((m) => m.form.Body === 'Sent once only')).toHaveLength(1)
    const rows = await app.owner`select count(*)::int as n from communications where body = 'Sent once only'`
    expect(rows[0]!.n).toBe(1)
  })
})

describe('STOP replies (Spam Act)', () => {
  const number = '+61400111222'
  let lead: any
  let inboundUrl = ''

  beforeAll(async () => {
    inboundUrl = `${publicBase}/api/v1/comms/webhooks/twilio/inbound`
    lead = (await tool(client, 'leads.create', { name: 'Robin Stone', phone: '0400 111 222' })).lead
    // The instant reply reaches the number through Twilio, so a reply from it is this company's.
    await messageAtGateway(/Robin/)
  })

  it('a marketing SMS names the business and its ABN and says how to opt out', async () => {
    const { message } = await tool(client, 'comms.send_sms', { to: number, message: '10% off gutter guards this month', message_type: 'marketing', lead_id: lead.id })
    expect(message).toMatchObject({ marketing: true, status: 'queued', leadId: lead.id })
    const req = (await messageAtGateway(/^10% off gutter guards/))!
    expect(req.form.Body).toBe('10% off gutter guards this month\n- Sparky Bros Electrical (ABN 51 824 753 556). Reply STOP to opt out')
  })

  it('an unsigned STOP is refused and records nothing', async () => {
    const res = await gateway.inbound(inboundUrl, number, 'STOP', { signature: null })
    expect(res.status).toBe(403)
    expect(await app.owner`select * from message_opt_outs`).toEqual([])
  })

  it('a signed STOP blocks a later marketing SMS to that number, but not an on-my-way notice', async () => {
    const res = await gateway.inbound(inboundUrl, number, ' Stop ')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/xml/)
    expect(await res.text()).toContain('<Response>')

    const optOuts = await app.call('GET', '/api/v1/comms/opt-outs', { key: company.api_key })
    expect(optOuts.status).toBe(200)
    expect(optOuts.body.optOuts).toEqual([expect.objectContaining({ channel: 'sms', address: number, source: 'sms_keyword', detail: 'STOP', inForce: true })])

    const before = gateway.messages.length
    const blocked = await tool(client, 'comms.send_sms', { to: '0400 111 222', message: 'Winter special: 20% off', message_type: 'marketing' })
    expect(blocked.message).toMatchObject({ status: 'failed', error: expect.stringMatching(/not sent: .*opted out of marketing messages from Sparky Bros Electrical/) })
    expect(blocked.delivery.workflow_id).toBeNull()

    const job = (await tool(client, 'jobs.create', { lead_id: lead.id, scheduled_date: '2026-12-01T08:00:00+11:00', technician: 'Sam' })).job
    await tool(client, 'jobs.send_eta', { job_id: job.id, eta_minutes: 20 })
    const eta = await messageAtGateway(/is on the way/)
    expect(eta?.form.To).toBe(number)
    expect(gateway.messages.slice(before).map((m) => m.form.Body)).not.toContain(expect.stringMatching(/Winter special/))
    expect(gateway.messages.some((m) => /Winter special/.test(m.form.Body ?? ''))).toBe(false)

    // The reply itself is in the history, against the lead.
    const replies = await tool(client, 'comms.list', { delivery_status: 'received' })
    expect(replies.messages[0]).toMatchObject({ direction: 'inbound', from: number, body: ' Stop ', leadId: lead.id, messageType: 'reply' })
  })

  it('START opts the number back in; a Twilio retry of the same inbound message counts once', async () => {
    expect((await gateway.inbound(inboundUrl, number, 'START')).status).toBe(200)
    const { message } = await tool(client, 'comms.send_sms', { to: number, message: 'Back in: spring tune-up offer', message_type: 'marketing' })
    expect(message.status).toBe('queued')
    await messageAtGateway(/^Back in: spring tune-up offer/)
    const all = await app.call('GET', '/api/v1/comms/opt-outs?include_opted_back_in=true', { key: company.api_key })
    expect(all.body.optOuts).toEqual([expect.objectContaining({ address: number, inForce: false, optedBackInAt: expect.any(String) })])
  })

  it('a STOP from a number no company has texted changes nothing', async () => {
    expect((await gateway.inbound(inboundUrl, '+61499999999', 'STOP')).status).toBe(200)
    expect(await app.owner`select address from message_opt_outs where address = '+61499999999'`).toEqual([])
  })
})
