// Subcontractor SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import { listPage, type Page } from '../../core/paging.js'
import type { RegisterCheck } from '../../providers/registers/provider.js'
import type { SubcontractorStatus, VerifyAction } from './schema.js'

export interface SubcontractorRow {
  id: string
  name: string
  trades: string[]
  phone: string | null
  email: string | null
  abn: string | null
  licence_number: string | null
  licence_class: string | null
  licence_state: string | null
  licence_expiry: string | null
  insurer: string | null
  policy_number: string | null
  insurance_expiry: string | null
  service_suburbs: string[]
  service_radius_km: number | null
  available: boolean
  notes: string | null
  status: SubcontractorStatus
  register_check: RegisterCheck
  verified_at: Date | null
  created_at: Date
  updated_at: Date
}

const columns = (tx: postgres.TransactionSql) => tx`
  id, name, trades, phone, email, abn, licence_number, licence_class, licence_state, licence_expiry::text as licence_expiry,
  insurer, policy_number, insurance_expiry::text as insurance_expiry, service_suburbs, service_radius_km, available, notes,
  status, register_check, verified_at, created_at, updated_at`

export function presentSubcontractor(row: SubcontractorRow) {
  const { created_at: createdAt, updated_at: updatedAt, verified_at: verifiedAt, ...rest } = row
  return { ...rest, verified_at: verifiedAt?.toISOString() ?? null, createdAt: createdAt.toISOString(), updated_at: updatedAt.toISOString() }
}

export type NewSubcontractor = Omit<SubcontractorRow, 'id' | 'status' | 'verified_at' | 'created_at' | 'updated_at'>

export async function insertSubcontractor(tx: postgres.TransactionSql, companyId: string, s: NewSubcontractor, at: Date): Promise<SubcontractorRow> {
  const [row] = await tx<SubcontractorRow[]>`
    insert into subcontractors (company_id, name, trades, phone, email, abn, licence_number, licence_class, licence_state, licence_expiry,
      insurer, policy_number, insurance_expiry, service_suburbs, service_radius_km, available, notes, register_check, created_at, updated_at)
    values (${companyId}, ${s.name}, ${s.trades}, ${s.phone}, ${s.email}, ${s.abn}, ${s.licence_number}, ${s.licence_class}, ${s.licence_state},
      ${s.licence_expiry}, ${s.insurer}, ${s.policy_number}, ${s.insurance_expiry}, ${s.service_suburbs}, ${s.service_radius_km}, ${s.available},
      ${s.notes}, ${tx.json(s.register_check as never)}, ${at}, ${at})
    returning ${columns(tx)}`
  return row!
}

export async function findSubcontractor(tx: postgres.TransactionSql, id: string, options: { forUpdate?: boolean } = {}): Promise<SubcontractorRow | null> {
  const [row] = options.forUpdate
    ? await tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where id = ${id} for update`
    : await tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where id = ${id}`
  return row ?? null
}

export async function moveSubcontractorRow(
  tx: postgres.TransactionSql, id: string, move: { to: SubcontractorStatus; check: RegisterCheck | null }, at: Date,
): Promise<SubcontractorRow> {
  const [row] = move.check
    ? await tx<SubcontractorRow[]>`
        update subcontractors set status = ${move.to}, register_check = ${tx.json(move.check as never)}, verified_at = ${at}, updated_at = ${at}
        where id = ${id} returning ${columns(tx)}`
    : await tx<SubcontractorRow[]>`update subcontractors set status = ${move.to}, updated_at = ${at} where id = ${id} returning ${columns(tx)}`
  return row!
}

export async function insertVerification(tx: postgres.TransactionSql, companyId: string, v: {
  subcontractorId: string; action: VerifyAction; from: SubcontractorStatus; to: SubcontractorStatus; byKey: string; reason: string | null; check: RegisterCheck | null; at: Date
}): Promise<void> {
  await tx`
    insert into subcontractor_verifications (company_id, subcontractor_id, action, from_status, to_status, by_key, reason, register_check, at)
    values (${companyId}, ${v.subcontractorId}, ${v.action}, ${v.from}, ${v.to}, ${v.byKey}, ${v.reason},
            ${v.check ? tx.json(v.check as never) : null}, ${v.at})`
}

/** Whether a reminder was already raised for this document and expiry date. */
export async function expiryReminderExists(tx: postgres.TransactionSql, subcontractorId: string, document: string, expiresOn: string): Promise<boolean> {
  return (await tx`select 1 from subcontractor_expiry_reminders
    where subcontractor_id = ${subcontractorId} and document = ${document} and expires_on = ${expiresOn}`).length > 0
}

export async function insertExpiryReminder(tx: postgres.TransactionSql, companyId: string, r: { subcontractorId: string; document: string; expiresOn: string; reminderId: string }): Promise<void> {
  await tx`insert into subcontractor_expiry_reminders (company_id, subcontractor_id, document, expires_on, reminder_id)
    values (${companyId}, ${r.subcontractorId}, ${r.document}, ${r.expiresOn}, ${r.reminderId})`
}

export interface SubcontractorFilter { trade?: string; status?: SubcontractorStatus; available?: boolean; area?: string }

/** A page newest first; trade and area match the lower-cased arrays (GIN indexes, migration 031). */
export async function listSubcontractorRows(tx: postgres.TransactionSql, filter: SubcontractorFilter, page: Page): Promise<{ rows: SubcontractorRow[]; total: number }> {
  const matching = [
    filter.trade !== undefined && tx`trades @> ${[filter.trade]}::text[]`,
    filter.status && tx`status = ${filter.status}`,
    filter.available !== undefined && tx`available = ${filter.available}`,
    filter.area !== undefined && tx`service_suburbs @> ${[filter.area]}::text[]`,
  ]
  return listPage<SubcontractorRow>(tx, page, { select: tx`select ${columns(tx)} from subcontractors`, from: tx`from subcontractors`, matching })
}
