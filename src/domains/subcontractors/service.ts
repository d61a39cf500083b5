// Subcontractors: register, verify (one guarded status move, ./status.ts) and list. The licence and
// ABN details go to the register provider (deps.registers) before the transaction, so a slow
// register never holds a row lock; its answer is recorded on the subcontractor and in the history.
// A verify whose register says the licence is expired or unknown is refused (409, the register's
// words in the message), and that refusal is recorded too; see LICENCE_NOT_IN_FORCE.
//
// Expiry: a licence or insurance expiry raises one owner reminder per document and expiry date, due
// 30 days before it (09:00 company time), or now when that day has already come. The reminder's
// durable timer makes a daily sweep unnecessary for dates we know; a daily check would add only a
// re-read of the register (a licence cancelled early) and, once expiries can be edited, nothing else.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound, validationError } from '../../core/errors.js'
import { readOptionalAuPhone } from '../../core/phone.js'
import { companyTimeZone } from '../../core/company-time.js'
import { localDate, zonedToInstant } from '../../core/zoned-time.js'
import { pageEnvelope, pageFrom } from '../../core/paging.js'
import { isUuid } from '../../core/uuid.js'
import { recordEvent } from '../../core/events.js'
import { withTenant } from '../../db/sql.js'
import { withTenantThenStart, type StartAfterCommit } from '../../temporal/outbox.js'
import { raiseReminder } from '../reminders/service.js'
import {
  expiryReminderExists, findSubcontractor, insertExpiryReminder, insertSubcontractor, insertVerification, listSubcontractorRows,
  moveSubcontractorRow, presentSubcontractor, recordRegisterCheck, type SubcontractorRow,
} from './queries.js'
import { subcontractorMove } from './status.js'
import type { ListSubcontractorsInput, RegisterSubcontractorInput, SubcontractorStatus, VerifySubcontractorInput } from './schema.js'
import { LICENCE_NOT_IN_FORCE, type RegisterCheck } from '../../providers/registers/provider.js'

export const EXPIRY_NOTICE_DAYS = 30
const DAY_MS = 86_400_000

const lowerAll = (list: string[]) => [...new Set(list.map((s) => s.trim().toLowerCase()).filter(Boolean))]
const realDate = (value: string | undefined, field: string): string | null => {
  if (value === undefined) return null
  const d = new Date(`${value}T00:00:00Z`)
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) throw validationError([`${field}: ${value} is not a real calendar date (YYYY-MM-DD)`])
  return value
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

type ExpiryReminderView = { reminder_id: string; document: 'licence' | 'insurance'; expires_on: string; due_at: string }

/** One reminder per document and expiry date; see the header for when it falls due. */
async function raiseExpiryReminders(tx: postgres.TransactionSql, start: StartAfterCommit, companyId: string, sub: SubcontractorRow, now: Date): Promise<ExpiryReminderView[]> {
  const timeZone = await companyTimeZone(tx)
  const today = localDate(now, timeZone)
  const raised: ExpiryReminderView[] = []
  for (const [document, expiresOn] of [['licence', sub.licence_expiry], ['insurance', sub.insurance_expiry]] as const) {
    if (!expiresOn || await expiryReminderExists(tx, sub.id, document, expiresOn)) continue
    const noticeDay = addDays(expiresOn, -EXPIRY_NOTICE_DAYS)
    const dueAt = noticeDay <= today ? now : zonedToInstant(`${noticeDay}T09:00:00`, timeZone)
    const past = expiresOn < today
    const what = document === 'licence' ? 'licence' : 'public liability insurance'
    const reminderId = await raiseReminder(tx, start, companyId, {
      title: `${sub.name}: ${what} ${past ? 'expired' : 'expires'} ${expiresOn}`,
      notes: `Ask ${sub.name} for the renewed ${what}; an expired ${what} blocks dispatch.`,
      dueAt,
    }, now)
    await insertExpiryReminder(tx, companyId, { subcontractorId: sub.id, document, expiresOn, reminderId })
    raised.push({ reminder_id: reminderId, document, expires_on: expiresOn, due_at: dueAt.toISOString() })
  }
  return raised
}

