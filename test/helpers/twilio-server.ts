// A local HTTP server speaking Twilio's Messages API (POST /2010-04-01/Accounts/{sid}/Messages.json
// with basic auth, answering a Message resource with status queued), and Twilio's side of the
// webhooks: status callbacks to a message's StatusCallback URL and inbound messages, signed with
// the auth token by the twilio package itself (an independent implementation of the scheme).
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import twilio from 'twilio'

export interface TwilioRequest {
  accountSid: string
  authorization: string
  idempotencyToken: string | undefined
  form: Record<string, string>
  sid: string
  /** When it arrived (ms since the epoch). */
  at: number
}

export interface LocalTwilio {
  url: string
  accountSid: string
  authToken: string
  from: string
  messages: TwilioRequest[]
  /** Posts a status callback for the message to its StatusCallback URL, signed unless a signature is given. */
  statusCallback(message: TwilioRequest, status: string, options?: { signature?: string | null; extra?: Record<string, string> }): Promise<Response>
  /** Posts an inbound SMS to the given webhook URL, signed. */
  inbound(webhookUrl: string, from: string, body: string, options?: { signature?: string | null }): Promise<Response>
  close(): Promise<void>
}

export function signTwilio(authToken: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params)
}

async function post(url: string, params: Record<string, string>, signature: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }
  if (signature !== null) headers['x-twilio-signature'] = signature
  return fetch(url, { method: 'POST', headers, body: new URLSearchParams(params) })
}

export async function startLocalTwilio(options: { accountSid?: string; authToken?: string; from?: string } = {}): Promise<LocalTwilio> {
  const accountSid = options.accountSid ?? 'AC00000000000000000000000000000001'
  const authToken = options.authToken ?? 'local-twilio-auth-token'
  const from = options.from ?? '+61480000000'
  const messages: TwilioRequest[] = []
  let counter = 0
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = ''
    for await (const c of req) body += c
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '')
    const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`
    if (!match || req.method !== 'POST') return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20404, message: 'Not found', status: 404 }))
    if (req.headers.authorization !== expectedAuth || match[1] !== accountSid) {
      return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }))
    }
    const form = Object.fromEntries(new URLSearchParams(body))
    const sid = `SM${String(++counter).padStart(32, '0')}`
    messages.push({ accountSid: match[1]!, authorization: req.headers.authorization, idempotencyToken: req.headers['i-twilio-idempotency-token'] as string | undefined, form, sid, at: Date.now() })
    res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({
      sid, account_sid: accountSid, to: form.To, from: form.From, body: form.Body, status: 'queued', direction: 'outbound-api',
      num_segments: '1', date_created: new Date().toUTCString(), uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url, accountSid, authToken, from, messages,
    statusCallback(message, status, opts = {}) {
      const callbackUrl = message.form.StatusCallback
      if (!callbackUrl) throw new Error('the message was sent without a StatusCallback')
      const params = { AccountSid: accountSid, MessageSid: message.sid, SmsSid: message.sid, MessageStatus: status, SmsStatus: status, To: message.form.To!, From: message.form.From!, ApiVersion: '2010-04-01', ...opts.extra }
      return post(callbackUrl, params, opts.signature === undefined ? signTwilio(authToken, callbackUrl, params) : opts.signature)
    },
    inbound(webhookUrl, sender, text, opts = {}) {
      const sid = `SM${String(++counter).padStart(32, '0')}`
      const params = { AccountSid: accountSid, MessageSid: sid, SmsSid: sid, From: sender, To: from, Body: text, NumMedia: '0', ApiVersion: '2010-04-01' }
      return post(webhookUrl, params, opts.signature === undefined ? signTwilio(authToken, webhookUrl, params) : opts.signature)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
