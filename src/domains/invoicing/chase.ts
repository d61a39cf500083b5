// Chasing overdue invoices. Tiers by days overdue: friendly at 7+, firm at 14+, final at 30+.
// Listing sends nothing; a reminder for a job goes out by the client's channels through the
// deliverMessages workflow and is recorded in invoice_reminders (each one once, by its number).
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { AppError, notFound } from '../../core/errors.js'
import { centsToDollars, formatCents } from '../../core/money.js'
import { isAuMobile } from '../../core/phone.js'
import { companyToday } from '../../core/company-time.js'
import { withTenant } from '../../db/sql.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { reserveMessageDelivery, type QueuedMessage } from '../comms/deliver.js'
import { escapeHtml } from '../../core/html-escape.js'
import { overdueCondition, publicInvoiceUrl } from './queries.js'
import type { ChaseInput } from './schema.js'

export type Tone = 'friendly' | 'firm' | 'final'
export const CHASE_TIERS: { tone: Tone; fromDays: number }[] = [{ tone: 'final', fromDays: 30 }, { tone: 'firm', fromDays: 14 }, { tone: 'friendly', fromDays: 7 }]

export function chaseLevel(daysOverdue: number): Tone | null {
  return CHASE_TIERS.find((t) => daysOverdue >= t.fromDays)?.tone ?? null
}

interface OverdueRow {
  id: string
  invoice_number: string
  job_id: string | null
  lead_id: string
  client_name: string
  client_phone: string | null
  client_email: string | null
  public_token: string
  due_date: string
  days_overdue: number
  balance_cents: string
  last_tone: string | null
  last_sent_at: Date | null
  reminders: number
}

/** Unpaid invoices past their due date (the company's local today), most overdue first. */
export async function overdueInvoices(tx: postgres.TransactionSql, today: string, filter: { jobId?: string; minDays?: number } = {}): Promise<OverdueRow[]> {
  return tx<OverdueRow[]>`
    select i.id, i.invoice_number, i.job_id, i.lead_id, l.name as client_name, l.phone as client_phone, l.email as client_email, i.public_token,
           to_char(i.due_date, 'YYYY-MM-DD') as due_date, (${today}::date - i.due_date) as days_overdue,
           i.total_cents - i.amount_paid_cents - i.amount_credited_cents as balance_cents,
           r.tone as last_tone, r.created_at as last_sent_at, coalesce(rc.n, 0)::int as reminders
    from invoices i join leads l on l.id = i.lead_id
    left join lateral (select tone, created_at from invoice_reminders where invoice_id = i.id order by created_at desc limit 1) r on true
    left join lateral (select count(*) as n from invoice_reminders where invoice_id = i.id) rc on true
    where ${overdueCondition(tx, today, 'i')}
      and (${today}::date - i.due_date) >= ${filter.minDays ?? 1}
      ${filter.jobId ? tx`and i.job_id = ${filter.jobId}` : tx``}
    order by i.due_date, i.invoice_number
    limit 500`
}

interface ChaseRunRow {
  subject_id: string
  workflow_id: string
  status: string
  outcome: string | null
  progress: { tier?: Tone | null; steps_sent?: number; steps_planned?: number; next?: { step: string; at: string } | null } | null
}

/** Each invoice's latest payment-chase run (workflows.chase_payment), where it is in its cadence. */
async function chaseRuns(tx: postgres.TransactionSql, invoiceIds: string[]): Promise<Map<string, ChaseRunRow>> {
  if (!invoiceIds.length) return new Map()
  const rows = await tx<ChaseRunRow[]>`
    select distinct on (subject_id) subject_id::text, workflow_id, status, outcome, progress
    from automation_runs where automation = 'chase_payment' and subject_type = 'invoice' and subject_id = any(${invoiceIds}::uuid[])
    order by subject_id, started_at desc`
  return new Map(rows.map((r) => [r.subject_id, r]))
}

function present(r: OverdueRow, run: ChaseRunRow | undefined) {
  return {
    invoiceId: r.id, invoiceNumber: r.invoice_number, jobId: r.job_id, clientName: r.client_name, dueDate: r.due_date,
    daysOverdue: r.days_overdue, chaseLevel: chaseLevel(r.days_overdue), balance: centsToDollars(Number(r.balance_cents)),
    lastReminder: r.last_tone ? { tone: r.last_tone, sentAt: r.last_sent_at!.toISOString() } : null,
    automation: run ? {
      workflowId: run.workflow_id, status: run.status, tier: run.progress?.tier ?? null,
      stepsSent: run.progress?.steps_sent ?? 0, stepsPlanned: run.progress?.steps_planned ?? 0,
      next: run.status === 'running' ? run.progress?.next ?? null : null, outcome: run.outcome,
    } : null,
  }
}

