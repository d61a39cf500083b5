// workflows.team_notify: a notice to the team by SMS and/or email, as a workflow
// (workflows/team-notify.ts) whose id comes from a notice id made in the call's transaction.
// There is no staff table yet, so "the team" is the owner (the company's phone and contact email)
// and every user of the company (their emails); recipients may instead be named: Australian
// mobiles, email addresses, or users by name or id. With approval on, the notice waits in
// workflows.pending_actions (recorded here, in the same transaction as the workflow start).
import { randomUUID } from 'node:crypto'
import type postgres from 'postgres'
import type { Static } from 'typebox'
import type { Principal } from '../../../core/access.js'
import type { Deps } from '../../../core/deps.js'
import { AppError, notFound, validationError } from '../../../core/errors.js'
import { escapeHtml } from '../../../core/html-escape.js'
import { normaliseAuPhone } from '../../../core/phone.js'
import { localDateTime } from '../../../core/zoned-time.js'
import { withTenant } from '../../../db/sql.js'
import { defineWorkflow, workflowStart } from '../../../temporal/contract.js'
import { enqueueWorkflow } from '../../../temporal/outbox.js'
import { teamNotify, teamNotifyWorkflowId, type TeamMessage, type TeamNotifyInput, type TeamNotifyOutcome, type TeamNotifyActivities } from './workflows/team-notify.js'
import type { PendingMessage } from '../engine/approval.js'
import { insertPendingAction } from '../engine/queries/approvals.js'
import { automationChoice } from '../engine/settings.js'
import { insertRun, markRunFinished } from '../engine/queries/runs.js'
import { teamNotifyAutomation } from './automation.js'
import { findNoticeJob, findOwnerContact, findSenderAndZone, listUsers } from './queries.js'
import { DEFAULT_APPROVAL_EXPIRY_HOURS } from '../engine/catalogue.js'
import type { TeamNotifyInputSchema } from './schema.js'
import { isUuid } from '../../../core/uuid.js'

export const TEAM_NOTIFY = teamNotifyAutomation.key
const HOUR_MS = 3_600_000
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export type { TeamMessage, TeamNotifyInput, TeamNotifyOutcome }

export const teamNotifyDefinition = defineWorkflow<TeamNotifyActivities>()({
  workflow: teamNotify,
  id: teamNotifyWorkflowId,
  idConflictPolicy: 'USE_EXISTING',
  idReusePolicy: 'REJECT_DUPLICATE',
  description: 'Sends one team notice (SMS and/or email), after approval when the company requires it; expires unsent when nobody decides. One run per notice: a second start is the same notice.',
})

interface Contact { label: string; name: string | null; phone: string | null; email: string | null }

/** The team (owner and users), or the recipients named; a name nobody has is a validation_error. */
async function resolveRecipients(tx: postgres.TransactionSql, recipients: string[] | undefined): Promise<Contact[]> {
  const company = await findOwnerContact(tx)
  const users = await listUsers(tx)
  if (!recipients) {
    const mobile = company!.phone ? normaliseAuPhone(company!.phone) : null
    const owner: Contact = { label: 'owner', name: company!.contact_name, phone: mobile?.mobile ? mobile.e164 : null, email: company!.contact_email }
    const others = users.filter((u) => u.email.toLowerCase() !== owner.email!.toLowerCase())
      .map((u) => ({ label: u.name ?? u.email, name: u.name, phone: null, email: u.email }))
    return [owner, ...others]
  }
  return recipients.map((given, i) => {
    const value = given.trim()
    if (EMAIL.test(value)) return { label: given, name: null, phone: null, email: value }
    const user = users.find((u) => (isUuid(value) && u.id === value.toLowerCase()) || (u.name && u.name.toLowerCase() === value.toLowerCase()))
    if (user) return { label: given, name: user.name, phone: null, email: user.email }
    const phone = normaliseAuPhone(value)
    if (phone && phone.mobile && phone.e164.startsWith('+61')) return { label: given, name: null, phone: phone.e164, email: null }
    if (phone) throw validationError([`recipients.${i}: '${given}' is not an Australian mobile number, so no SMS can reach it`])
    throw validationError([`recipients.${i}: '${given}' is not an Australian mobile, an email address, or the name or id of one of the company's users`])
  })
}

function jobLine(job: { title: string; address: string | null; scheduled_date: Date | null }, timeZone: string): string {
  const when = job.scheduled_date ? `, ${localDateTime(job.scheduled_date, timeZone).replace('T', ' ').slice(0, 16)}` : ''
  return `Job: ${job.title}${job.address ? `, ${job.address}` : ''}${when}`
}

