// Payment chase: one run per invoice (workflows/invoice-chase.ts) from the moment it is sent. It
// sleeps to each step of the company's cadence (days before or after the due date, at 9 am in the
// company's time zone), and sends that step's reminder in its tone by SMS and/or email. It stops
// when the invoice is paid (a recorded payment signals it), voided or credited to nothing, or when
// the company turns the chase off; the database decides before every step. The functions here are
// the run's definition, its start and its activities.
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import { formatCents } from '../../../core/money.js'
import { addDays } from '../../../core/period.js'
import { isAuMobile } from '../../../core/phone.js'
import { localDate, zonedToInstant } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import type { StartAfterCommit } from '../../../temporal/outbox.js'
import { chaseRecheckSignal, invoiceChase, invoiceChaseWorkflowId, skippedSteps, type ChaseStepPlan, type InvoiceChaseInput, type InvoiceChaseStep, type InvoiceChaseActivities } from './workflows/invoice-chase.js'
import type { ChannelChoice, QueuedMessage } from '../../../../workflows/messages.js'
import { publicInvoiceUrl } from '../../invoicing/queries.js'
import { chaseMessage, type ChaseTone } from './chase-templates.js'
import { stepApproval } from '../engine/held-step.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { chasePaymentAutomation } from './automation.js'
import { findChasedInvoice, findClientContact, findSenderAndZone, findTimeZone, setInitialProgress, type ChasedInvoiceRow } from './queries.js'
import type { SettingsOf } from '../engine/catalogue.js'

export const CHASE_PAYMENT = chasePaymentAutomation.key
/** Local hour of a step's reminder on its calendar day: business hours, not the middle of the night. */
export const CHASE_LOCAL_TIME = '09:00'
const REAL_DAY_MS = 86_400_000

/** Its settings, defaults filled in: the type of its schema (automation.ts). */
export type ChasePaymentSettingsValue = SettingsOf<typeof chasePaymentAutomation>

export type { ChaseStepPlan, InvoiceChaseInput, InvoiceChaseStep }

export const invoiceChaseDefinition = defineWorkflow<InvoiceChaseActivities>()({
  workflow: invoiceChase,
  id: invoiceChaseWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: 'Chases one unpaid invoice on the company\'s cadence (reminders before or after the due date, friendly, firm, final) until it is paid, voided or the cadence ends. One run per invoice; a failed run may be started again by workflows.chase_payment.',
})

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / REAL_DAY_MS)

/**
 * Each step's time: 9 am local on (due date + offset) with real days. With AUTOMATION_DAY_MS
 * shortened (tests, benches) a "day" is that many milliseconds counted from now, the due date
 * being (due date - today) such days away.
 */
export function chaseSchedule(
  settings: ChasePaymentSettingsValue, dueDate: string, timeZone: string, now: Date, dayMs: number, channel?: ChannelChoice,
): InvoiceChaseStep[] {
  const today = localDate(now, timeZone)
  const steps = [...settings.steps].sort((a, b) => a.offset_days - b.offset_days)
  return steps.map((s, i) => ({
    number: i + 1, tone: s.tone, offsetDays: s.offset_days, channel: channel ?? s.channel ?? null,
    at: (dayMs === REAL_DAY_MS
      ? zonedToInstant(`${addDays(dueDate, s.offset_days)}T${CHASE_LOCAL_TIME}`, timeZone)
      : new Date(now.getTime() + (daysBetween(today, dueDate) + s.offset_days) * dayMs)).toISOString(),
  }))
}

/**
 * Records the run and queues its start in the caller's transaction (write-then-start). Null when
 * the company turned the chase off. With needs_approval on, each reminder waits for approval
 * (decided when the step is planned: stepApproval).
 */
export async function startInvoiceChase(
  deps: Deps, tx: postgres.TransactionSql, start: StartAfterCommit,
  inv: { companyId: string; invoiceId: string; dueDate: string }, overrides: { channel?: ChannelChoice } = {},
): Promise<{ workflowId: string; steps: InvoiceChaseStep[]; input: InvoiceChaseInput } | null> {
  const choice = await automationChoice(tx, chasePaymentAutomation)
  if (!choice.enabled) return null
  const now = deps.clock.now()
  const company = await findTimeZone(tx)
  const steps = chaseSchedule(choice.settings, inv.dueDate, company!.time_zone, now, deps.config.AUTOMATION_DAY_MS, overrides.channel)
  const spec = workflowStart(invoiceChaseDefinition, {
    companyId: inv.companyId, invoiceId: inv.invoiceId, steps, catchUp: inv.dueDate < localDate(now, company!.time_zone),
  })
  await insertRun(tx, { companyId: inv.companyId, automation: CHASE_PAYMENT, workflowId: spec.workflowId, subjectType: 'invoice', subjectId: inv.invoiceId }, now)
  await setInitialProgress(tx, spec.workflowId, { tier: null, steps_sent: 0, steps_planned: steps.length, next: { step: `step 1: ${steps[0]!.tone}`, at: steps[0]!.at } })
  await start(spec)
  return { workflowId: spec.workflowId, steps, input: spec.input as InvoiceChaseInput }
}

/** Tells an invoice's chase to look at the database now (a payment, a void). Fire and forget. */
export function nudgeInvoiceChase(deps: Deps, companyId: string, invoiceId: string): void {
  void deps.workflows.signal(invoiceChaseWorkflowId({ companyId, invoiceId }), chaseRecheckSignal)
}

