// API keys and passwords. Keys: 'ask_' + 32 random bytes (base64url); only the SHA-256 hash and a
// short display prefix are stored. Passwords: scrypt with a per-password salt.
import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const KEY_PREFIX = 'ask_'

export function generateApiKey(): { key: string; hash: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url')
  return { key, hash: hashApiKey(key), prefix: key.slice(0, 12) }
}

/** One-shot hash (crypto.hash): this runs on every authenticated call. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex')
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(KEY_PREFIX) && value.length >= 40 && value.length <= 100
}

const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

function scryptAsync(password: string, salt: Buffer, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, length, SCRYPT, (err, derived) => (err ? reject(err) : resolve(derived))),
  )
}

/** Format: scrypt$N$r$p$salt$hash (base64url), so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const derived = await scryptAsync(password, salt, 32)
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), derived.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, , , , salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length)
  return timingSafeEqual(expected, derived)
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url')
}
