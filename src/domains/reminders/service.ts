// Reminders: create (due time read in the company's time zone), list soonest first, and change
// (done, title, notes, due time, notice). Each schedule is a durable Temporal timer
// (./timer.ts), started write-then-start with the change that sets it.
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { notFound, validationError } from '../../core/errors.js'
import { pageEnvelope, pageFrom, timestampFilter } from '../../core/paging.js'
import { isAuMobile } from '../../core/phone.js'
import { zonedToInstant } from '../../core/zoned-time.js'
import { withTenant } from '../../db/sql.js'
import { withTenantThenStart, type StartAfterCommit } from '../../temporal/outbox.js'
import {
  findCompanyTimeZoneAndPhone, findReminder, insertReminder, linkedRecordExists, listReminderRows, presentReminder, updateReminderRow,
} from './queries.js'
import { reminderTimerStart } from './timer.js'
import type { CreateReminderInput, ListRemindersInput, NotifyChannel, UpdateReminderInput } from './schema.js'
import { isUuid } from '../../core/uuid.js'

/** A due time this far back still counts (the caller's clock and ours differ a little). */
const PAST_GRACE_MS = 60_000
const MAX_AHEAD_MS = 10 * 366 * 86_400_000

/**
 * The instant a due time names: as given when it has an offset, otherwise on the company's clocks
 * (zonedToInstant settles daylight-saving gaps and repeats). Refuses impossible calendar dates,
 * times already past and times more than ten years ahead, naming the field.
 */
export function readDueAt(value: string, timeZone: string, field: string, now: Date): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(.*)$/.exec(value)
  if (!m) throw validationError([`${field}: must be a date-time such as 2025-07-01T09:00 (company time) or 2025-07-01T09:00:00+10:00`])
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number]
  const check = new Date(Date.UTC(y, mo - 1, d, h, mi, s))
  if (y < 1 || h > 23 || mi > 59 || s > 59 || check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) {
    throw validationError([`${field}: ${value} is not a real calendar date and time`])
  }
  const at = m[8] ? new Date(value.replace(' ', 'T')) : zonedToInstant(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}`, timeZone)
  if (Number.isNaN(at.getTime())) throw validationError([`${field}: ${value} is not a real date-time`])
  if (at.getTime() < now.getTime() - PAST_GRACE_MS) throw validationError([`${field}: ${at.toISOString()} has already passed; give a future time`])
  if (at.getTime() > now.getTime() + MAX_AHEAD_MS) throw validationError([`${field}: is more than ten years ahead`])
  return at
}

async function assertLinked(tx: postgres.TransactionSql, table: 'leads' | 'jobs', id: string, what: string): Promise<void> {
  // RLS hides another company's rows, so their ids are not found, as unknown ones are.
  const found = isUuid(id) && await linkedRecordExists(tx, table, id)
  if (!found) throw notFound(what)
}

function assertReachable(notify: NotifyChannel | null | undefined, phone: string | null): void {
  if ((notify === 'sms' || notify === 'both') && !(phone && isAuMobile(phone))) {
    throw validationError([`notify: an SMS notice needs the company's phone to be an Australian mobile (it is ${phone ?? 'not set'}); use email instead`])
  }
}

export async function createReminder(deps: Deps, principal: Principal, input: Static<typeof CreateReminderInput>) {
  const now = deps.clock.now()
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const company = await findCompanyTimeZoneAndPhone(tx)
    const dueAt = readDueAt(input.due_at, company.time_zone, 'due_at', now)
    if (input.lead_id) await assertLinked(tx, 'leads', input.lead_id, 'Lead')
    if (input.job_id) await assertLinked(tx, 'jobs', input.job_id, 'Job')
    assertReachable(input.notify, company.phone)
    const id = await insertReminder(tx, principal.companyId, {
      title: input.title, notes: input.notes ?? null, due_at: dueAt, lead_id: input.lead_id ?? null, job_id: input.job_id ?? null,
      notify_channel: input.notify ?? null,
    }, now)
    await start(reminderTimerStart(principal.companyId, id, 1, dueAt, true))
    return { reminder: presentReminder((await findReminder(tx, id))!) }
  })
}

