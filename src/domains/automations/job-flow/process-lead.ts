// workflows.process_lead: scores a lead by the rule set in lead-score.ts, sets its priority
// (leads.update's path, a lead.updated event), makes one follow-up reminder due by priority
// (reminders' path: Urgent in 1 hour, High by 17:00 today, Normal the next business day at 09:00,
// Low the third business day at 09:00, company time) and starts the instant response when it has
// not run. A short workflow (workflows/process-lead.ts), one run per lead: calling again reports it.
import { afterProcessLead } from '../engine/next-steps.js'
import Type from 'typebox'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound } from '../../../core/errors.js'
import { defineOperation } from '../../../core/operation.js'
import { SEND } from '../../../core/annotations.js'
import { Nullable } from '../../../core/schema-helpers.js'
import { localDate, zonedToInstant } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { enqueueWorkflow, withTenantThenStart } from '../../../temporal/outbox.js'
import { processLead, processLeadWorkflowId, type ProcessLeadInput, type ProcessLeadResult, type ProcessLeadActivities } from './workflows/process-lead.js'
import { findLead } from '../../leads/queries.js'
import { updateLead } from '../../leads/service.js'
import { createReminder } from '../../reminders/service.js'
import { closed, DryRun, Id, RunMessageFields } from '../../shared-schema.js'
import { businessDayAfter, type AuStateCode } from '../engine/business-days.js'
import { instantResponseStart, previewInstantResponse } from '../instant-response/instant-response.js'
import { messageViews } from '../../comms/preview.js'
import { actingFor, assertId, awaitShortRun, RunStatus } from './job-flow-common.js'
import { scoreLead, type LeadScore, type Priority } from './lead-score.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun } from '../engine/queries/runs.js'
import { processLeadAutomation } from './automation.js'
import { deleteFailedRun, findLeadName, findReminderByNotes, findRunStatus, findZoneAndState, instantResponseSent } from './queries.js'

export const PROCESS_LEAD = processLeadAutomation.key
const HOUR_MS = 3_600_000
/** Marks the reminders this automation made, so a retried step finds its own and makes no second. */
const REMINDER_NOTE = 'Created by workflows.process_lead'

export type { ProcessLeadInput, ProcessLeadResult }

export const processLeadDefinition = defineWorkflow<ProcessLeadActivities>()({
  workflow: processLead,
  id: processLeadWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: 'Scores and prioritises one lead, makes its follow-up reminder and starts its instant response if it has not run. One run per lead; a failed run may be started again.',
})

/** Step 1: score and set the priority (only when it changes, so no empty lead.updated event). */
export async function prioritiseLead(deps: Deps, input: ProcessLeadInput): Promise<(LeadScore & { stop: null; previous: Priority }) | { stop: string }> {
  const lead = await withTenant(deps.db, input.companyId, (tx) => findLead(tx, input.leadId))
  if (!lead) return { stop: 'lead not found' }
  const scored = scoreLead(lead)
  if (lead.priority !== scored.priority) await updateLead(deps, actingFor(input.companyId), { lead_id: input.leadId, priority: scored.priority })
  return { ...scored, stop: null, previous: lead.priority }
}

/** When the follow-up falls due for a priority, in the company's time zone (business days of its state when set). */
export function followUpDue(priority: Priority, now: Date, timeZone: string, state: AuStateCode | null): Date {
  if (priority === 'Urgent') return new Date(now.getTime() + HOUR_MS)
  const today = localDate(now, timeZone)
  if (priority === 'High') {
    const close = zonedToInstant(`${today}T17:00`, timeZone)
    return close.getTime() - now.getTime() >= HOUR_MS ? close : new Date(now.getTime() + 2 * HOUR_MS)
  }
  const day = businessDayAfter(today, state, priority === 'Normal' ? 1 : 3).date
  return zonedToInstant(`${day}T09:00`, timeZone)
}

/** Step 2: the follow-up reminder, once per lead (a retry finds the one it made). */
export async function createLeadFollowUp(deps: Deps, input: ProcessLeadInput & { priority: Priority; score: number }): Promise<{ id: string; dueAt: string; existing: boolean }> {
  const found = await withTenant(deps.db, input.companyId, async (tx) => {
    const mine = await findReminderByNotes(tx, input.leadId, REMINDER_NOTE)
    const company = await findZoneAndState(tx)
    const lead = await findLeadName(tx, input.leadId)
    return { mine, company: company!, name: lead?.name ?? 'lead' }
  })
  if (found.mine) return { id: found.mine.id, dueAt: found.mine.due_at.toISOString(), existing: true }
  const due = followUpDue(input.priority, deps.clock.now(), found.company.time_zone, found.company.state)
  const { reminder } = await createReminder(deps, actingFor(input.companyId), {
    title: `Follow up ${input.priority.toLowerCase()} lead: ${found.name}`.slice(0, 200),
    due_at: due.toISOString(),
    notes: `${REMINDER_NOTE} (score ${input.score}, priority ${input.priority}).`,
    lead_id: input.leadId,
  })
  return { id: reminder.id, dueAt: due.toISOString(), existing: false }
}