/**
 * Why the chase must stop, or null. Read FOR SHARE: a payment or void still being committed (the
 * one whose signal woke the run) is waited for, so the run sees its outcome. A payment-plan
 * feature does not exist yet; when it does, it belongs here (and nudges the run like a payment).
 */
async function stopReason(tx: postgres.TransactionSql, invoiceId: string): Promise<{ reason: string | null; row: ChasedInvoiceRow | null }> {
  const row = await findChasedInvoice(tx, invoiceId)
  if (!row) return { reason: 'invoice not found', row: null }
  if (row.status === 'Void') return { reason: 'invoice voided', row }
  if (row.kind === 'credit_note') return { reason: 'a credit note is not chased', row }
  if (Number(row.balance_cents) <= 0 || row.status === 'Paid') return { reason: 'invoice paid', row }
  const choice = await automationChoice(tx, chasePaymentAutomation)
  if (!choice.enabled) return { reason: 'payment chase turned off', row }
  return { reason: null, row }
}

export async function checkInvoiceChase(deps: Deps, input: { companyId: string; invoiceId: string }): Promise<{ stop: string | null }> {
  return withTenant(deps.db, input.companyId, async (tx) => ({ stop: (await stopReason(tx, input.invoiceId)).reason }))
}


type StepRequest = { companyId: string; invoiceId: string; number: number; tone: ChaseTone; offsetDays: number; channel: ChannelChoice | null }

/** Activity: step `number`: stop, or its reminders (keys per invoice, step and channel; transactional). */
export async function planInvoiceChaseStep(deps: Deps, input: StepRequest): Promise<ChaseStepPlan> {
  return withTenant(deps.db, input.companyId, async (tx) => {
    const composed = await composeChaseStep(deps, tx, input, deps.clock.now())
    if (composed.stop !== null) return composed
    const { messages, skipped } = composed
    const approval = messages.length ? await stepApproval(deps, tx, chasePaymentAutomation, { summary: composed.summary, name: composed.name }) : null
    return approval ? { stop: null, messages, skipped, approval } : { stop: null, messages, skipped }
  })
}

/** A dry run of a chase about to start: the first step it would send (not skipped), composed for that step's time. */
export async function previewInvoiceChase(deps: Deps, tx: postgres.TransactionSql, run: InvoiceChaseInput): Promise<QueuedMessage[]> {
  const now = deps.clock.now()
  const skipped = skippedSteps(run.steps, run.catchUp, now.getTime())
  const step = run.steps.find((_, i) => !skipped[i])
  if (!step) return []
  const at = new Date(Math.max(now.getTime(), Date.parse(step.at)))
  const composed = await composeChaseStep(deps, tx, { companyId: run.companyId, invoiceId: run.invoiceId, ...step }, at)
  return composed.messages
}

/** The one composer of a step's reminders (the run's plan and a dry run), as sent at `at`: why it stops, or its messages. */
async function composeChaseStep(
  deps: Deps, tx: postgres.TransactionSql, input: StepRequest, at: Date,
): Promise<{ stop: string; messages: []; skipped: [] } | { stop: null; messages: QueuedMessage[]; skipped: string[]; summary: string; name: string }> {
  const { reason, row } = await stopReason(tx, input.invoiceId)
  if (reason) return { stop: reason, messages: [], skipped: [] }
  const inv = row!
  const lead = await findClientContact(tx, inv.lead_id)
  const company = await findSenderAndZone(tx)
  const values = {
    first_name: lead!.name.split(/\s+/)[0] ?? lead!.name,
    business_name: company!.business_name,
    invoice_number: inv.invoice_number,
    amount: formatCents(Number(inv.balance_cents)),
    due_date: inv.due_date,
    // With shortened days (tests) the calendar says nothing about the cadence: the step's own offset stands in.
    days_overdue: deps.config.AUTOMATION_DAY_MS === REAL_DAY_MS ? daysBetween(inv.due_date, localDate(at, company!.time_zone)) : input.offsetDays,
    link: publicInvoiceUrl(deps.urls.siteRoot, inv.public_token),
  }
  const key = `invoice-chase:${input.invoiceId}:step${input.number}`
  const base = { messageType: 'invoice_chase', leadId: inv.lead_id, jobId: inv.job_id ?? undefined, invoiceId: input.invoiceId }
  const mobile = lead!.phone && isAuMobile(lead!.phone) ? lead!.phone : null
  const wantSms = input.channel === 'sms' || input.channel === 'both' || (input.channel === null && mobile !== null)
  const wantEmail = input.channel === 'email' || input.channel === 'both' || (input.channel === null && mobile === null)
  const messages: QueuedMessage[] = []
  const skipped: string[] = []
  if (wantSms) {
    if (mobile) messages.push({ ...base, channel: 'sms', to: mobile, ...(await chaseMessage(tx, input.tone, 'sms', values)), idempotencyKey: `${key}:sms` })
    else skipped.push('sms: the client has no Australian mobile number')
  }
  if (wantEmail) {
    if (lead!.email) messages.push({ ...base, channel: 'email', to: lead!.email, ...(await chaseMessage(tx, input.tone, 'email', values)), idempotencyKey: `${key}:email` })
    else skipped.push('email: the client has no email address')
  }
  const summary = `${input.tone[0]!.toUpperCase()}${input.tone.slice(1)} payment reminder (step ${input.number}) for invoice ${inv.invoice_number}, ${values.amount} due, to ${lead!.name}`
  return { stop: null, messages, skipped, summary, name: lead!.name }
}