/**
 * Changes a reminder. Marking it done stands its timer down; moving the due time (or reopening one
 * that has not fired) arms a new timer, and a reminder that already fired fires again at its new
 * time. Either way the schedule revision goes up and the new revision's run takes over.
 */
export async function updateReminder(deps: Deps, principal: Principal, input: Static<typeof UpdateReminderInput>) {
  const now = deps.clock.now()
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const row = isUuid(input.id) ? await findReminder(tx, input.id, { forUpdate: true }) : null
    if (!row) throw notFound('Reminder')
    const company = await findCompanyTimeZoneAndPhone(tx)
    const changes: Record<string, unknown> = { updated_at: now }
    if (input.title !== undefined) changes.title = input.title
    if (input.notes !== undefined) changes.notes = input.notes
    if (input.notify !== undefined) {
      assertReachable(input.notify, company.phone)
      changes.notify_channel = input.notify
    }
    const dueAt = input.due_at === undefined ? row.due_at : readDueAt(input.due_at, company.time_zone, 'due_at', now)
    const moved = dueAt.getTime() !== row.due_at.getTime()
    if (moved) changes.due_at = dueAt
    const wasDone = row.done_at !== null
    const done = input.done ?? wasDone
    if (done !== wasDone) changes.done_at = done ? now : null

    let armed: boolean | null = null
    if (done && !wasDone) armed = false
    else if (!done && (moved || (wasDone && !row.fired_at))) armed = true
    if (armed && moved) changes.fired_at = null
    if (armed !== null) changes.schedule_revision = row.schedule_revision + 1

    await updateReminderRow(tx, row.id, changes)
    if (armed !== null) await start(reminderTimerStart(principal.companyId, row.id, row.schedule_revision + 1, dueAt, armed))
    return { reminder: presentReminder((await findReminder(tx, row.id))!) }
  })
}

export async function listReminders(deps: Deps, principal: Principal, input: Static<typeof ListRemindersInput>) {
  const page = pageFrom(input)
  const filter = {
    leadId: input.lead_id, jobId: input.job_id,
    dueFrom: timestampFilter(input.due_from, 'due_from'), dueTo: timestampFilter(input.due_to, 'due_to'),
    completion: input.completed_only ? 'done' as const : input.include_completed ? 'all' as const : 'open' as const,
  }
  // An id that cannot be a record matches nothing (rather than a database type error).
  if ((filter.leadId && !isUuid(filter.leadId)) || (filter.jobId && !isUuid(filter.jobId))) {
    return { reminders: [], ...pageEnvelope([], 0, page) }
  }
  const { rows, total } = await withTenant(deps.db, principal.companyId, (tx) => listReminderRows(tx, filter, page))
  const reminders = rows.map(presentReminder)
  // The cursor's keyset is (due_at, id): the list's own order.
  return { reminders, ...pageEnvelope(reminders.map((r) => ({ createdAt: r.dueAt, id: r.id })), total, page) }
}

/**
 * A reminder raised by another domain inside its own transaction (a subcontractor's licence or
 * insurance nearing expiry): the owner's reminder with its durable timer, started after commit.
 */
export async function raiseReminder(
  tx: postgres.TransactionSql, start: StartAfterCommit, companyId: string,
  reminder: { title: string; notes: string; dueAt: Date }, now: Date,
): Promise<string> {
  const id = await insertReminder(tx, companyId, { title: reminder.title, notes: reminder.notes, due_at: reminder.dueAt, lead_id: null, job_id: null, notify_channel: null }, now)
  await start(reminderTimerStart(companyId, id, 1, reminder.dueAt, true))
  return id
}
