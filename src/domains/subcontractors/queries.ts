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
    ? await tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where id = ${id} for no key update`
    : await tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where id = ${id}`
  return row ?? null
}

/** A verify the register refused: its answer is kept on the subcontractor, the status stays. */
export async function recordRegisterCheck(tx: postgres.TransactionSql, id: string, check: RegisterCheck, at: Date): Promise<void> {
  await tx`update subcontractors set register_check = ${tx.json(check as never)}, updated_at = ${at} where id = ${id}`
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

// Dispatch (dispatch.ts): the job, the candidates, the dispatch and its offers.

/** scheduled_date: the booking's calendar day in the business's own zone (a 7:30 am Sydney booking is the evening before in UTC). */
export interface DispatchJobRow { id: string; title: string; status: string; address: string | null; scheduled_date: string | null; subcontractor_id: string | null }

export async function findDispatchJob(tx: postgres.TransactionSql, jobId: string): Promise<DispatchJobRow | undefined> {
  const [job] = await tx<DispatchJobRow[]>`
    select j.id, j.title, j.status, j.address, to_char(j.scheduled_date at time zone c.time_zone, 'YYYY-MM-DD') as scheduled_date, j.subcontractor_id
    from jobs j join companies c on c.id = j.company_id where j.id = ${jobId}`
  return job
}

export async function listDispatchCandidates(tx: postgres.TransactionSql, ids: string[] | null): Promise<SubcontractorRow[]> {
  return ids
    ? tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where id = any(${ids}::uuid[])`
    : tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where status in ('verified', 'active') order by (status = 'active') desc, created_at, id`
}

export async function findSubcontractorForOffer(tx: postgres.TransactionSql, id: string): Promise<SubcontractorRow | undefined> {
  const [row] = await tx<SubcontractorRow[]>`select ${columns(tx)} from subcontractors where id = ${id}`
  return row
}

export async function findRunningDispatch(tx: postgres.TransactionSql, jobId: string): Promise<{ workflow_id: string } | undefined> {
  const [row] = await tx<{ workflow_id: string }[]>`select workflow_id from dispatches where job_id = ${jobId} and status = 'running'`
  return row
}

export async function nextDispatchNumber(tx: postgres.TransactionSql, jobId: string): Promise<number> {
  const [row] = await tx<{ n: number }[]>`select coalesce(max(number), 0)::int + 1 as n from dispatches where job_id = ${jobId}`
  return row!.n
}

export async function insertDispatch(
  tx: postgres.TransactionSql,
  d: { companyId: string; jobId: string; number: number; workflowId: string; trade: string | null; candidates: string[]; excluded: unknown[] }, now: Date,
): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    insert into dispatches (company_id, job_id, number, workflow_id, trade, candidates, excluded, created_at)
    values (${d.companyId}, ${d.jobId}, ${d.number}, ${d.workflowId}, ${d.trade}, ${d.candidates}::uuid[], ${tx.json(d.excluded as postgres.JSONValue)}, ${now})
    returning id`
  return row!.id
}

export interface DispatchRow { id: string; job_id: string; workflow_id: string; status: string }

export async function findDispatch(tx: postgres.TransactionSql, id: string): Promise<DispatchRow | undefined> {
  const [row] = await tx<DispatchRow[]>`select id, job_id, workflow_id, status from dispatches where id = ${id}`
  return row
}

/** Offer `position` of a dispatch: the one already recorded (a retried activity), else a new one. */
export async function upsertOffer(
  tx: postgres.TransactionSql,
  o: { companyId: string; dispatchId: string; subcontractorId: string; position: number; token: string; expiresAt: string }, now: Date,
): Promise<{ id: string; token: string; expires_at: Date; created: boolean }> {
  const [made] = await tx<{ id: string; token: string; expires_at: Date }[]>`
    insert into dispatch_offers (company_id, dispatch_id, subcontractor_id, position, token, offered_at, expires_at)
    values (${o.companyId}, ${o.dispatchId}, ${o.subcontractorId}, ${o.position}, ${o.token}, ${now}, ${o.expiresAt})
    on conflict (dispatch_id, position) do nothing returning id, token, expires_at`
  if (made) return { ...made, created: true }
  const [had] = await tx<{ id: string; token: string; expires_at: Date }[]>`
    select id, token, expires_at from dispatch_offers where dispatch_id = ${o.dispatchId} and position = ${o.position}`
  return { ...had!, created: false }
}

export async function recordSkippedOffer(
  tx: postgres.TransactionSql, o: { companyId: string; dispatchId: string; subcontractorId: string; position: number; token: string; reason: string }, now: Date,
): Promise<void> {
  await tx`
    insert into dispatch_offers (company_id, dispatch_id, subcontractor_id, position, token, status, reason, offered_at, expires_at, answered_at)
    values (${o.companyId}, ${o.dispatchId}, ${o.subcontractorId}, ${o.position}, ${o.token}, 'skipped', ${o.reason}, ${now}, ${now}, ${now})
    on conflict (dispatch_id, position) do nothing`
}

export interface OfferRow {
  id: string; dispatch_id: string; subcontractor_id: string; status: string; expires_at: Date; job_id: string; job_status: string; workflow_id: string
}

const offerSelect = (tx: postgres.TransactionSql) => tx`
  select o.id, o.dispatch_id, o.subcontractor_id, o.status, o.expires_at, d.job_id, j.status as job_status, d.workflow_id
  from dispatch_offers o join dispatches d on d.id = o.dispatch_id join jobs j on j.id = d.job_id`

export async function findOffer(tx: postgres.TransactionSql, offerId: string): Promise<OfferRow | undefined> {
  const [row] = await tx<OfferRow[]>`${offerSelect(tx)} where o.id = ${offerId} for no key update of o`
  return row
}

export async function findOfferByToken(tx: postgres.TransactionSql, token: string): Promise<OfferRow | undefined> {
  const [row] = await tx<OfferRow[]>`${offerSelect(tx)} where o.token = ${token} for no key update of o`
  return row
}

export async function setOfferStatus(tx: postgres.TransactionSql, offerId: string, status: string, now: Date, reason: string | null = null): Promise<void> {
  await tx`update dispatch_offers set status = ${status}, answered_at = ${now}, reason = coalesce(${reason}, reason) where id = ${offerId} and status = 'offered'`
}

export async function assignJobSubcontractor(tx: postgres.TransactionSql, jobId: string, subcontractorId: string, now: Date): Promise<void> {
  await tx`update jobs set subcontractor_id = ${subcontractorId}, updated_at = ${now} where id = ${jobId}`
}

export async function finishDispatchRow(tx: postgres.TransactionSql, id: string, status: string, outcome: string, subcontractorId: string | null, now: Date): Promise<boolean> {
  const rows = await tx`update dispatches set status = ${status}, outcome = ${outcome}, subcontractor_id = coalesce(${subcontractorId}, subcontractor_id), finished_at = ${now}
                        where id = ${id} and status = 'running' returning id`
  return rows.length > 0
}

export async function findDispatchCompany(sql: postgres.Sql, token: string): Promise<string | null> {
  const [row] = await sql<{ company_id: string | null }[]>`select dispatch_offer_company(${token}) as company_id`
  return row?.company_id ?? null
}

/** Whether the company holds each dispatch for its approval before the first offer (companies.dispatch_requires_approval). */
export async function findDispatchRequiresApproval(tx: postgres.TransactionSql): Promise<boolean> {
  const [row] = await tx<{ dispatch_requires_approval: boolean }[]>`select dispatch_requires_approval from companies`
  return row?.dispatch_requires_approval ?? false
}

/** The tenant's business as its offers show it: its name, and the zone its times are read in. */
export async function findOfferingBusiness(tx: postgres.TransactionSql): Promise<{ name: string; timeZone: string }> {
  const [row] = await tx<{ business_name: string; time_zone: string }[]>`select business_name, time_zone from companies`
  return { name: row!.business_name, timeZone: row!.time_zone }
}