/** Step 3: the instant response, unless the lead was answered or moved on, or has no contact details. */
export async function startLeadInstantResponse(deps: Deps, input: ProcessLeadInput): Promise<string> {
  const now = deps.clock.now()
  const queued = await withTenant(deps.db, input.companyId, async (tx) => {
    const lead = await findLead(tx, input.leadId)
    if (!lead) return 'not started: lead not found'
    if (lead.status !== 'New') return `not needed: the lead is already ${lead.status}`
    if (!lead.phone && !lead.email) return 'not started: the lead has no phone or email'
    if (await instantResponseSent(tx, input.leadId)) return 'already sent'
    return enqueueWorkflow(tx, instantResponseStart(input.companyId, input.leadId, now))
  })
  if (typeof queued === 'string') return queued
  await deps.workflows.dispatch(queued) // its id is per lead: a run that exists is not started twice
  return `started (${queued.workflow_id})`
}

const ProcessLeadOutput = Type.Object({
  workflow_id: Type.String({ description: 'Temporal workflow id (process-lead:<company>:<lead>)' }),
  started: Type.Boolean({ description: 'True when this call started the run; false when the lead was processed already (that run reported)' }),
  status: RunStatus,
  outcome: Nullable(Type.String()),
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'Lead score (0-100) by the documented rule set' })),
  priority: Nullable(Type.String({ description: 'Priority set from the score: Urgent (70+), High (50+), Normal (25+), Low' })),
  reasons: Type.Array(Type.String(), { description: 'The rules that scored, with their points' }),
  reminder: Nullable(Type.Object({ id: Type.String(), due_at: Type.String({ description: 'ISO instant' }) })),
  instant_response: Nullable(Type.String({ description: 'What happened to the instant response' })),
  ...RunMessageFields,
})

/**
 * The dry run: the score, priority and reasons the run would set (the same scoreLead) and the instant
 * reply it would start (the instant response's own composer), with nothing changed, started or sent.
 */
async function processLeadDryRun(deps: Deps, companyId: string, leadId: string, workflowId: string) {
  return withTenant(deps.db, companyId, async (tx) => {
    const lead = await findLead(tx, leadId)
    if (!lead) throw notFound('Lead')
    const { score, priority, reasons } = scoreLead(lead)
    const preview = (await instantResponseSent(tx, leadId)) ? { skipped: 'already sent', messages: [] } : await previewInstantResponse(tx, leadId)
    return {
      workflow_id: workflowId, started: false, status: 'stopped' as const, outcome: 'Dry run: nothing was changed, booked, started or sent',
      score, priority, reasons, reminder: null,
      instant_response: preview.skipped ? `would not start: ${preview.skipped}` : 'would start: the messages below',
      dry_run: true, messages: await messageViews(tx, preview.messages),
    }
  })
}

export const processLeadOperation = defineOperation({
  name: 'workflows.process_lead',
  domain: 'workflows',
  title: 'Process a lead',
  description:
    'Run the lead-processing workflow on a lead now: scores it 0-100 from its fields (urgency words in the message, service type, mobile, email, suburb or address, a described job), sets its priority from the score (Urgent 70+, High 50+, Normal 25+, else Low), creates one follow-up reminder (Urgent in 1 hour, High by 17:00 today, Normal next business day 09:00, Low in three business days) and starts the instant response if it has not run. Returns the score and the reasons. Once per lead: calling again reports that run.',
  input: Type.Object({ lead_id: Id('Lead to process'), dry_run: DryRun }, closed),
  output: ProcessLeadOutput,
  access: { scope: 'leads', permission: 'write' },
  cost: 'write',
  // Open world: it may start the instant response, which messages the lead.
  annotations: { ...SEND, idempotentHint: true },
  nextSteps: afterProcessLead,
  async run(ctx, input) {
    const companyId = ctx.principal!.companyId
    assertId(input.lead_id, 'Lead')
    const now = ctx.deps.clock.now()
    const workflowId = processLeadWorkflowId({ companyId, leadId: input.lead_id })
    if (input.dry_run) return processLeadDryRun(ctx.deps, companyId, input.lead_id, workflowId)
    const started = await withTenantThenStart(ctx.deps, companyId, async (tx, start) => {
      if (!(await findLead(tx, input.lead_id, { forUpdate: true }))) throw notFound('Lead')
      const run = await findRunStatus(tx, workflowId)
      if (run && run.status !== 'failed') return false
      if (!(await automationChoice(tx, processLeadAutomation)).enabled) throw new AppError('conflict', 'Lead processing is turned off for this company; turn it on with workflows.toggle (workflow_id process_lead).')
      if (run) await deleteFailedRun(tx, workflowId) // started again below
      await insertRun(tx, { companyId, automation: PROCESS_LEAD, workflowId, subjectType: 'lead', subjectId: input.lead_id }, now)
      await start(workflowStart(processLeadDefinition, { companyId, leadId: input.lead_id }))
      return true
    })
    const answer = await awaitShortRun<ProcessLeadResult>(ctx.deps, workflowId)
    const r = answer.result
    return {
      workflow_id: workflowId, started, status: answer.status, outcome: answer.outcome,
      score: r && !r.stopped ? r.score : null, priority: r && !r.stopped ? r.priority : null, reasons: r?.reasons ?? [],
      reminder: r?.reminder ? { id: r.reminder.id, due_at: r.reminder.dueAt } : null, instant_response: r?.instantResponse ?? null,
      dry_run: false, messages: [],
    }
  },
})
