// The real SMS and email adapters against local protocol peers: a real SMTP server (smtp-server)
// for nodemailer, and an HTTP server speaking Twilio's Messages API shape for the Twilio adapter.
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SMTPServer } from 'smtp-server'
import { SmtpEmail } from '../src/providers/email/smtp.js'
import { TwilioSms } from '../src/providers/sms/twilio.js'
import { PermanentDeliveryError } from '../src/providers/sms/provider.js'
import { createEmailProvider, createSmsProvider } from '../src/providers/index.js'
import { loadConfig } from '../src/config.js'

describe('SMTP adapter (nodemailer)', () => {
  let smtp: SMTPServer
  let port = 0
  const received: { from: string; to: string[]; raw: string }[] = []
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = ''
        stream.on('data', (c: Buffer) => (raw += c.toString()))
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    port = (smtp.server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())))

  it('delivers the message to the SMTP server with our Message-ID', async () => {
    const email = new SmtpEmail(`smtp://127.0.0.1:${port}?ignoreTLS=true`, 'Sparky Bros <jobs@sparky.example>')
    const result = await email.send({ to: 'jordan@example.com.au', subject: 'Thanks', html: '<p>Hi Jordan</p>', text: 'Hi Jordan', idempotencyKey: 'instant-response:abc:email' })
    expect(result.status).toBe('sent')
    expect(received).toHaveLength(1)
    expect(received[0]!).toMatchObject({ from: 'jobs@sparky.example', to: ['jordan@example.com.au'] })
    expect(received[0]!.raw).toContain('Subject: Thanks')
    expect(received[0]!.raw).toContain('Message-ID: <instant-response.abc.email@sparky.example>')
    expect(result.providerMessageId).toBe('<instant-response.abc.email@sparky.example>')
  })
})

describe('Twilio adapter', () => {
  let server: Server
  let base = ''
  const requests: { path: string; auth: string; idempotency: string; form: URLSearchParams }[] = []
  let reply: { status: number; body: unknown } = { status: 201, body: { sid: 'SM123' } }
  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let body = ''
      for await (const c of req) body += c
      requests.push({ path: req.url!, auth: req.headers.authorization!, idempotency: String(req.headers['i-twilio-idempotency-token']), form: new URLSearchParams(body) })
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const twilio = () => new TwilioSms({ accountSid: 'AC123', authToken: 'secret', from: '+61400000000', baseUrl: base })

  it('posts the message form with basic auth and the idempotency token', async () => {
    reply = { status: 201, body: { sid: 'SM123' } }
    const result = await twilio().send({ to: '+61412345678', body: 'Hi there', idempotencyKey: 'k1' })
    expect(result).toEqual({ providerMessageId: 'SM123', status: 'sent' })
    const req = requests.at(-1)!
    expect(req.path).toBe('/2010-04-01/Accounts/AC123/Messages.json')
    expect(req.auth).toBe(`Basic ${Buffer.from('AC123:secret').toString('base64')}`)
    expect(req.idempotency).toBe('k1')
    expect(Object.fromEntries(req.form)).toEqual({ To: '+61412345678', From: '+61400000000', Body: 'Hi there' })
  })

  it('a 400 (bad number) is permanent; a 500 or 429 may be retried', async () => {
    reply = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } }
    await expect(twilio().send({ to: '+61400', body: 'x', idempotencyKey: 'k2' })).rejects.toBeInstanceOf(PermanentDeliveryError)
    reply = { status: 503, body: { message: 'busy' } }
    const error = await twilio().send({ to: '+61412345678', body: 'x', idempotencyKey: 'k3' }).catch((e) => e)
    expect(error).toBeInstanceOf(Error)
    expect(error).not.toBeInstanceOf(PermanentDeliveryError)
    reply = { status: 429, body: { message: 'slow down' } }
    expect(await twilio().send({ to: '+61412345678', body: 'x', idempotencyKey: 'k4' }).catch((e) => e)).not.toBeInstanceOf(PermanentDeliveryError)
  })
})

describe('provider selection', () => {
  it('defaults to the local outboxes and refuses half-configured real providers', () => {
    expect(createSmsProvider(loadConfig({})).name).toBe('local-outbox')
    expect(createEmailProvider(loadConfig({})).name).toBe('local-outbox')
    expect(() => createSmsProvider(loadConfig({ SMS_PROVIDER: 'twilio' }))).toThrow(/TWILIO_ACCOUNT_SID/)
    expect(() => createEmailProvider(loadConfig({ EMAIL_PROVIDER: 'smtp' }))).toThrow(/SMTP_URL/)
    expect(createSmsProvider(loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+61400000000' })).name).toBe('twilio')
    expect(createEmailProvider(loadConfig({ EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtp://localhost:25' })).name).toBe('smtp')
  })
})
