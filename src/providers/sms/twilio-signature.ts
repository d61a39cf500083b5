// Twilio's request validation: X-Twilio-Signature is base64(HMAC-SHA1(auth token, the full URL
// Twilio requested + every POST parameter's name and value, sorted by name)). Written here with
// node:crypto (the twilio package is only a test oracle); compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto'

/** The signature Twilio sends for a form POST of `params` to `url`. */
export function twilioSignature(authToken: string, url: string, params: URLSearchParams): string {
  const names = [...new Set(params.keys())].sort()
  // A repeated name contributes each of its values, sorted, as Twilio's own libraries do.
  const data = names.reduce((acc, name) => acc + params.getAll(name).sort().map((value) => name + value).join(''), url)
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64')
}

/** True when `signature` is Twilio's for this request. */
export function verifyTwilioSignature(authToken: string, url: string, params: URLSearchParams, signature: string | undefined): boolean {
  if (!signature) return false
  const expected = Buffer.from(twilioSignature(authToken, url, params))
  const given = Buffer.from(signature)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
