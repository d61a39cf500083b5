// Webhook signing (ARCHITECTURE.md "Webhooks"): Standard Webhooks headers checked with the official
// `standardwebhooks` receiver library, X-Webhook-Signature checked against an HMAC computed here,
// and secret rotation (both secrets verify for the 24-hour overlap). Pure functions: no database.
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { Webhook } from 'standardwebhooks'
import { newWebhookSecret, signDelivery, verifyXWebhookSignature } from '../src/domains/webhooks/signing.js'

const newSecret = newWebhookSecret()
const oldSecret = newWebhookSecret()
const stranger = newWebhookSecret()
// The library checks the timestamp against the real clock (5-minute tolerance), so sign "now".
const now = Math.floor(Date.now() / 1000)
const body = JSON.stringify({ id: 'evt_1', type: 'lead.created', created_at: '2025-01-01T00:00:00Z', company_id: 'c1', data: { name: 'Bob' } })
const sign = (over: Partial<Parameters<typeof signDelivery>[0]> = {}) =>
  signDelivery({ messageId: 'msg_2d5a9b', timestamp: now, body, secrets: [newSecret, oldSecret], ...over })

/** Independent X-Webhook-Signature v1: hex HMAC-SHA256 of "t.body", keyed with the decoded secret. */
const expectedHex = (secret: string, t: number, b: string) =>
  createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(Buffer.from(`${t}.${b}`, 'utf8')).digest('hex')
/** The X-Webhook-Signature header (present in every result; the accessor keeps tsc's index checks happy). */
const xSig = (h: Record<string, string>) => h['X-Webhook-Signature'] ?? ''
const v1s = (header: string) => header.split(',').filter((p) => p.startsWith('v1=')).map((p) => p.slice(3))
/** Standard Webhooks verification as a receiver does it; returns whether it passed. */
const swVerifies = (secret: string, payload: string, headers: Record<string, string>) => {
  try {
    new Webhook(secret).verify(payload, headers)
    return true
  } catch {
    return false
  }
}

describe('webhook secret', () => {
  it('is whsec_ + base64 of 32 random bytes, accepted by the standardwebhooks library', () => {
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(newSecret.slice(6), 'base64')).toHaveLength(32)
    expect(newSecret).not.toBe(oldSecret)
    expect(() => new Webhook(newSecret)).not.toThrow()
  })

  it('rejects malformed secrets and an empty secret list', () => {
    expect(() => sign({ secrets: ['not-a-secret'] })).toThrow()
    expect(() => sign({ secrets: ['whsec_'] })).toThrow()
    expect(() => sign({ secrets: [] })).toThrow()
  })
})

