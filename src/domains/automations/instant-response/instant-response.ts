// Instant lead response: a new lead with a mobile number gets an SMS (and an email when it has one)
// from the company's template within seconds, and the lead moves New -> Contacted. The workflow
// (workflows/instant-response.ts) orders these steps; the functions here are its activities.
import type postgres from 'postgres'
import type { Deps } from '../../../core/deps.js'
import { isAuMobile } from '../../../core/phone.js'
import { withTenant } from '../../../db/sql.js'
import { findLead } from '../../leads/queries.js'
import { moveLeadStatus } from '../../leads/status.js'
import { htmlToText, loadTemplate, render } from '../engine/templates.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { instantResponse, instantResponseMessage, instantResponseWorkflowId, type InstantResponseInput, type InstantResponsePlan, type PlannedMessage, type InstantResponseActivities } from './workflows/instant-response.js'
import type { QueuedMessage } from '../../../../workflows/messages.js'
import { instantResponseAutomation } from './automation.js'
import { findEnabledSetting, findSender } from './queries.js'

export const INSTANT_RESPONSE = instantResponseAutomation.key

export type { InstantResponseInput, InstantResponsePlan, PlannedMessage }

export const INSTANT_RESPONSE_DEADLINE_SECONDS = 30

/** The instant-response run for a lead: one per lead while it succeeds; a failed run may be run again on request. */
export const instantResponseDefinition = defineWorkflow<InstantResponseActivities>()({
  workflow: instantResponse,
  id: instantResponseWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
  description: 'Answers a new lead by SMS (and email) within 30 seconds and marks it Contacted. One run per lead; a run that sent nothing fails, and may be run again with workflows.instant_response.',
})

export function instantResponseStart(companyId: string, leadId: string, receivedAt: Date) {
  return workflowStart(instantResponseDefinition, {
    companyId, leadId, receivedAt: receivedAt.toISOString(), deadlineSeconds: INSTANT_RESPONSE_DEADLINE_SECONDS,
  })
}

/** Activity: the run's messages, composed now. */
export async function planInstantResponse(deps: Deps, companyId: string, leadId: string): Promise<InstantResponsePlan> {
  return withTenant(deps.db, companyId, (tx) => composeInstantResponse(tx, leadId))
}

/** What a run for the lead would send now, as sendMessage takes it (a dry run's preview); writes nothing. */
export async function previewInstantResponse(tx: postgres.TransactionSql, leadId: string): Promise<{ skipped: string | null; messages: QueuedMessage[] }> {
  const plan = await composeInstantResponse(tx, leadId)
  return { skipped: plan.skipped, messages: plan.messages.map((m) => instantResponseMessage(leadId, m)) }
}

/** The one composer of the instant reply (the run's plan and every dry run): the company's template for the lead, or why none. */
async function composeInstantResponse(tx: postgres.TransactionSql, leadId: string): Promise<InstantResponsePlan> {
  const setting = await findEnabledSetting(tx, INSTANT_RESPONSE)
  if (setting && !setting.enabled) return { skipped: 'instant response is turned off for this company', messages: [] }
  const lead = await findLead(tx, leadId)
  if (!lead) return { skipped: 'lead not found', messages: [] }
  if (lead.status !== 'New') return { skipped: `lead is already ${lead.status}`, messages: [] }
  const company = await findSender(tx)
  const values = {
    name: lead.name,
    first_name: lead.name.split(/\s+/)[0] ?? lead.name,
    business_name: company!.business_name,
    service: lead.service_type ?? 'your job',
    suburb: lead.suburb ?? '',
    business_phone: company!.phone ?? '',
  }
  const messages: PlannedMessage[] = []
  if (lead.phone && isAuMobile(lead.phone)) {
    const sms = await loadTemplate(tx, 'instant_response.sms')
    messages.push({ channel: 'sms', to: lead.phone, body: render(sms.body, values), idempotencyKey: `instant-response:${leadId}:sms` })
  }
  if (lead.email) {
    const email = await loadTemplate(tx, 'instant_response.email')
    const html = render(email.body, values, { html: true })
    messages.push({
      channel: 'email', to: lead.email, subject: render(email.subject ?? 'Thanks for your enquiry', values),
      body: html, text: htmlToText(html), idempotencyKey: `instant-response:${leadId}:email`,
    })
  }
  return { skipped: messages.length ? null : 'lead has no mobile number or email', messages }
}

/** New -> Contacted, only if nobody has moved the lead on meanwhile. */
export async function markLeadContacted(deps: Deps, companyId: string, leadId: string): Promise<boolean> {
  return withTenant(deps.db, companyId, (tx) =>
    moveLeadStatus(tx, { companyId, leadId, to: 'Contacted', by: INSTANT_RESPONSE, at: deps.clock.now(), when: (s) => s === 'New' }))
}
