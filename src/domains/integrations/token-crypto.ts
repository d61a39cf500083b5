// Integration tokens at rest: AES-256-GCM under INTEGRATIONS_TOKEN_KEY, each ciphertext stored with
// the id of the key that sealed it (the key's SHA-256, first 16 hex digits: nothing secret), so
// after a rotation rows sealed under an older key (INTEGRATIONS_TOKEN_PREVIOUS_KEYS) still open, and
// are sealed again under the new key at their next refresh. The OAuth state is signed with a key
// derived from the same secret, so the callback knows which company asked to connect.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Config } from '../../config.js'
import { AppError } from '../../core/errors.js'

interface TokenKey { id: string; key: Buffer }

function readKey(base64: string, setting: string): TokenKey {
  const key = Buffer.from(base64.trim(), 'base64')
  if (key.length !== 32) throw new Error(`${setting} must be 32 bytes, base64 encoded (openssl rand -base64 32); it decodes to ${key.length} bytes.`)
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key }
}

export interface TokenKeys {
  current: TokenKey
  byId: Map<string, TokenKey>
}

/** null when INTEGRATIONS_TOKEN_KEY is unset (no provider can then be connected). Throws on a malformed key. */
export function tokenKeys(config: Config): TokenKeys | null {
  if (!config.INTEGRATIONS_TOKEN_KEY) return null
  const current = readKey(config.INTEGRATIONS_TOKEN_KEY, 'INTEGRATIONS_TOKEN_KEY')
  const previous = (config.INTEGRATIONS_TOKEN_PREVIOUS_KEYS ?? '').split(',').filter((k) => k.trim() !== '')
    .map((k) => readKey(k, 'INTEGRATIONS_TOKEN_PREVIOUS_KEYS'))
  return { current, byId: new Map([current, ...previous].map((k) => [k.id, k])) }
}

export interface Sealed { sealed: string; keyId: string }

/** iv.tag.ciphertext, base64url each; the key id is stored beside it. */
export function seal(keys: TokenKeys, plaintext: string): Sealed {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return { sealed: [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url')).join('.'), keyId: keys.current.id }
}

export function open(keys: TokenKeys, sealed: string, keyId: string): string {
  const key = keys.byId.get(keyId)
  if (!key) {
    throw new AppError('conflict', `The stored tokens were sealed with key ${keyId}, which this deployment no longer has: add it to INTEGRATIONS_TOKEN_PREVIOUS_KEYS, or connect again.`)
  }
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'))
  const decipher = createDecipheriv('aes-256-gcm', key.key, iv!)
  decipher.setAuthTag(tag!)
  return Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString('utf8')
}

const stateKey = (keys: TokenKeys) => Buffer.from(hkdfSync('sha256', keys.current.key, Buffer.alloc(0), 'integrations oauth state', 32))

export interface OAuthState { companyId: string; provider: string; keyId: string; expiresAt: number }

/** A state the callback can trust: the company and provider, signed, valid for 30 minutes. */
export function signState(keys: TokenKeys, state: Omit<OAuthState, 'expiresAt'>, now: Date): string {
  const body = Buffer.from(JSON.stringify({ ...state, expiresAt: now.getTime() + 30 * 60_000, nonce: randomBytes(8).toString('hex') })).toString('base64url')
  return `${body}.${createHmac('sha256', stateKey(keys)).update(body).digest('base64url')}`
}

/** The state's content, or null when it was not signed here, was altered, or has expired. */
export function verifyState(keys: TokenKeys, state: string, now: Date): OAuthState | null {
  const [body, signature] = state.split('.')
  if (!body || !signature) return null
  const expected = createHmac('sha256', stateKey(keys)).update(body).digest()
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as OAuthState
    return parsed.expiresAt > now.getTime() ? parsed : null
  } catch {
    return null
  }
}
