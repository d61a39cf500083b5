// Onboarding SQL: the sign-up's rows (company, owner, onboarding key, subscription) and the company
// settings. The sign-up writes in the new company's tenant transaction from withTenantThenStart();
// the email check runs before there is a tenant, on the app pool, through a SECURITY DEFINER function.
import type postgres from 'postgres'
import type { Scope } from '../../core/access.js'
import type { AUSTRALIAN_TIME_ZONES } from '../../core/zoned-time.js'
import type { Sql } from '../../db/sql.js'
import type { AU_STATES } from '../shared-schema.js'

/** Whether any company already has a user with this email. */
export async function emailRegistered(sql: Sql, email: string): Promise<boolean> {
  const [registered] = await sql<{ taken: boolean }[]>`select email_registered(${email}) as taken`
  return registered?.taken ?? false
}

export interface NewCompany {
  business_name: string
  contact_name: string | null
  contact_email: string
  trade_type: string | null
  phone: string | null
  abn: string | null
  referral_code: string | null
  state: (typeof AU_STATES)[number] | null
  time_zone: (typeof AUSTRALIAN_TIME_ZONES)[number]
}

export async function insertCompany(tx: postgres.TransactionSql, companyId: string, c: NewCompany, now: Date): Promise<void> {
  await tx`
        insert into companies (id, business_name, contact_name, contact_email, trade_type, phone, abn, referral_code, state, time_zone, created_at)
        values (${companyId}, ${c.business_name}, ${c.contact_name}, ${c.contact_email},
                ${c.trade_type}, ${c.phone}, ${c.abn},
                ${c.referral_code}, ${c.state}, ${c.time_zone}, ${now})`
}

/** The new owner's user id. */
export async function insertOwner(tx: postgres.TransactionSql, companyId: string, owner: { email: string; name: string | null; passwordHash: string }, now: Date): Promise<string> {
  const [user] = await tx<{ id: string }[]>`
        insert into users (company_id, email, name, role, password_hash, created_at)
        values (${companyId}, ${owner.email}, ${owner.name}, 'owner', ${owner.passwordHash}, ${now})
        returning id`
  return user!.id
}

/** The first API key: every scope, admin. */
export async function insertAdminKey(tx: postgres.TransactionSql, companyId: string, key: { name: string; hash: string; prefix: string; scopes: Scope[] }, now: Date): Promise<void> {
  await tx`
        insert into api_keys (company_id, name, key_hash, prefix, scopes, permission, created_at)
        values (${companyId}, ${key.name}, ${key.hash}, ${key.prefix}, ${key.scopes}, 'admin', ${now})`
}

export interface NewSubscription {
  plan_slug: string
  billing_cycle: 'monthly' | 'yearly'
  status: 'active' | 'trialing'
  trial_ends_at: Date | null
  current_period_end: Date
  provider: string
  provider_customer_id: string | null
  provider_subscription_id: string | null
  payment_method_id: string | null
}

export async function insertSubscription(tx: postgres.TransactionSql, companyId: string, s: NewSubscription, now: Date): Promise<void> {
  await tx`
        insert into subscriptions (company_id, plan_slug, billing_cycle, status, trial_ends_at, current_period_start,
                                   current_period_end, provider, provider_customer_id, provider_subscription_id, payment_method_id)
        values (${companyId}, ${s.plan_slug}, ${s.billing_cycle}, ${s.status}, ${s.trial_ends_at}, ${now}, ${s.current_period_end}, ${s.provider},
                ${s.provider_customer_id}, ${s.provider_subscription_id},
                ${s.payment_method_id})`
}

export type CompanySettingsRow = { time_zone: (typeof AUSTRALIAN_TIME_ZONES)[number]; state: (typeof AU_STATES)[number] | null }

export async function findCompanySettings(tx: postgres.TransactionSql) {
  return tx<CompanySettingsRow[]>`select time_zone, state from companies`
}

export async function updateCompanySettingsRow(tx: postgres.TransactionSql, companyId: string, changes: Record<string, unknown>) {
  return tx<CompanySettingsRow[]>`update companies set ${tx(changes, ...Object.keys(changes))} where id = ${companyId} returning time_zone, state`
}