describe('signDelivery', () => {
  it('returns exactly the four headers, with one signature per secret', () => {
    const h = sign()
    expect(Object.keys(h).sort()).toEqual(['X-Webhook-Signature', 'webhook-id', 'webhook-signature', 'webhook-timestamp'])
    expect(h['webhook-id']).toBe('msg_2d5a9b')
    expect(h['webhook-timestamp']).toBe(String(now))
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/)
    expect(xSig(h)).toMatch(new RegExp(`^t=${now},v1=[0-9a-f]{64},v1=[0-9a-f]{64}$`))
  })

  it('verifies with standardwebhooks under the new and the rotated-out secret, not a stranger', () => {
    const h = sign()
    expect(swVerifies(newSecret, body, h)).toBe(true)
    expect(swVerifies(oldSecret, body, h)).toBe(true)
    expect(new Webhook(oldSecret).verify(body, h)).toEqual(JSON.parse(body))
    expect(swVerifies(stranger, body, h)).toBe(false)
    // After the overlap only the new secret is signed with: the old one stops verifying.
    const after = sign({ secrets: [newSecret] })
    expect(after['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(swVerifies(newSecret, body, after)).toBe(true)
    expect(swVerifies(oldSecret, body, after)).toBe(false)
  })

  it('X-Webhook-Signature v1 values equal an independent HMAC of "t.body" with the decoded key, in secret order', () => {
    const h = sign()
    expect(v1s(xSig(h))).toEqual([expectedHex(newSecret, now, body), expectedHex(oldSecret, now, body)])
    // The key is the decoded bytes, not the whsec_ string.
    const wrongKey = createHmac('sha256', newSecret).update(`${now}.${body}`).digest('hex')
    expect(v1s(xSig(h))).not.toContain(wrongKey)
    expect(verifyXWebhookSignature(xSig(h), body, newSecret, now)).toBe(true)
    expect(verifyXWebhookSignature(xSig(h), body, oldSecret, now)).toBe(true)
    expect(verifyXWebhookSignature(xSig(h), body, stranger, now)).toBe(false)
  })

  it('a changed body or timestamp fails both schemes', () => {
    const h = sign()
    const tampered = body.replace('Bob', 'Rob')
    expect(swVerifies(newSecret, tampered, h)).toBe(false)
    expect(verifyXWebhookSignature(xSig(h), tampered, newSecret, now)).toBe(false)

    const shifted = String(now - 1) // still inside the 5-minute tolerance, so only the signature can fail
    expect(swVerifies(newSecret, body, { ...h, 'webhook-timestamp': shifted })).toBe(false)
    const xShifted = xSig(h).replace(`t=${now}`, `t=${shifted}`)
    expect(verifyXWebhookSignature(xShifted, body, newSecret, now)).toBe(false)
    // A changed message id breaks the Standard Webhooks signature too.
    expect(swVerifies(newSecret, body, { ...h, 'webhook-id': 'msg_other' })).toBe(false)
  })

  it('is deterministic: same inputs give the same headers', () => {
    expect(sign()).toEqual(sign())
    expect(sign({ timestamp: now + 1 })).not.toEqual(sign())
  })

  it('signs the UTF-8 bytes of non-ASCII bodies (é, emoji) byte-exactly', () => {
    const text = JSON.stringify({ id: 'evt_2', type: 'quote.accepted', data: { note: 'Café job ✅ 🦘 — déjà vu' } })
    const h = sign({ body: text })
    expect(swVerifies(newSecret, text, h)).toBe(true)
    expect(swVerifies(oldSecret, Buffer.from(text, 'utf8') as unknown as string, h)).toBe(true)
    expect(v1s(xSig(h))[0]).toBe(expectedHex(newSecret, now, text))
    // Signing Latin-1 bytes instead would differ, so the match above is about the UTF-8 encoding.
    const latin1 = createHmac('sha256', Buffer.from(newSecret.slice(6), 'base64')).update(Buffer.from(`${now}.${text}`, 'latin1')).digest('hex')
    expect(latin1).not.toBe(expectedHex(newSecret, now, text))
    expect(verifyXWebhookSignature(xSig(h), text, newSecret, now)).toBe(true)
    expect(verifyXWebhookSignature(xSig(h), text.replace('é', 'e'), newSecret, now)).toBe(false)
  })
})

describe('verifyXWebhookSignature', () => {
  const h = xSig(sign())
  it('enforces the timestamp tolerance', () => {
    expect(verifyXWebhookSignature(h, body, newSecret, now + 300)).toBe(true)
    expect(verifyXWebhookSignature(h, body, newSecret, now + 301)).toBe(false)
    expect(verifyXWebhookSignature(h, body, newSecret, now - 301)).toBe(false)
    expect(verifyXWebhookSignature(h, body, newSecret, now + 1000, 1000)).toBe(true)
  })

  it('rejects malformed headers', () => {
    const sig = expectedHex(newSecret, now, body)
    expect(verifyXWebhookSignature(`v1=${sig}`, body, newSecret, now)).toBe(false) // no t
    expect(verifyXWebhookSignature(`t=${now},t=${now},v1=${sig}`, body, newSecret, now)).toBe(false) // two t
    expect(verifyXWebhookSignature(`t=${now}`, body, newSecret, now)).toBe(false) // no v1
    expect(verifyXWebhookSignature(`t=${now},v1=${sig.slice(0, 63)}`, body, newSecret, now)).toBe(false)
    expect(verifyXWebhookSignature(`t=${now},v0=${sig}`, body, newSecret, now)).toBe(false)
    // Any matching v1 passes, wherever it sits.
    expect(verifyXWebhookSignature(`t=${now},v1=${'0'.repeat(64)},v1=${sig}`, body, newSecret, now)).toBe(true)
  })
})
