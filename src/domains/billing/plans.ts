// Plans are global reference data (seeded by migration 001), read through the app role.
import type { Sql, Tx } from '../../db/sql.js'
import type { FeatureFlags, PlanSlug } from '../../core/access.js'
import { centsToDollars, CURRENCY } from '../../core/money.js'

export interface PlanRow {
  slug: PlanSlug
  name: string
  description: string
  price_monthly_cents: number
  price_yearly_cents: number
  api_calls_per_month: number
  sms_per_month: number
  emails_per_month: number
  llm_calls_per_month: number
  max_users: number
  features: FeatureFlags
}

const columns = (sql: Sql) => sql`
  slug, name, description, price_monthly_cents, price_yearly_cents, api_calls_per_month,
  sms_per_month, emails_per_month, llm_calls_per_month, max_users, features`

export async function activePlans(sql: Tx): Promise<PlanRow[]> {
  return sql<PlanRow[]>`select ${columns(sql as Sql)} from plans where active order by sort_order`
}

export async function findPlan(sql: Sql, slug: string): Promise<PlanRow | null> {
  const [row] = await sql<PlanRow[]>`select ${columns(sql)} from plans where slug = ${slug} and active`
  return row ?? null
}

/** A plan by slug, retired ones included: a company may still be on one. */
export async function planBySlug(sql: Tx, slug: string): Promise<PlanRow | null> {
  const [row] = await sql<PlanRow[]>`select ${columns(sql as Sql)} from plans where slug = ${slug}`
  return row ?? null
}

export function priceCents(plan: PlanRow, cycle: 'monthly' | 'yearly'): number {
  return cycle === 'yearly' ? plan.price_yearly_cents : plan.price_monthly_cents
}

export function presentPlan(plan: PlanRow) {
  return {
    slug: plan.slug,
    name: plan.name,
    description: plan.description,
    currency: CURRENCY,
    pricing: {
      monthly: centsToDollars(plan.price_monthly_cents),
      yearly: centsToDollars(plan.price_yearly_cents),
    },
    limits: {
      api_calls_per_month: plan.api_calls_per_month,
      sms_per_month: plan.sms_per_month,
      emails_per_month: plan.emails_per_month,
      llm_calls_per_month: plan.llm_calls_per_month,
      users: plan.max_users,
    },
    features: plan.features,
  }
}