/** Records the notice (its run, its pending action when held) and queues its workflow. */
export async function notifyTeam(deps: Deps, principal: Principal, input: Static<typeof TeamNotifyInputSchema>) {
  const companyId = principal.companyId
  const channel = input.channel ?? 'sms'
  if (input.job_id !== undefined && !isUuid(input.job_id)) throw notFound('Job')
  const noticeId = randomUUID()
  const workflowId = teamNotifyWorkflowId({ companyId, noticeId })
  const now = deps.clock.now()
  const result = await withTenant(deps.db, companyId, async (tx) => {
    const choice = await automationChoice(tx, teamNotifyAutomation)
    if (!choice.enabled) throw new AppError('conflict', 'Team notices are turned off for this company; turn them on with workflows.toggle (workflow_id team_notify). Nothing was sent.')
    const job = input.job_id ? await findNoticeJob(tx, input.job_id) : undefined
    if (input.job_id && !job) throw notFound('Job')
    const company = await findSenderAndZone(tx)
    const contacts = await resolveRecipients(tx, input.recipients)
    const text = job ? `${input.message}\n${jobLine(job, company!.time_zone)}` : input.message
    const subject = job ? `Team notice: ${job.title}` : `Team notice from ${company!.business_name}`
    const html = text.split('\n').map((line) => `<p>${escapeHtml(line)}</p>`).join('')

    const messages: TeamMessage[] = []
    const skipped: { recipient: string; reason: string }[] = []
    const seen = new Set<string>()
    for (const c of contacts) {
      const wants = channel === 'both' ? ['sms', 'email'] as const : [channel]
      const reachable = wants.filter((w) => (w === 'sms' ? c.phone : c.email))
      if (!reachable.length) skipped.push({ recipient: c.label, reason: `has no ${channel === 'both' ? 'mobile or email' : channel === 'sms' ? 'mobile number' : 'email address'} on record` })
      for (const w of reachable) {
        const to = w === 'sms' ? c.phone! : c.email!
        if (seen.has(`${w}:${to.toLowerCase()}`)) continue
        seen.add(`${w}:${to.toLowerCase()}`)
        messages.push(w === 'sms' ? { channel: 'sms', to, name: c.name, body: text } : { channel: 'email', to, name: c.name, subject, body: html, text })
      }
    }
    if (!messages.length) {
      throw validationError([`recipients: nobody can be reached by ${channel}; ${skipped.map((s) => `${s.recipient} ${s.reason}`).join('; ')}. Give mobile numbers or email addresses, or another channel`])
    }
    const summary = `${messages.length === 1 ? 'Message' : `${messages.length} messages`} to the team: "${input.message.slice(0, 80)}${input.message.length > 80 ? '…' : ''}"`
    const preview: PendingMessage[] = messages.map((m) => ({ channel: m.channel, to: m.to, name: m.name, subject: m.subject ?? null, text: m.text ?? m.body }))

    await insertRun(tx, { companyId, automation: TEAM_NOTIFY, workflowId, subjectType: job ? 'job' : undefined, subjectId: job ? input.job_id : undefined }, now)
    let approval: TeamNotifyInput['approval'] = null
    let expiresAt: Date | null = null
    if (choice.needsApproval) {
      const expiresInMs = (choice.settings.approval_expiry_hours ?? DEFAULT_APPROVAL_EXPIRY_HOURS) * HOUR_MS // the schema's default fills it
      approval = { actionId: randomUUID(), expiresInMs }
      ;({ expiresAt } = await insertPendingAction(tx, {
        id: approval.actionId, companyId, automation: TEAM_NOTIFY, workflowId, summary, messages: preview, outgoing: null, expiresAt: new Date(now.getTime() + expiresInMs),
      }, now))
    }
    const item = await enqueueWorkflow(tx, workflowStart(teamNotifyDefinition, { companyId, noticeId, jobId: input.job_id ?? null, summary, messages, approval }))
    return { item, approval, expiresAt, preview, skipped }
  })
  const started = await deps.workflows.dispatch(result.item)
  return {
    workflowId, status: result.approval ? 'pending_approval' as const : 'sending' as const,
    actionId: result.approval?.actionId ?? null, expiresAt: result.expiresAt?.toISOString() ?? null,
    messages: result.preview, skipped: result.skipped, started,
  }
}

/** Activity: closes the notice's run record with its outcome. */
export async function finishTeamNotify(deps: Deps, input: { companyId: string; workflowId: string; status: 'completed' | 'stopped' | 'failed'; outcome: string }) {
  await withTenant(deps.db, input.companyId, (tx) => markRunFinished(tx, input.workflowId, input.status, input.outcome, deps.clock.now()))
}
