// What Twilio tells us after a send: status callbacks (one per message, named in its URL) move the
// message forward only, since they can arrive out of order; an inbound message is recorded for the
// company that last texted that number, and a STOP / START keyword changes its marketing consent.
// The transport (transports/twilio-webhooks.ts) has verified the signature before anything here runs.
import type { Deps } from '../../core/deps.js'
import { normaliseAuPhone } from '../../core/phone.js'
import { withTenant } from '../../db/sql.js'
import { recordOptIn, recordOptOut } from './opt-outs.js'
import { keywordOf } from './spam-act.js'
import { isUuid } from '../../core/uuid.js'
import { applySmsStatus, findCommunicationCompany, findLastSmsLead, findSmsReplyCompany, insertInboundSms } from './queries/callbacks.js'

export const twilioStatusCallbackUrl = (deps: Deps, communicationId: string) => `${deps.urls.apiBase}/comms/webhooks/twilio/status/${communicationId}`

/** Twilio's message statuses in ours (rank order: queued < sent < delivered/undelivered/failed). */
const TWILIO_STATUS: Record<string, 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed'> = {
  accepted: 'queued', scheduled: 'queued', queued: 'queued', sending: 'sent', sent: 'sent',
  delivered: 'delivered', read: 'delivered', undelivered: 'undelivered', failed: 'failed', canceled: 'failed',
}

export type StatusOutcome = 'updated' | 'unchanged' | 'unknown_message' | 'unknown_status'

export async function applyTwilioStatus(deps: Deps, communicationId: string, params: URLSearchParams): Promise<StatusOutcome> {
  const twilioStatus = params.get('MessageStatus') ?? params.get('SmsStatus') ?? ''
  const status = TWILIO_STATUS[twilioStatus]
  if (!status) return 'unknown_status'
  if (!isUuid(communicationId)) return 'unknown_message'
  const companyId = await findCommunicationCompany(deps.db.app, communicationId)
  if (!companyId) return 'unknown_message'
  const sid = params.get('MessageSid') ?? params.get('SmsSid')
  const errorCode = params.get('ErrorCode')
  const now = deps.clock.now()
  const error = status === 'failed' || status === 'undelivered' ? `Twilio reported ${twilioStatus}${errorCode ? ` (error ${errorCode})` : ''}` : null
  const changed = await withTenant(deps.db, companyId, (tx) => applySmsStatus(tx, communicationId, { status, twilioStatus, sid, error }, now))
  return changed ? 'updated' : 'unchanged'
}

export type InboundOutcome = { outcome: 'ignored'; reason: string } | { outcome: 'recorded'; action: 'opt_out' | 'opt_in' | null }

/**
 * An SMS to our Twilio number. Every company sends from the one configured number, so the reply is
 * taken to answer the company whose SMS reached that number last (see docs/decisions.md).
 */
export async function handleTwilioInbound(deps: Deps, params: URLSearchParams): Promise<InboundOutcome> {
  const from = normaliseAuPhone(params.get('From') ?? '')?.e164 ?? (params.get('From') ?? '').trim()
  const sid = params.get('MessageSid') ?? params.get('SmsSid') ?? ''
  const body = params.get('Body') ?? ''
  if (!from || !sid) return { outcome: 'ignored', reason: 'no From or MessageSid' }
  const companyId = await findSmsReplyCompany(deps.db.app, from)
  if (!companyId) return { outcome: 'ignored', reason: 'no company has texted this number' }
  const keyword = keywordOf(body)
  const now = deps.clock.now()
  await withTenant(deps.db, companyId, async (tx) => {
    const last = await findLastSmsLead(tx, from)
    const recorded = await insertInboundSms(tx, {
      companyId, to: params.get('To') ?? deps.config.TWILIO_FROM ?? '', from, body: body.slice(0, 5000), leadId: last?.lead_id ?? null, sid,
    }, now)
    // Twilio retries a webhook it thinks failed: the keyword counts once per inbound message.
    if (!recorded || !keyword) return
    if (keyword.action === 'opt_out') await recordOptOut(tx, { companyId, channel: 'sms', address: from, source: 'sms_keyword', detail: keyword.keyword, at: now })
    else await recordOptIn(tx, { companyId, channel: 'sms', address: from, detail: keyword.keyword, at: now })
  })
  return { outcome: 'recorded', action: keyword?.action ?? null }
}
