// Company profile SQL. The tenant transaction sees its own companies row only (RLS on id).
import type postgres from 'postgres'
import type { AUSTRALIAN_TIME_ZONES } from '../../core/zoned-time.js'
import type { AU_STATES } from '../shared-schema.js'

export interface CompanyProfileRow {
  id: string
  business_name: string
  contact_name: string | null
  contact_email: string
  phone: string | null
  abn: string | null
  trade_type: string | null
  state: (typeof AU_STATES)[number] | null
  time_zone: (typeof AUSTRALIAN_TIME_ZONES)[number]
  create_job_on_acceptance: boolean
  dispatch_requires_approval: boolean
  created_at: Date
}

export async function findCompanyProfile(tx: postgres.TransactionSql): Promise<CompanyProfileRow> {
  const [row] = await tx<CompanyProfileRow[]>`
    select id, business_name, contact_name, contact_email, phone, abn, trade_type, state, time_zone, create_job_on_acceptance, dispatch_requires_approval, created_at from companies`
  return row!
}

/** The profile columns other than state and time zone (those go through writeCompanySettings). */
export type ProfileChanges = Partial<Pick<CompanyProfileRow, 'business_name' | 'contact_name' | 'contact_email' | 'phone' | 'abn' | 'trade_type' | 'create_job_on_acceptance' | 'dispatch_requires_approval'>>

export async function updateCompanyProfileRow(tx: postgres.TransactionSql, companyId: string, changes: ProfileChanges): Promise<void> {
  await tx`update companies set ${tx(changes, ...(Object.keys(changes) as (keyof ProfileChanges)[]))} where id = ${companyId}`
}