async function presentAll(tx: postgres.TransactionSql, rows: OverdueRow[]) {
  const runs = await chaseRuns(tx, rows.map((r) => r.id))
  return rows.map((r) => present(r, runs.get(r.id)))
}

const outstanding = (rows: OverdueRow[]) => centsToDollars(rows.reduce((a, r) => a + Number(r.balance_cents), 0))

function wording(tone: Tone, r: OverdueRow, business: string, link: string) {
  const first = r.client_name.split(/\s+/)[0] ?? r.client_name
  const owing = formatCents(Number(r.balance_cents))
  const lines: Record<Tone, string> = {
    friendly: `Hi ${first}, a friendly reminder that invoice ${r.invoice_number} for ${owing} was due on ${r.due_date}. You can view and pay it here: ${link}. Thanks, ${business}`,
    firm: `Hi ${first}, invoice ${r.invoice_number} for ${owing} is now ${r.days_overdue} days overdue. Please pay it today: ${link}, or contact us to arrange payment. ${business}`,
    final: `Final notice: invoice ${r.invoice_number} for ${owing} is ${r.days_overdue} days overdue. Unless it is paid or a payment arrangement is agreed within 7 days, we will begin debt recovery. Pay here: ${link}. ${business}`,
  }
  const subject: Record<Tone, string> = {
    friendly: `Reminder: invoice ${r.invoice_number} from ${business}`,
    firm: `Overdue: invoice ${r.invoice_number} from ${business}`,
    final: `Final notice: invoice ${r.invoice_number} from ${business}`,
  }
  return { text: lines[tone], subject: subject[tone] }
}

export async function chaseInvoices(deps: Deps, principal: Principal, input: Static<typeof ChaseInput>) {
  const now = deps.clock.now()
  if (!input.jobId) {
    return withTenant(deps.db, principal.companyId, async (tx) => {
      const rows = await overdueInvoices(tx, await companyToday(tx, now))
      return { overdue: await presentAll(tx, rows), total_outstanding: outstanding(rows), reminder: null }
    })
  }
  const jobId = input.jobId
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const [job] = await tx<{ id: string }[]>`select id from jobs where id = ${jobId}`
    if (!job) throw notFound('Job')
    const today = await companyToday(tx, now)
    const rows = await overdueInvoices(tx, today, { jobId })
    const target = rows[0]
    if (!target) {
      throw new AppError('conflict', 'This job has no overdue invoice to chase (nothing is past its due date with a balance). invoicing.chase without jobId lists every overdue invoice.', { job_id: jobId })
    }
    const tone: Tone = input.tone ?? chaseLevel(target.days_overdue) ?? 'friendly'
    const [company] = await tx<{ business_name: string }[]>`select business_name from companies`
    const link = publicInvoiceUrl(deps.urls.siteRoot, target.public_token)
    const { text, subject } = wording(tone, target, company!.business_name, link)
    const number = target.reminders + 1
    const wantSms = input.channel !== 'email'
    const wantEmail = input.channel !== 'sms'
    const base = { messageType: `payment_reminder_${tone}`, leadId: target.lead_id, jobId: target.job_id ?? undefined, invoiceId: target.id }
    const messages: QueuedMessage[] = []
    const skipped: string[] = []
    if (wantSms) {
      if (target.client_phone && isAuMobile(target.client_phone)) messages.push({ ...base, channel: 'sms', to: target.client_phone, body: text, idempotencyKey: `invoice-chase:${target.id}:${number}:sms` })
      else skipped.push('sms: the client has no Australian mobile number')
    }
    if (wantEmail) {
      if (target.client_email) {
        messages.push({ ...base, channel: 'email', to: target.client_email, subject, body: `<p>${escapeHtml(text)}</p>`, text, idempotencyKey: `invoice-chase:${target.id}:${number}:email` })
      } else skipped.push('email: the client has no email address')
    }
    if (!messages.length) throw new AppError('conflict', `No reminder could be sent: ${skipped.join('; ')}. Add the client's mobile or email (leads.update).`, { skipped })
    const delivery = await start(await reserveMessageDelivery(tx, { companyId: principal.companyId, subject: `invoice-chase:${target.id}:${number}`, messages, now }))
    await tx`insert into invoice_reminders (company_id, invoice_id, tone, days_overdue, channels, workflow_id, created_at)
             values (${principal.companyId}, ${target.id}, ${tone}, ${target.days_overdue}, ${messages.map((m) => m.channel)}, ${delivery.workflow_id}, ${now})`
    const all = await overdueInvoices(tx, today)
    return {
      overdue: await presentAll(tx, all),
      total_outstanding: outstanding(all),
      reminder: { invoiceNumber: target.invoice_number, tone, daysOverdue: target.days_overdue, delivery: { workflow_id: delivery.workflow_id, channels: messages.map((m) => m.channel), skipped } },
    }
  })
}
