// Bearer-key authentication, the per-key request rate limit, authorisation and the monthly quota,
// in that order: a call is counted only once it is known to be allowed.
import { AppError, rateLimited } from './errors.js'
import { FixedWindowCounter } from './fixed-window.js'
import { hashApiKey, looksLikeApiKey } from './credentials.js'
import { secondsUntil } from './period.js'
import { apiCallCounterOf } from './api-calls.js'
import type { Access } from './operation.js'
import { CHEAPEST_PLAN_WITH, permits, type Feature, type Principal } from './access.js'
import type { Deps } from './deps.js'
import { forgetCompanyKeys, keyCacheOf } from './key-cache.js'

const unauthorized = (message: string) =>
  new AppError('unauthorized', message, {}, { 'WWW-Authenticate': 'Bearer realm="api"' })

export interface RateLimitState {
  limit: number
  remaining: number
  resetSeconds: number
}

/** The per-key burst limit: at most perMinute requests in a fixed 60 s window (core/fixed-window.ts). */
export class KeyRateLimiter {
  readonly counter: FixedWindowCounter

  constructor(readonly perMinute: number, now?: () => number) {
    this.counter = new FixedWindowCounter(perMinute, 60_000, now)
  }

  /** Consumes one request for this key; throws rate_limited when the burst allowance is spent. */
  consume(keyHash: string): RateLimitState {
    const hit = this.counter.hit(keyHash)
    if (!hit.allowed) {
      const retry = Math.max(1, Math.ceil(hit.msLeft / 1000))
      const err = rateLimited(retry, `Too many requests for this API key: at most ${this.perMinute} per minute. Retry in ${retry} s.`)
      Object.assign(err.headers, rateLimitHeaders({ limit: this.perMinute, remaining: 0, resetSeconds: retry }))
      throw err
    }
    return { limit: this.perMinute, remaining: hit.remaining, resetSeconds: Math.ceil(hit.msLeft / 1000) }
  }
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), both the split and combined forms. */
export function rateLimitHeaders(s: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(s.limit),
    'RateLimit-Remaining': String(s.remaining),
    'RateLimit-Reset': String(s.resetSeconds),
    'RateLimit-Policy': `${s.limit};w=60`,
  }
}

export function bearerToken(header: string | undefined): string | null {
  if (!header) return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  return match?.[1] ?? null
}

export interface Authenticated {
  principal: Principal
  rateLimit: RateLimitState
}

const invalidKey = () =>
  unauthorized('Invalid API key: no key matches it. Check it was copied whole; an admin key of the company can create a new one with POST /api/v1/keys, or sign up with POST /api/v1/onboard.')

