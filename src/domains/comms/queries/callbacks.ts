// Comms SQL, what arrives from outside: unsubscribe links and Twilio callbacks. The owner lookups run
// before the company is known, on the app pool, through SECURITY DEFINER functions; the rest take the
// tenant transaction from withTenant().
import type postgres from 'postgres'
import type { Sql } from '../../../db/sql.js'

/** The company whose message carries this unsubscribe token (SECURITY DEFINER: before the tenant is known). */
export async function findUnsubscribeCompany(sql: Sql, token: string): Promise<string | null> {
  const [owner] = await sql<{ company_id: string | null }[]>`select unsubscribe_company(${token}) as company_id`
  return owner?.company_id ?? null
}

export async function findMessageByUnsubscribeToken(tx: postgres.TransactionSql, token: string): Promise<{ id: string; to_address: string } | undefined> {
  const [row] = await tx<{ id: string; to_address: string }[]>`select id, to_address from communications where unsubscribe_token = ${token}`
  return row
}

/** The company that sent this message (SECURITY DEFINER: a status callback names only the message). */
export async function findCommunicationCompany(sql: Sql, communicationId: string): Promise<string | null> {
  const [owner] = await sql<{ company_id: string | null }[]>`select communication_company(${communicationId}::uuid) as company_id`
  return owner?.company_id ?? null
}

/** The company whose SMS reached this number last (SECURITY DEFINER: an inbound SMS names only the numbers). */
export async function findSmsReplyCompany(sql: Sql, from: string): Promise<string | null> {
  const [owner] = await sql<{ company_id: string | null }[]>`select sms_reply_company('twilio', ${from}) as company_id`
  return owner?.company_id ?? null
}

export interface TwilioStatusChange {
  status: 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed'
  twilioStatus: string
  sid: string | null
  error: string | null
}

/**
 * Moves an outbound SMS forward to the reported status (never back: callbacks arrive out of order),
 * unless the callback names another provider message. Whether the row changed.
 */
export async function applySmsStatus(tx: postgres.TransactionSql, communicationId: string, c: TwilioStatusChange, now: Date): Promise<boolean> {
  const { status, twilioStatus, sid } = c
  const changed = await tx`
    update communications
    set status = ${status}, provider_status = ${twilioStatus}, status_updated_at = ${now},
        provider_message_id = coalesce(provider_message_id, ${sid}),
        error = ${c.error}
    where id = ${communicationId} and channel = 'sms' and direction = 'outbound'
      and (provider_message_id is null or ${sid}::text is null or provider_message_id = ${sid})
      and message_status_rank(status) < message_status_rank(${status})`
  return changed.count > 0
}

/** The lead of the newest SMS this company sent to the number. */
export async function findLastSmsLead(tx: postgres.TransactionSql, to: string): Promise<{ lead_id: string | null } | undefined> {
  const [last] = await tx<{ lead_id: string | null }[]>`
      select lead_id from communications where channel = 'sms' and direction = 'outbound' and to_address = ${to}
      order by created_at desc limit 1`
  return last
}

export interface InboundSms {
  companyId: string
  to: string
  from: string
  body: string
  leadId: string | null
  sid: string
}

/** Records the inbound SMS once per Twilio message id; whether this call recorded it. */
export async function insertInboundSms(tx: postgres.TransactionSql, m: InboundSms, now: Date): Promise<boolean> {
  const { companyId, from, sid } = m
  const recorded = await tx`
      insert into communications (company_id, channel, direction, message_type, to_address, from_address, body, lead_id, provider,
                                  provider_message_id, status, idempotency_key, created_at, handed_to_provider_at, status_updated_at)
      values (${companyId}, 'sms', 'inbound', 'reply', ${m.to}, ${from}, ${m.body},
              ${m.leadId}, 'twilio', ${sid}, 'received', ${`twilio-inbound:${sid}`}, ${now}, ${now}, ${now})
      on conflict (company_id, idempotency_key) do nothing`
  return recorded.count > 0
}
