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
  const [owner] = await deps.db.app<{ company_id: string | null }[]>`select communication_company(${communicationId}::uuid) as company_id`
  if (!owner?.company_id) return 'unknown_message'
  const sid = params.get('MessageSid') ?? params.get('SmsSid')
  const errorCode = params.get('ErrorCode')
  const now = deps.clock.now()
  const changed = await withTenant(deps.db, owner.company_id, (tx) => tx`
    update communications
    set status = ${status}, provider_status = ${twilioStatus}, status_updated_at = ${now},
        provider_message_id = coalesce(provider_message_id, ${sid}),
        error = ${status === 'failed' || status === 'undelivered' ? `Twilio reported ${twilioStatus}${errorCode ? ` (error ${errorCode})` : ''}` : null}
    where id = ${communicationId} and channel = 'sms' and direction = 'outbound'
      and (provider_message_id is null or ${sid}::text is null or provider_message_id = ${sid})
      and message_status_rank(status) < message_status_rank(${status})`)
  return changed.count ? 'updated' : 'unchanged'
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
  const [owner] = await deps.db.app<{ company_id: string | null }[]>`select sms_reply_company('twilio', ${from}) as company_id`
  const companyId = owner?.company_id
  if (!companyId) return { outcome: 'ignored', reason: 'no company has texted this number' }
  const keyword = keywordOf(body)
  const now = deps.clock.now()
  await withTenant(deps.db, companyId, async (tx) => {
    const [last] = await tx<{ lead_id: string | null }[]>`
      select lead_id from communications where channel = 'sms' and direction = 'outbound' and to_address = ${from}
      order by created_at desc limit 1`
    const recorded = await tx`
      insert into communications (company_id, channel, direction, message_type, to_address, from_address, body, lead_id, provider,
                                  provider_message_id, status, idempotency_key, created_at, handed_to_provider_at, status_updated_at)
      values (${companyId}, 'sms', 'inbound', 'reply', ${params.get('To') ?? deps.config.TWILIO_FROM ?? ''}, ${from}, ${body.slice(0, 5000)},
              ${last?.lead_id ?? null}, 'twilio', ${sid}, 'received', ${`twilio-inbound:${sid}`}, ${now}, ${now}, ${now})
      on conflict (company_id, idempotency_key) do nothing`
    // Twilio retries a webhook it thinks failed: the keyword counts once per inbound message.
    if (!recorded.count || !keyword) return
    if (keyword.action === 'opt_out') await recordOptOut(tx, { companyId, channel: 'sms', address: from, source: 'sms_keyword', detail: keyword.keyword, at: now })
    else await recordOptIn(tx, { companyId, channel: 'sms', address: from, detail: keyword.keyword, at: now })
  })
  return { outcome: 'recorded', action: keyword?.action ?? null }
}
