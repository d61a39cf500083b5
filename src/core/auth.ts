// Bearer-key authentication, the per-key request rate limit, the monthly quota and authorisation.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { AppError, rateLimited } from './errors.js'
import { hashApiKey, looksLikeApiKey } from './credentials.js'
import { usagePeriod, secondsUntil } from './period.js'
import type { Access } from './operation.js'
import { CHEAPEST_PLAN_WITH, permits, type Feature, type FeatureFlags, type PlanSlug, type Principal, type Scope, type Permission } from './access.js'
import type { Deps } from './deps.js'

const unauthorized = (message: string) =>
  new AppError('unauthorized', message, {}, { 'WWW-Authenticate': 'Bearer realm="api"' })

export interface RateLimitState {
  limit: number
  remaining: number
  resetSeconds: number
}

export class KeyRateLimiter {
  private readonly limiter: RateLimiterMemory
  constructor(readonly perMinute: number) {
    this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 })
  }

  /** Consumes one request for this key; throws rate_limited when the burst allowance is spent. */
  async consume(keyHash: string): Promise<RateLimitState> {
    try {
      const res = await this.limiter.consume(keyHash)
      return { limit: this.perMinute, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) }
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error
      const retry = Math.max(1, Math.ceil(error.msBeforeNext / 1000))
      const err = rateLimited(retry, `Too many requests for this API key: at most ${this.perMinute} per minute. Retry in ${retry} s.`)
      Object.assign(err.headers, rateLimitHeaders({ limit: this.perMinute, remaining: 0, resetSeconds: retry }))
      throw err
    }
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

interface AuthRow {
  key_id: string
  company_id: string
  scopes: Scope[]
  permission: Permission
  plan_slug: PlanSlug
  effective_plan_slug: PlanSlug
  subscription_status: string
  trial_ends_at: Date | null
  features: FeatureFlags
  plan_limits: Principal['planLimits']
  api_call_limit: number
  api_calls_used: number
  allowed: boolean
}

export interface Authenticated {
  principal: Principal
  rateLimit: RateLimitState
}

/**
 * Resolves the Bearer key to a principal and counts the call against the monthly quota, in one
 * database round trip. Throws unauthorized or rate_limited.
 */
export async function authenticate(
  deps: Deps,
  limiter: KeyRateLimiter,
  authorization: string | undefined,
  options: { count: boolean },
): Promise<Authenticated> {
  const token = bearerToken(authorization)
  if (!token) throw unauthorized('Missing API key. Send the header "Authorization: Bearer <API_KEY>"; get a key from POST /api/v1/onboard.')
  if (!looksLikeApiKey(token)) throw unauthorized('Invalid API key.')
  const hash = hashApiKey(token)
  const rateLimit = await limiter.consume(hash)
  const now = deps.clock.now()
  const period = usagePeriod(now)
  const [row] = await deps.db.app<AuthRow[]>`
    select * from authenticate_api_key(${hash}, ${period.key}, ${now}, ${options.count})`
  if (!row) throw unauthorized('Invalid API key.')
  if (!row.allowed) {
    const retry = secondsUntil(period.end, now)
    throw rateLimited(
      retry,
      `Monthly API call quota used up (${row.api_call_limit} calls on the ${row.effective_plan_slug} plan). ` +
        `It resets at ${period.end.toISOString()}; upgrade with POST /api/v1/billing/checkout for more.`,
    )
  }
  return {
    rateLimit,
    principal: {
      companyId: row.company_id,
      keyId: row.key_id,
      scopes: row.scopes,
      permission: row.permission,
      planSlug: row.plan_slug,
      effectivePlanSlug: row.effective_plan_slug,
      subscriptionStatus: row.subscription_status,
      trialEndsAt: row.trial_ends_at,
      features: row.features,
      planLimits: row.plan_limits,
      apiCallLimit: row.api_call_limit,
      apiCallsUsed: row.api_calls_used,
    },
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
