// Reminder SQL. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import { cappedCount, limitOffset, whereAll, type Page } from '../../core/paging.js'
import { localDateTime } from '../../core/zoned-time.js'
import { reminderTimerWorkflowId } from './workflows/reminder-timer.js'
import type { NotifyChannel } from './schema.js'

export interface ReminderRow {
  id: string
  company_id: string
  title: string
  notes: string | null
  due_at: Date
  lead_id: string | null
  job_id: string | null
  notify_channel: NotifyChannel | null
  fired_at: Date | null
  done_at: Date | null
  schedule_revision: number
  created_at: Date
  updated_at: Date
  lead_name: string | null
  job_title: string | null
  time_zone: string
}

const select = (tx: postgres.TransactionSql) => tx`
  select r.id, r.company_id, r.title, r.notes, r.due_at, r.lead_id, r.job_id, r.notify_channel, r.fired_at, r.done_at,
         r.schedule_revision, r.created_at, r.updated_at, l.name as lead_name, j.title as job_title, c.time_zone
  from reminders r join companies c on c.id = r.company_id
  left join leads l on l.id = r.lead_id left join jobs j on j.id = r.job_id`

export function presentReminder(row: ReminderRow) {
  return {
    id: row.id,
    title: row.title,
    notes: row.notes,
    dueAt: row.due_at.toISOString(),
    dueAtLocal: localDateTime(row.due_at, row.time_zone),
    timeZone: row.time_zone,
    status: row.done_at ? 'done' as const : row.fired_at ? 'fired' as const : 'pending' as const,
    notify: row.notify_channel,
    leadId: row.lead_id,
    jobId: row.job_id,
    lead: row.lead_id ? { id: row.lead_id, name: row.lead_name! } : null,
    job: row.job_id ? { id: row.job_id, title: row.job_title! } : null,
    firedAt: row.fired_at?.toISOString() ?? null,
    doneAt: row.done_at?.toISOString() ?? null,
    timer: row.done_at ? null : { workflowId: reminderTimerWorkflowId({ companyId: row.company_id, reminderId: row.id, revision: row.schedule_revision }) },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }
}

export async function findReminder(tx: postgres.TransactionSql, id: string, options: { forUpdate?: boolean } = {}): Promise<ReminderRow | null> {
  const [row] = options.forUpdate
    ? await tx<ReminderRow[]>`${select(tx)} where r.id = ${id} for no key update of r`
    : await tx<ReminderRow[]>`${select(tx)} where r.id = ${id}`
  return row ?? null
}

export interface ReminderFilter {
  leadId?: string
  jobId?: string
  dueFrom?: Date
  dueTo?: Date
  /** open: not done (the default); all; done: only done ones. */
  completion: 'open' | 'all' | 'done'
}

/**
 * A page soonest first by (due_at, id). The keyset is the page's last (due_at, id): the shared
 * cursor carries a time and an id, and here the time is the due time.
 */
export async function listReminderRows(tx: postgres.TransactionSql, filter: ReminderFilter, page: Page): Promise<{ rows: ReminderRow[]; total: number }> {
  const matching = [
    filter.leadId && tx`r.lead_id = ${filter.leadId}`,
    filter.jobId && tx`r.job_id = ${filter.jobId}`,
    filter.dueFrom && tx`r.due_at >= ${filter.dueFrom}`,
    filter.dueTo && tx`r.due_at < ${filter.dueTo}`,
    filter.completion === 'open' && tx`r.done_at is null`,
    filter.completion === 'done' && tx`r.done_at is not null`,
  ]
  const after = page.after && tx`(r.due_at, r.id) > (${page.after.createdAt}, ${page.after.id}::uuid)`
  const [rows, total] = await Promise.all([
    tx<ReminderRow[]>`
      ${select(tx)} ${whereAll(tx, [...matching, after])}
      order by r.due_at, r.id ${limitOffset(tx, page)}`,
    cappedCount(tx, tx`from reminders r ${whereAll(tx, matching)}`),
  ])
  return { rows, total }
}

/** The company's time zone (due times without an offset are read on its clocks) and phone (for SMS notices). */
export async function findCompanyTimeZoneAndPhone(tx: postgres.TransactionSql): Promise<{ time_zone: string; phone: string | null }> {
  const [company] = await tx<{ time_zone: string; phone: string | null }[]>`select time_zone, phone from companies`
  return company!
}

/** Whether the lead or job exists for this company (RLS hides another company's rows). */
export async function linkedRecordExists(tx: postgres.TransactionSql, table: 'leads' | 'jobs', id: string): Promise<boolean> {
  return (table === 'leads' ? await tx`select 1 from leads where id = ${id}` : await tx`select 1 from jobs where id = ${id}`).length > 0
}

export interface NewReminder {
  title: string
  notes: string | null
  due_at: Date
  lead_id: string | null
  job_id: string | null
  notify_channel: NotifyChannel | null
}

/** The new reminder's id. */
export async function insertReminder(tx: postgres.TransactionSql, companyId: string, reminder: NewReminder, now: Date): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
      insert into reminders (company_id, title, notes, due_at, lead_id, job_id, notify_channel, created_at, updated_at)
      values (${companyId}, ${reminder.title}, ${reminder.notes}, ${reminder.due_at}, ${reminder.lead_id}, ${reminder.job_id},
              ${reminder.notify_channel}, ${now}, ${now})
      returning id`
  return row!.id
}

export async function updateReminderRow(tx: postgres.TransactionSql, id: string, changes: Record<string, unknown>): Promise<void> {
  await tx`update reminders set ${tx(changes, ...Object.keys(changes))} where id = ${id}`
}

/** What the timer needs to decide and word a reminder's notice. */
export interface FireRow {
  title: string
  notes: string | null
  due_at: Date
  notify_channel: 'sms' | 'email' | 'both' | null
  fired_at: Date | null
  done_at: Date | null
  schedule_revision: number
  lead_name: string | null
  job_title: string | null
  phone: string | null
  contact_email: string
  time_zone: string
}

export async function lockReminderToFire(tx: postgres.TransactionSql, reminderId: string): Promise<FireRow | undefined> {
  const [row] = await tx<FireRow[]>`
      select r.title, r.notes, r.due_at, r.notify_channel, r.fired_at, r.done_at, r.schedule_revision,
             l.name as lead_name, j.title as job_title, c.phone, c.contact_email, c.time_zone
      from reminders r join companies c on c.id = r.company_id
      left join leads l on l.id = r.lead_id left join jobs j on j.id = r.job_id
      where r.id = ${reminderId}
      for no key update of r`
  return row
}

/** Sets fired_at once; a retry leaves the first time. */
export async function markReminderFired(tx: postgres.TransactionSql, reminderId: string, now: Date): Promise<void> {
  await tx`update reminders set fired_at = ${now}, updated_at = ${now} where id = ${reminderId} and fired_at is null`
}
