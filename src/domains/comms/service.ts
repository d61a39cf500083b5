// comms.send_sms, comms.send_email and comms.list. A send records the message and queues its
// delivery in one transaction (reserveMessageDelivery: counted against the month's limit, started
// after commit, delivered by the deliverMessages workflow), so nothing is lost or sent twice; the
// message id, not the clock, keys both the message and its workflow.
import { randomUUID } from 'node:crypto'
import type { Static } from 'typebox'
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import type { Principal } from '../../core/access.js'
import { notFound, validationError } from '../../core/errors.js'
import { normaliseAuPhone } from '../../core/phone.js'
import { pageEnvelope, pageFrom, timestampFilter } from '../../core/paging.js'
import { withTenant } from '../../db/sql.js'
import { withTenantThenStart } from '../../temporal/outbox.js'
import { reserveMessageDelivery, type QueuedMessage } from './deliver.js'
import { sanitiseEmailHtml, textFromHtml } from './compose.js'
import { findJobLead, findMessage, leadExists, listMessageRows, presentMessage } from './queries/messages.js'
import { optedOutReason, optedOutSince, readCompany, recordOutbound } from './record.js'
import type { ListMessagesInput, SendEmailInput, SendSmsInput } from './schema.js'
import type { MessageRequest } from '../../../workflows/messages.js'
import { isMarketing } from './spam-act.js'
import { messageViews, recordedView } from './preview.js'

const MOBILE_RULE = 'an Australian mobile number is required, e.g. 0412 345 678 or +61 412 345 678'

/** The SMS recipient in E.164, or a validation_error naming `to` and the rule it broke. */
export function readAuMobile(input: string): string {
  const parsed = normaliseAuPhone(input)
  if (!parsed) throw validationError([`to: '${input}' is not a valid phone number; ${MOBILE_RULE}`], 'The SMS was not sent.')
  if (!parsed.e164.startsWith('+61')) throw validationError([`to: '${input}' is not an Australian number; ${MOBILE_RULE}`], 'The SMS was not sent.')
  if (!parsed.mobile) throw validationError([`to: '${input}' is an Australian landline, which cannot receive SMS; ${MOBILE_RULE}`], 'The SMS was not sent.')
  return parsed.e164
}

/** The lead and job the message is about, both of this company; a job brings its lead. */
async function readLinks(tx: postgres.TransactionSql, input: { lead_id?: string; job_id?: string }) {
  let leadId = input.lead_id ?? null
  if (leadId) {
    if (!(await leadExists(tx, leadId))) throw notFound('Lead')
  }
  const jobId = input.job_id ?? null
  if (jobId) {
    const job = await findJobLead(tx, jobId)
    if (!job) throw notFound('Job')
    leadId ??= job.lead_id
  }
  return { leadId: leadId ?? undefined, jobId: jobId ?? undefined }
}

function withoutCompany(req: MessageRequest): QueuedMessage {
  const queued: Partial<MessageRequest> = { ...req }
  delete queued.companyId
  return queued as QueuedMessage
}

/**
 * Records the message and queues it, or, for marketing to an address that opted out, records it
 * as not sent. A dry run stops before recording and shows the message as composeMessage renders it.
 */
async function queueOne(
  deps: Deps, principal: Principal, build: (links: { leadId?: string; jobId?: string }, id: string) => MessageRequest,
  links: { lead_id?: string; job_id?: string; dry_run?: boolean },
) {
  const now = deps.clock.now()
  return withTenantThenStart(deps, principal.companyId, async (tx, start) => {
    const id = randomUUID()
    const req = build(await readLinks(tx, links), id)
    const company = await readCompany(tx)
    const provider = req.channel === 'sms' ? deps.sms.name : deps.email.name
    const since = isMarketing(req.messageType) ? await optedOutSince(tx, req.channel, req.to) : null
    const skipped = since ? [optedOutReason(req.channel, req.to, since, company)] : []
    if (links.dry_run) {
      return { message: null, dry_run: true, messages: since ? [] : await messageViews(tx, [withoutCompany(req)]), skipped, delivery: { workflow_id: null } }
    }
    let workflowId: string | null = null
    if (since) {
      await recordOutbound(deps, tx, req, { provider, company, id, status: 'failed', error: optedOutReason(req.channel, req.to, since, company) })
    } else {
      await recordOutbound(deps, tx, { ...req, quotaReserved: true }, { provider, company, id })
      const delivery = await start(await reserveMessageDelivery(tx, { companyId: principal.companyId, subject: `comms:${id}`, messages: [withoutCompany(req)], now }))
      workflowId = delivery.workflow_id
    }
    const row = (await findMessage(tx, id))!
    return { message: presentMessage(row), dry_run: false, messages: since ? [] : [recordedView(row)], skipped, delivery: { workflow_id: workflowId } }
  })
}

export async function sendSms(deps: Deps, principal: Principal, input: Static<typeof SendSmsInput>) {
  const to = readAuMobile(input.to)
  return queueOne(deps, principal, (links, id) => ({
    companyId: principal.companyId, channel: 'sms', messageType: input.message_type ?? 'manual', to, body: input.message,
    ...links, idempotencyKey: `comms:${id}`,
  }), input)
}

export async function sendEmail(deps: Deps, principal: Principal, input: Static<typeof SendEmailInput>) {
  const html = await sanitiseEmailHtml(input.body)
  const text = await textFromHtml(html)
  if (!text.trim() && !/<img\b/i.test(html)) {
    throw validationError(['body: nothing is left to send once scripts, styles and other unsafe HTML are removed'], 'The email was not sent.')
  }
  return queueOne(deps, principal, (links, id) => ({
    companyId: principal.companyId, channel: 'email', messageType: input.message_type ?? 'manual', to: input.to.trim(),
    subject: input.subject, body: html, text, replyTo: input.reply_to, ...links, idempotencyKey: `comms:${id}`,
  }), input)
}

export async function listMessages(deps: Deps, principal: Principal, input: Static<typeof ListMessagesInput>) {
  const page = pageFrom(input)
  const since = timestampFilter(input.since, 'since')
  const { rows, total } = await withTenant(deps.db, principal.companyId, async (tx) => {
    // An id that is not this company's is not_found, as everywhere (not an empty page that reads as "no messages").
    await readLinks(tx, { lead_id: input.lead_id, job_id: input.job_id })
    return listMessageRows(tx, {
      channel: input.channel, messageType: input.message_type, status: input.delivery_status, leadId: input.lead_id, jobId: input.job_id, since,
    }, page)
  })
  const messages = rows.map(presentMessage)
  return { messages, ...pageEnvelope(messages, total, page) }
}