const revokedKey = (revokedAt: Date) =>
  new AppError(
    'unauthorized',
    `This API key was revoked at ${revokedAt.toISOString()}. Use another key of the company; an admin key can create a new one with POST /api/v1/keys.`,
    { revoked_at: revokedAt.toISOString() },
    { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token", error_description="The API key was revoked"' },
  )

// The SHA-256 of each key recently sent, by the key as sent: hashing is the one per-call cost of
// the key lookup that the key cache (key-cache.ts, keyed by hash) cannot save. Only strings shaped
// like our keys get here; at KEPT_HASHES the map starts over, so it stays small whatever is sent.
// It holds keys the process has just read from a request anyway, and answers nothing by itself:
// whether a hash is a live key is still the key cache's (at most a second old) lookup.
const KEPT_HASHES = 1000
const keyHashes = new Map<string, string>()

function keyHash(token: string): string {
  let hash = keyHashes.get(token)
  if (hash === undefined) {
    if (keyHashes.size >= KEPT_HASHES) keyHashes.clear()
    hash = hashApiKey(token)
    keyHashes.set(token, hash)
  }
  return hash
}

// Principals that still have to be counted toward the monthly quota. The count comes after
// authorisation (countApiCall), so a call refused with 401, 403 or 429 is never counted.
const uncounted = new WeakSet<Principal>()

/**
 * Resolves the Bearer key to a principal: the per-key burst limit, then the key lookup (cached for
 * at most a second, see key-cache.ts). Counts nothing; with `count` the principal is marked so
 * countApiCall counts it once authorisation has passed. Throws unauthorized or rate_limited.
 */
export async function authenticate(
  deps: Deps,
  limiter: KeyRateLimiter,
  authorization: string | undefined,
  options: { count: boolean },
): Promise<Authenticated> {
  const token = bearerToken(authorization)
  if (!token) throw unauthorized('Missing API key. Send the header "Authorization: Bearer <API_KEY>"; get a key from POST /api/v1/onboard.')
  if (!looksLikeApiKey(token)) throw invalidKey()
  const hash = keyHash(token)
  const rateLimit = limiter.consume(hash)
  const cache = keyCacheOf(deps)
  const found = cache.cached(hash) ?? (await cache.get(hash))
  if (!found) throw invalidKey()
  if (found.kind === 'revoked') throw revokedKey(found.revokedAt)
  // A copy per call: the cached one is shared, and the count below is this call's own.
  const principal: Principal = { ...found.principal }
  if (options.count) uncounted.add(principal)
  return { rateLimit, principal }
}

/**
 * Counts this call toward the month's API quota, once, if authenticate() marked it. Exact in
 * Postgres against the limit as it stands now, batched with concurrent calls of the same company
 * (api-calls.ts): the counter never passes the limit. Throws rate_limited, naming the way out,
 * when the quota is used up; a refused call is not counted.
 */
export async function countApiCall(deps: Deps, principal: Principal): Promise<void> {
  if (!uncounted.delete(principal)) return
  const outcome = await apiCallCounterOf(deps).count(principal.companyId)
  if (outcome.kind === 'company_gone') {
    // The company was deleted since its key was cached: uncounted calls stop too, from now.
    forgetCompanyKeys(deps, principal.companyId)
    throw invalidKey()
  }
  principal.apiCallsUsed = outcome.used
  principal.apiCallLimit = outcome.limit
  if (outcome.kind === 'refused') {
    const retry = secondsUntil(outcome.period.end, outcome.now)
    throw rateLimited(
      retry,
      `Monthly API call quota used up (${outcome.limit} calls on the ${principal.effectivePlanSlug} plan). ` +
        `It resets at ${outcome.period.end.toISOString()}. Upgrade with POST /api/v1/billing/checkout for more; ` +
        'GET /api/v1/billing, GET /api/v1/usage, POST /api/v1/billing/checkout and POST /api/v1/billing/portal still answer meanwhile.',
    )
  }
}

/** Throws forbidden naming exactly what is missing and how to get it. */
export function authorize(access: Access, principal: Principal, transportFeature?: Feature): void {
  if (access === 'public') return
  if (access.scope && !principal.scopes.includes(access.scope)) {
    throw new AppError('forbidden', `This API key lacks the '${access.scope}' scope. An admin key can create a key with it via POST /api/v1/keys.`, {
      missing: { scope: access.scope },
    })
  }
  if (!permits(principal.permission, access.permission)) {
    throw new AppError('forbidden', `This API key has '${principal.permission}' permission; this call needs '${access.permission}'. An admin key can create one via POST /api/v1/keys.`, {
      missing: { permission: access.permission },
    })
  }
  for (const feature of [transportFeature, access.feature]) {
    if (!feature || principal.features[feature]) continue
    const plan = CHEAPEST_PLAN_WITH[feature]
    const trialNote = principal.subscriptionStatus === 'trial_expired' || (principal.subscriptionStatus === 'trialing' && principal.effectivePlanSlug === 'free')
      ? ` Your ${principal.planSlug} trial has ended; activate it with POST /api/v1/billing/checkout.` : ''
    throw new AppError('forbidden', `The '${feature}' feature needs the ${plan} plan or higher; this company is on ${principal.effectivePlanSlug}.${trialNote} Upgrade with POST /api/v1/billing/checkout {"plan_slug": "${plan}"}.`, {
      missing: { feature, plan },
    })
  }
}

/**
 * The HTTP side of authentication shared by REST and MCP: the Bearer header in, RateLimit headers
 * out, and the company noted for the request log.
 */
export async function authenticateHttp(
  ctx: { get(header: string): string; set(headers: Record<string, string>): void; state: Record<string, unknown> },
  deps: Deps,
  limiter: KeyRateLimiter,
  options: { count: boolean },
): Promise<Principal> {
  const auth = await authenticate(deps, limiter, ctx.get('authorization') || undefined, options)
  ctx.set(rateLimitHeaders(auth.rateLimit))
  ctx.state.companyId = auth.principal.companyId
  return auth.principal
}
