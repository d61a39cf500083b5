// Who may call what. Scopes and permissions belong to the API key; features to the company's plan.

export const SCOPES = ['leads', 'quotes', 'jobs', 'clients', 'financials'] as const
export type Scope = (typeof SCOPES)[number]

export const PERMISSIONS = ['read', 'write', 'admin'] as const
export type Permission = (typeof PERMISSIONS)[number]

/** Plan feature flags. restRead/restWrite gate REST; mcpAccess and webhookInbound are the spec's flags. */
export const FEATURES = ['restRead', 'restWrite', 'mcpAccess', 'webhookInbound'] as const
export type Feature = (typeof FEATURES)[number]
export type FeatureFlags = Record<Feature, boolean>

export const PLAN_SLUGS = ['free', 'starter', 'professional', 'business'] as const
export type PlanSlug = (typeof PLAN_SLUGS)[number]

/** Lowest plan that has each feature, to tell a caller what to upgrade to. */
export const CHEAPEST_PLAN_WITH: Record<Feature, PlanSlug> = {
  restRead: 'free',
  restWrite: 'professional',
  mcpAccess: 'business',
  webhookInbound: 'business',
}

const rank: Record<Permission, number> = { read: 0, write: 1, admin: 2 }

export function permits(held: Permission, needed: Permission): boolean {
  return rank[held] >= rank[needed]
}

/** The authenticated caller, as resolved from the Bearer key. */
export interface Principal {
  companyId: string
  keyId: string
  scopes: Scope[]
  permission: Permission
  planSlug: PlanSlug
  effectivePlanSlug: PlanSlug
  subscriptionStatus: string
  trialEndsAt: Date | null
  features: FeatureFlags
  /** Monthly limits of the effective plan, other than API calls. */
  planLimits: { sms: number; emails: number; llm_calls: number; users: number }
  apiCallLimit: number
  apiCallsUsed: number
}
