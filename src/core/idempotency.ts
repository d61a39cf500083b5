// Retry-safe writes. Agents retry on timeouts; a write that carries an idempotency key runs once per
// company and key, and its first response is replayed for 24 hours. The same key with another
// operation or input is refused (409 idempotency_conflict), never silently replayed.
import { createHash } from 'node:crypto'
import type { Deps } from './deps.js'
import { AppError, validationError } from './errors.js'
import { retryThroughOutage } from './outage-retry.js'
import { withTenant } from '../db/sql.js'

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** How often a request holding a claim says it is still running (keepClaimAlive). */
const CLAIM_BEAT_MS = 5_000
/**
 * A claim without a beat for this long is taken over: its process died mid-run (the write may have to
 * run again). Four missed beats, so a slow database round trip or a busy event loop is not mistaken
 * for a dead process.
 */
export const ABANDONED_AFTER_MS = 4 * CLAIM_BEAT_MS
/** How long a retry waits for the same key's first request to finish before answering "in progress". */
const WAIT_FOR_FIRST_MS = 10_000
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/

export interface StoredResponse {
  status: number
  output: unknown
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse }

/**
 * Checks a key's form; `field` names where it came from (Idempotency-Key header, idempotency_key
 * argument). Only a key not sent at all (undefined) means "no key": an empty or null key is a
 * client bug (a variable that was never filled), and running the write unprotected would hide it.
 */
export function checkIdempotencyKey(key: unknown, field: string): string | null {
  if (key === undefined) return null
  if (typeof key !== 'string' || !KEY_FORMAT.test(key)) {
    const given = key === '' ? 'is empty' : key === null ? 'is null' : 'is not a valid key'
    throw validationError([`${field}: ${given}; send 1 to 255 printable ASCII characters without spaces (a new UUID per request is a good choice), or leave it out`])
  }
  return key
}

/** Canonical JSON (sorted keys), so the same input always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function requestHash(operation: string, input: unknown): string {
  return createHash('sha256').update(`${operation}\n${canonical(input)}`).digest('hex')
}

interface Row {
  operation: string
  request_hash: string
  state: 'running' | 'done'
  response: StoredResponse | null
  /** A change of the request holding the claim has committed (core/claim-scope.ts). */
  wrote: boolean
  /** No beat for ABANDONED_AFTER_MS: the request holding the claim is gone. */
  abandoned: boolean
}

const conflict = (message: string) => new AppError('idempotency_conflict', message)

/** Claims the key for this request, or returns the stored response to replay. */
export async function claimIdempotencyKey(deps: Deps, companyId: string, key: string, operation: string, hash: string): Promise<Claim> {
  const deadline = Date.now() + WAIT_FOR_FIRST_MS
  for (;;) {
    const outcome = await attemptClaim(deps, companyId, key, operation, hash)
    if (outcome.kind === 'claimed') return outcome
    const row = outcome.row
    if (!row) continue // released by a failed first request between the two statements: claim again
    if (row.operation !== operation || row.request_hash !== hash) {
      throw conflict(`This Idempotency-Key was already used for a different request (${row.operation}) within the last 24 hours. Use a new key for a new request; reuse a key only to retry exactly the same request.`)
    }
    if (row.state === 'done') return { kind: 'replay', response: row.response! }
    if (row.wrote && row.abandoned) {
      throw conflict('The first request with this Idempotency-Key made its change, but stopped before its response could be kept, so there is none to replay. It is not run again, which would repeat the change: read the current state instead (for example the list it adds to), and send a new key only if the change is wanted a second time.')
    }
    if (Date.now() > deadline) {
      throw conflict('The first request with this Idempotency-Key is still being processed. Retry the same request in a few seconds to get its response.')
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * One attempt at the claim: a new key, an expired one, or a running claim of the same request whose
 * beats stopped ABANDONED_AFTER_MS ago and that committed no change is claimed; otherwise the row
 * that holds the key.
 */
export async function attemptClaim(deps: Deps, companyId: string, key: string, operation: string, hash: string) {
  const now = deps.clock.now()
  const silentSince = new Date(now.getTime() - ABANDONED_AFTER_MS)
  return withTenant(deps.db, companyId, async (tx) => {
    const claimed = await tx`
      insert into idempotency_keys (company_id, key, operation, request_hash, state, created_at, alive_at, expires_at)
      values (${companyId}, ${key}, ${operation}, ${hash}, 'running', ${now}, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS)})
      on conflict (company_id, key) do update
        set operation = excluded.operation, request_hash = excluded.request_hash, state = 'running', response = null,
            created_at = excluded.created_at, alive_at = excluded.alive_at, expires_at = excluded.expires_at
        where idempotency_keys.expires_at <= ${now}
           or (idempotency_keys.state = 'running' and idempotency_keys.request_hash = excluded.request_hash
               and idempotency_keys.wrote_at is null
               and coalesce(idempotency_keys.alive_at, idempotency_keys.created_at) < ${silentSince})
      returning key`
    if (claimed.length) return { kind: 'claimed' as const }
    const [row] = await tx<Row[]>`
      select operation, request_hash, state, response, wrote_at is not null as wrote,
             coalesce(alive_at, created_at) < ${silentSince} as abandoned
      from idempotency_keys where key = ${key}`
    return { kind: 'existing' as const, row }
  })
}

/**
 * Beats for a claim while its request runs, every `everyMs`, until the returned stop() is called: a
 * write that runs long is never taken over by a retry, and a process that died stops beating. A beat
 * that fails (the database unreachable) is logged and the next one tries again; beats do not overlap.
 */
export function keepClaimAlive(deps: Deps, companyId: string, key: string, everyMs = CLAIM_BEAT_MS): () => void {
  let beating = false
  const beat = async () => {
    if (beating) return
    beating = true
    try {
      await withTenant(deps.db, companyId, (tx) =>
        tx`update idempotency_keys set alive_at = ${deps.clock.now()} where key = ${key} and state = 'running'`)
    } catch (err) {
      deps.logger.warn({ err, companyId }, 'idempotency claim beat failed; the next one tries again')
    } finally {
      beating = false
    }
  }
  const timer = setInterval(() => void beat(), everyMs)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * Keeps the response to replay, tried again through a short database outage (retryThroughOutage):
 * the write has committed, and without its response a retry can only be told the answer was lost.
 */
export async function completeIdempotencyKey(deps: Deps, companyId: string, key: string, response: StoredResponse): Promise<void> {
  await retryThroughOutage(() => withTenant(deps.db, companyId, (tx) =>
    tx`update idempotency_keys set state = 'done', response = ${tx.json(response as never)} where key = ${key}`))
}

/** The request failed: forget the claim so a retry runs it again (nothing was stored to replay). */
export async function releaseIdempotencyKey(deps: Deps, companyId: string, key: string): Promise<void> {
  await withTenant(deps.db, companyId, (tx) => tx`delete from idempotency_keys where key = ${key} and state = 'running'`)
}