export async function registerSubcontractor(deps: Deps, principal: Principal, input: Static<typeof RegisterSubcontractorInput>) {
  const phone = readOptionalAuPhone(input.phone)
  if ('problem' in phone) throw validationError([phone.problem])
  const fields = {
    name: input.name.trim(),
    trades: lowerAll(input.trades),
    phone: phone.e164,
    email: input.email ?? null,
    abn: input.abn ? input.abn.replace(/ /g, '') : null,
    licence_number: input.licence_number?.trim() ?? null,
    licence_class: input.licence_class?.trim() ?? null,
    licence_state: input.licence_state ?? null,
    licence_expiry: realDate(input.licence_expiry, 'licence_expiry'),
    insurer: input.insurer?.trim() ?? null,
    policy_number: input.policy_number?.trim() ?? null,
    insurance_expiry: realDate(input.insurance_expiry, 'insurance_expiry'),
    service_suburbs: lowerAll(input.service_suburbs ?? []),
    service_radius_km: input.service_radius_km ?? null,
    available: input.available ?? true,
    notes: input.notes?.trim() ?? null,
  }
  if (fields.trades.length === 0) throw validationError(['trades: give at least one non-blank trade'])
  const registerCheck = await deps.registers.check({ abn: fields.abn, licenceNumber: fields.licence_number, licenceClass: fields.licence_class, licenceState: fields.licence_state })
  const now = deps.clock.now()
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const row = await insertSubcontractor(tx, principal.companyId, { ...fields, register_check: registerCheck }, now)
    const reminders = await raiseExpiryReminders(tx, start, principal.companyId, row, now)
    return { subcontractor: presentSubcontractor(row), expiry_reminders: reminders }
  })
}

export async function verifySubcontractor(deps: Deps, principal: Principal, input: Static<typeof VerifySubcontractorInput>) {
  const action = input.action ?? 'verify'
  const id = input.subcontractor_id
  // RLS hides another company's subcontractors, so their ids read as unknown ones do.
  const before = isUuid(id) ? await withTenant(deps.db, principal.companyId, (tx) => findSubcontractor(tx, id)) : null
  if (!before) throw notFound('Subcontractor')
  subcontractorMove(before.status, action)
  const check = action === 'verify'
    ? await deps.registers.check({ abn: before.abn, licenceNumber: before.licence_number, licenceClass: before.licence_class, licenceState: before.licence_state })
    : null
  const now = deps.clock.now()
  const refused = check !== null && LICENCE_NOT_IN_FORCE.includes(check.outcome)
  let statusKept: SubcontractorStatus = before.status
  const result = await withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const current = await findSubcontractor(tx, id, { forUpdate: true })
    if (!current) throw notFound('Subcontractor')
    // Checked again under the row lock: another call may have moved it since the read above.
    const to = subcontractorMove(current.status, action)
    const reason = input.reason?.trim() || null
    if (refused) {
      // Recorded before refusing: the register's answer stays on the subcontractor (dispatch reads
      // it) and the refused attempt is a history row whose status did not move.
      statusKept = current.status
      await recordRegisterCheck(tx, id, check, now)
      const why = `verify refused by the register check${reason ? `; reason given: ${reason}` : ''}`
      await insertVerification(tx, principal.companyId, { subcontractorId: id, action, from: current.status, to: current.status, byKey: principal.keyId, reason: why, check, at: now })
      return null
    }
    const after = await moveSubcontractorRow(tx, id, { to, check }, now)
    await insertVerification(tx, principal.companyId, { subcontractorId: id, action, from: current.status, to, byKey: principal.keyId, reason, check, at: now })
    const reminders = await raiseExpiryReminders(tx, start, principal.companyId, after, now)
    // Only a move into verified is news: activate keeps the subcontractor checked (active is
    // reachable only from verified, which already sent the event), and a re-check of a verified one
    // changes no status. Written in this transaction, so the event exists exactly when the move does.
    if (to === 'verified' && current.status !== 'verified') {
      await recordEvent(tx, { companyId: principal.companyId, type: 'subcontractor.verified', entityType: 'subcontractor', entityId: id, at: now,
        payload: { subcontractor: presentSubcontractor(after), from_status: current.status, reason } })
    }
    return {
      subcontractor: presentSubcontractor(after),
      verification: { action, from_status: current.status, to_status: to, by_key: principal.keyId, reason, at: now.toISOString(), register_check: check },
      expiry_reminders: reminders,
    }
  })
  if (result === null) throw registerRefusal(before.name, statusKept, check!)
  return result
}

function registerRefusal(name: string, status: SubcontractorStatus, check: RegisterCheck): AppError {
  const offered = status === 'verified' || status === 'active' ? ' Until a verify succeeds they are not offered work.' : ''
  return new AppError('conflict', `${name} was not verified: ${check.detail} They stay ${status}.${offered} Ask them for the current licence number or the renewed licence, then verify again.`, {
    current_status: status, register_check: check,
  })
}

export async function listSubcontractors(deps: Deps, principal: Principal, input: Static<typeof ListSubcontractorsInput>) {
  const page = pageFrom(input)
  const filter = {
    trade: input.trade?.trim().toLowerCase(), status: input.status, available: input.available, area: input.area?.trim().toLowerCase(),
  }
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => listSubcontractorRows(tx, filter, page))
  const subcontractors = rows.map(presentSubcontractor)
  return { subcontractors, ...pageEnvelope(subcontractors, total, page) }
}
