// What a Bearer key stands for (its company, scopes, permission and effective plan), cached per
// running app for at most a second, so an authenticated call needs no key lookup round trip.
// A second is the bound on staleness across instances: a key revoked or a plan changed elsewhere
// takes effect here within it. Changes made by this instance are forgotten at once (forgetCompany).
// The monthly quota is not cached: every counted call is counted in Postgres (see auth.ts).
import { onePerApp, type Deps } from './deps.js'
import type { FeatureFlags, Permission, PlanSlug, Principal, Scope } from './access.js'

/** How long a lookup may be reused, measured from when it was sent (so its answer is at least this fresh). */
export const KEY_CACHE_TTL_MS = 1000
const SWEEP_ABOVE = 10_000

export type KeyLookup =
  | { kind: 'active'; principal: Readonly<Principal>; lookedUpAt: number; validBefore: number }
  | { kind: 'revoked'; companyId: string; revokedAt: Date }

interface Entry {
  sentAt: number
  pending: Promise<KeyLookup | null>
  /** Set once the lookup answered: read without awaiting, and lets forgetCompany find the company. */
  found?: KeyLookup
}

interface KeyRow {
  key_id: string
  company_id: string
  scopes: Scope[]
  permission: Permission
  revoked_at: Date | null
  plan_slug: PlanSlug
  effective_plan_slug: PlanSlug
  subscription_status: string
  trial_ends_at: Date | null
  features: FeatureFlags
  plan_limits: Principal['planLimits']
  api_call_limit: number
}

export class KeyCache {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'clock'>,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  /** The key's answered lookup when it is fresh, without waiting (the common case); else undefined. */
  cached(hash: string): KeyLookup | undefined {
    const entry = this.entries.get(hash)
    if (!entry?.found || this.monotonicNow() - entry.sentAt >= this.ttlMs || !this.stillApplies(entry.found)) return undefined
    return entry.found
  }

  /** The key's lookup, reused while fresh; concurrent callers of a stale or missing key share one lookup. */
  async get(hash: string): Promise<KeyLookup | null> {
    const t = this.monotonicNow()
    const entry = this.entries.get(hash)
    if (entry && t - entry.sentAt < this.ttlMs) {
      const found = await entry.pending
      if (!found || this.stillApplies(found)) return found
      // The app's clock passed the end of a trial (or went back): look again.
      if (this.entries.get(hash) === entry) this.entries.delete(hash)
    }
    return this.lookUp(hash)
  }

  /** Drops every cached key of a company (its plan changed, or one of its keys was revoked here). */
  forgetCompany(companyId: string): void {
    for (const [hash, entry] of this.entries) {
      // Entries still in flight may hold the company too; they are cheap to look up again.
      const owner = entry.found?.kind === 'active' ? entry.found.principal.companyId : entry.found?.companyId
      if (owner === companyId || owner === undefined) this.entries.delete(hash)
    }
  }

  private lookUp(hash: string): Promise<KeyLookup | null> {
    if (this.entries.size >= SWEEP_ABOVE) this.sweep()
    const entry: Entry = { sentAt: this.monotonicNow(), pending: Promise.resolve(null) }
    entry.pending = this.query(hash).then(
      (found) => {
        // Unknown keys are not cached: a key created on another instance must work at once.
        if (!found) this.drop(hash, entry)
        else entry.found = found
        return found
      },
      (error: unknown) => {
        this.drop(hash, entry)
        throw error
      },
    )
    this.entries.set(hash, entry)
    return entry.pending
  }

  private async query(hash: string): Promise<KeyLookup | null> {
    const now = this.deps.clock.now()
    const [row] = await this.deps.db.app<KeyRow[]>`select * from resolve_api_key(${hash}, ${now})`
    if (!row) return null
    if (row.revoked_at) return { kind: 'revoked', companyId: row.company_id, revokedAt: row.revoked_at }
    const trialCounts = row.subscription_status === 'trialing' && row.trial_ends_at !== null && row.trial_ends_at > now
    return {
      kind: 'active',
      lookedUpAt: now.getTime(),
      validBefore: trialCounts ? row.trial_ends_at!.getTime() : Number.POSITIVE_INFINITY,
      principal: Object.freeze({
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
        apiCallsUsed: 0,
      }),
    }
  }

  /** The effective plan depends on the app's clock (a trial's end), which tests move at will. */
  private stillApplies(found: KeyLookup): boolean {
    if (found.kind === 'revoked') return true
    const now = this.deps.clock.now().getTime()
    return now >= found.lookedUpAt && now < found.validBefore
  }

  private drop(hash: string, entry: Entry): void {
    if (this.entries.get(hash) === entry) this.entries.delete(hash)
  }

  private sweep(): void {
    const t = this.monotonicNow()
    for (const [hash, entry] of this.entries) if (t - entry.sentAt >= this.ttlMs) this.entries.delete(hash)
  }
}

export const keyCacheOf = onePerApp((deps: Pick<Deps, 'db' | 'clock'>) => new KeyCache(deps))

/** Call after changing a company's keys or subscription, so this instance applies it at once. */
export function forgetCompanyKeys(deps: Pick<Deps, 'db' | 'clock'>, companyId: string): void {
  keyCacheOf(deps).forgetCompany(companyId)
}
