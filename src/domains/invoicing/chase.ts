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
import { messageViews } from '../comms/preview.js'
import { publicInvoiceUrl } from './queries.js'
import { findJobId, insertInvoiceReminder, listChaseRuns, listOverdueInvoices, type ChaseRunRow, type OverdueRow, type Tone } from './queries/chase.js'
import { findBusinessName } from './queries/parties.js'
import type { ChaseInput } from './schema.js'

export type { Tone }
export const CHASE_TIERS: { tone: Tone; fromDays: number }[] = [{ tone: 'final', fromDays: 30 }, { tone: 'firm', fromDays: 14 }, { tone: 'friendly', fromDays: 7 }]

export function chaseLevel(daysOverdue: number): Tone | null {
  return CHASE_TIERS.find((t) => daysOverdue >= t.fromDays)?.tone ?? null
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
  const runs = await listChaseRuns(tx, rows.map((r) => r.id))
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
      const rows = await listOverdueInvoices(tx, await companyToday(tx, now))
      return { overdue: await presentAll(tx, rows), total_outstanding: outstanding(rows), reminder: null, dry_run: input.dry_run ?? false, messages: [] }
    })
  }
  const jobId = input.jobId
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const job = await findJobId(tx, jobId)
    if (!job) throw notFound('Job')
    const today = await companyToday(tx, now)
    const rows = await listOverdueInvoices(tx, today, { jobId })
    const target = rows[0]
    if (!target) {
      throw new AppError('conflict', 'This job has no overdue invoice to chase (nothing is past its due date with a balance). invoicing.chase without jobId lists every overdue invoice.', { job_id: jobId })
    }
    const tone: Tone = input.tone ?? chaseLevel(target.days_overdue) ?? 'friendly'
    const businessName = await findBusinessName(tx)
    const link = publicInvoiceUrl(deps.urls.siteRoot, target.public_token)
    const { text, subject } = wording(tone, target, businessName, link)
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
    const views = await messageViews(tx, messages)
    const channels = messages.map((m) => m.channel)
    if (input.dry_run) {
      const all = await listOverdueInvoices(tx, today)
      return {
        overdue: await presentAll(tx, all), total_outstanding: outstanding(all), dry_run: true, messages: views,
        reminder: { invoiceNumber: target.invoice_number, tone, daysOverdue: target.days_overdue, delivery: { workflow_id: null, channels, skipped } },
      }
    }
    const delivery = await start(await reserveMessageDelivery(tx, { companyId: principal.companyId, subject: `invoice-chase:${target.id}:${number}`, messages, now }))
    await insertInvoiceReminder(tx, {
      companyId: principal.companyId, invoiceId: target.id, tone, daysOverdue: target.days_overdue,
      channels: messages.map((m) => m.channel), workflowId: delivery.workflow_id, now,
    })
    const all = await listOverdueInvoices(tx, today)
    return {
      overdue: await presentAll(tx, all),
      total_outstanding: outstanding(all),
      reminder: { invoiceNumber: target.invoice_number, tone, daysOverdue: target.days_overdue, delivery: { workflow_id: delivery.workflow_id, channels, skipped } },
      dry_run: false, messages: views,
    }
  })
}
