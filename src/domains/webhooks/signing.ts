// Signing of webhook deliveries. Every delivery carries two signature schemes over the same bytes:
//
//  1. Standard Webhooks (https://www.standardwebhooks.com): headers `webhook-id`,
//     `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, so
//     receivers can use the official `standardwebhooks` libraries with the `whsec_...` secret.
//  2. `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` (the Stripe-like scheme the
//     tool description promises).
//
// The HMAC key of BOTH schemes is the same: the bytes obtained by base64-decoding the part of the
// secret after `whsec_` (not the secret string itself). A receiver verifying X-Webhook-Signature by
// hand therefore does: key = base64decode(secret.slice(6)); hex(HMAC-SHA256(key, `${t}.${body}`)).
//
// Rotation: during the 24 hours after a secret is rotated, `secrets` holds the new secret first and
// the rotated-out one second; each header then carries one signature per secret (space-separated
// `v1,...` entries for Standard Webhooks, repeated `v1=` entries for X-Webhook-Signature), so a
// receiver still configured with either secret accepts the delivery.
//
// The body is signed as the UTF-8 bytes of the exact string that is sent; callers must send that
// same string (not re-serialise the object).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

const PREFIX = 'whsec_'
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
/** Header values must be one line of visible ASCII; a space would also split webhook-signature. */
const HEADER_TOKEN = /^[\x21-\x7e]+$/

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64')
}

/** The HMAC key of a `whsec_...` secret: its base64 part, decoded. Throws on a malformed secret. */
function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : ''
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) throw new Error('webhook secret must be whsec_ followed by base64')
  const key = Buffer.from(encoded, 'base64')
  if (key.length === 0) throw new Error('webhook secret must not be empty')
  return key
}

const hmac = (key: Buffer, message: string) => createHmac('sha256', key).update(message, 'utf8').digest()

export interface SignInput {
  /** Delivery id (stable across retries, so receivers can de-duplicate). */
  messageId: string
  /** Unix seconds of this attempt. */
  timestamp: number
  /** The exact JSON string sent as the request body. */
  body: string
  /** The current secret first, then a rotated-out one that is still valid. */
  secrets: string[]
}

/** The signature headers of one delivery attempt (exactly these four). */
export function signDelivery(input: SignInput): Record<string, string> {
  const { messageId, timestamp, body } = input
  if (!HEADER_TOKEN.test(messageId)) throw new Error('webhook message id must be visible ASCII without spaces')
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new Error('webhook timestamp must be whole unix seconds')
  const keys = [...new Set(input.secrets)].map(secretKey)
  if (keys.length === 0) throw new Error('at least one webhook secret is required')

  const standard = keys.map((k) => `v1,${hmac(k, `${messageId}.${timestamp}.${body}`).toString('base64')}`)
  const legacy = keys.map((k) => `v1=${hmac(k, `${timestamp}.${body}`).toString('hex')}`)
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
    'X-Webhook-Signature': [`t=${timestamp}`, ...legacy].join(','),
  }
}

/**
 * Verifies an `X-Webhook-Signature` header (a helper receivers can copy). Passes when exactly one
 * `t=` is present, it is within `toleranceSeconds` of `nowSeconds`, and any `v1=` equals the hex
 * HMAC-SHA256 of `${t}.${body}` keyed with the decoded secret. Throws only on a malformed secret.
 */
export function verifyXWebhookSignature(header: string, body: string, secret: string, nowSeconds: number, toleranceSeconds = 300): boolean {
  const key = secretKey(secret)
  const stamps: string[] = []
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (name === 't') stamps.push(value)
    else if (name === 'v1') signatures.push(value)
  }
  if (stamps.length !== 1 || !/^\d{1,15}$/.test(stamps[0]!)) return false
  const t = Number(stamps[0])
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false

  const expected = Buffer.from(hmac(key, `${stamps[0]}.${body}`).toString('hex'), 'ascii')
  let ok = false
  for (const sig of signatures) {
    const given = Buffer.from(sig, 'ascii')
    // Lengths are public (always 64 hex chars); only equal-length buffers can be compared.
    if (given.length === expected.length && timingSafeEqual(given, expected)) ok = true
  }
  return ok
}
