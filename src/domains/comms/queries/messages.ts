// Comms SQL (queries/ holds it by topic), messages: listing, recording and sending outbound
// messages. Every function takes the tenant transaction from withTenant(); RLS scopes the rows.
import type postgres from 'postgres'
import { listPage, type Page } from '../../../core/paging.js'
import { isMarketing } from '../spam-act.js'

export interface MessageRow {
  id: string
  channel: 'sms' | 'email'
  direction: 'outbound' | 'inbound'
  message_type: string
  to_address: string
  from_address: string | null
  subject: string | null
  body: string
  /** An email's plain-text part as sent; null for an SMS. */
  text_body: string | null
  status: 'queued' | 'recorded' | 'sent' | 'delivered' | 'failed' | 'undelivered' | 'received'
  error: string | null
  provider: string
  provider_status: string | null
  lead_id: string | null
  job_id: string | null
  quote_id: string | null
  invoice_id: string | null
  created_at: Date
  handed_to_provider_at: Date | null
  status_updated_at: Date | null
}

const columns = (tx: postgres.TransactionSql) => tx`
  c.id, c.channel, c.direction, c.message_type, c.to_address, c.from_address, c.subject, c.body, c.text_body, c.status, c.error, c.provider,
  c.provider_status, c.lead_id, c.job_id, c.quote_id, c.invoice_id, c.created_at, c.handed_to_provider_at, c.status_updated_at`

export async function findMessage(tx: postgres.TransactionSql, id: string): Promise<MessageRow | null> {
  const [row] = await tx<MessageRow[]>`select ${columns(tx)} from communications c where c.id = ${id}`
  return row ?? null
}

export interface MessageFilter {
  channel?: 'sms' | 'email'
  messageType?: string
  status?: MessageRow['status']
  leadId?: string
  jobId?: string
  since?: Date
}

export async function listMessageRows(tx: postgres.TransactionSql, f: MessageFilter, page: Page) {
  return listPage<MessageRow>(tx, page, {
    select: tx`select ${columns(tx)} from communications c`,
    from: tx`from communications c`,
    alias: 'c',
    matching: [
      f.channel && tx`c.channel = ${f.channel}`,
      f.messageType && tx`c.message_type = ${f.messageType}`,
      f.status && tx`c.status = ${f.status}`,
      f.leadId && tx`c.lead_id = ${f.leadId}`,
      f.jobId && tx`c.job_id = ${f.jobId}`,
      f.since && tx`c.created_at >= ${f.since}`,
    ],
  })
}

export function presentMessage(r: MessageRow) {
  return {
    id: r.id,
    channel: r.channel,
    direction: r.direction,
    messageType: r.message_type,
    marketing: isMarketing(r.message_type),
    to: r.to_address,
    from: r.from_address,
    subject: r.subject,
    body: r.body,
    status: r.status,
    error: r.error,
    provider: r.provider,
    providerStatus: r.provider_status,
    leadId: r.lead_id,
    jobId: r.job_id,
    quoteId: r.quote_id,
    invoiceId: r.invoice_id,
    createdAt: r.created_at.toISOString(),
    sentAt: r.handed_to_provider_at?.toISOString() ?? null,
    statusUpdatedAt: r.status_updated_at?.toISOString() ?? null,
  }
}

// Recording and sending (record.ts, send.ts).

export async function findCompanySender(tx: postgres.TransactionSql): Promise<{ business_name: string; abn: string | null; contact_email: string }> {
  const [row] = await tx<{ business_name: string; abn: string | null; contact_email: string }[]>`select business_name, abn, contact_email from companies`
  return row!
}

/** An outbound message as recorded: addresses canonical, body composed. */
export interface NewOutboundMessage {
  /** Given when the caller needs the id before the insert; otherwise the database makes one. */
  id?: string
  company_id: string
  channel: 'sms' | 'email'
  message_type: string
  to_address: string
  from_address: string | null
  subject: string | null
  body: string
  text_body: string | null
  unsubscribe_token: string | null
  lead_id: string | null
  quote_id: string | null
  job_id: string | null
  invoice_id: string | null
  /** The invoice whose PDF is attached when the message is sent. */
  attach_invoice_pdf: string | null
  provider: string
  status: 'queued' | 'failed'
  error: string | null
  idempotency_key: string
  quota_counted: boolean
}

/** Inserts the message unless its idempotency key is already recorded. */
export async function insertOutboundMessage(tx: postgres.TransactionSql, m: NewOutboundMessage, now: Date): Promise<void> {
  await tx`
    insert into communications (id, company_id, channel, message_type, to_address, from_address, subject, body, text_body, unsubscribe_token,
                                lead_id, quote_id, job_id, invoice_id, attachments, provider, status, error, idempotency_key, quota_counted,
                                created_at, status_updated_at)
    values (${m.id ?? tx`gen_random_uuid()`}, ${m.company_id}, ${m.channel}, ${m.message_type}, ${m.to_address},
            ${m.from_address},
            ${m.subject}, ${m.body}, ${m.text_body}, ${m.unsubscribe_token},
            ${m.lead_id}, ${m.quote_id}, ${m.job_id}, ${m.invoice_id},
            ${m.attach_invoice_pdf ? tx.json([{ kind: 'invoice_pdf', invoice_id: m.attach_invoice_pdf }]) : null}, ${m.provider},
            ${m.status}, ${m.error}, ${m.idempotency_key}, ${m.quota_counted}, ${now}, ${now})
    on conflict (company_id, idempotency_key) do nothing`
}

/** What sending needs of a recorded outbound message. */
export interface CommRow {
  id: string
  status: 'queued' | 'recorded' | 'sent' | 'delivered' | 'failed' | 'undelivered' | 'received'
  provider: string
  quota_counted: boolean
  handed_to_provider_at: Date | null
  to_address: string
  body: string
  text_body: string | null
  unsubscribe_token: string | null
}

export async function lockMessageByKey(tx: postgres.TransactionSql, idempotencyKey: string): Promise<CommRow | undefined> {
  const [row] = await tx<CommRow[]>`
    select id, status, provider, quota_counted, handed_to_provider_at, to_address, body, text_body, unsubscribe_token
    from communications where idempotency_key = ${idempotencyKey} for no key update`
  return row
}

/** Whether the message was counted against the month's limit, read under its row lock. */
export async function lockQuotaCounted(tx: postgres.TransactionSql, id: string): Promise<boolean | undefined> {
  const [current] = await tx<{ quota_counted: boolean }[]>`select quota_counted from communications where id = ${id} for no key update`
  return current?.quota_counted
}

/** Failed before the provider, its count given back. */
export async function markMessageNotSent(tx: postgres.TransactionSql, id: string, reason: string, now: Date): Promise<void> {
  await tx`update communications set status = 'failed', error = ${reason}, quota_counted = false, status_updated_at = ${now} where id = ${id}`
}

/** Failed before the provider, never counted (over the month's limit). */
export async function markMessageRefused(tx: postgres.TransactionSql, id: string, reason: string, now: Date): Promise<void> {
  await tx`update communications set status = 'failed', error = ${reason}, status_updated_at = ${now} where id = ${id}`
}

export async function markQuotaCounted(tx: postgres.TransactionSql, id: string): Promise<void> {
  await tx`update communications set quota_counted = true where id = ${id}`
}

/** A message refused earlier goes back to queued for another try. */
export async function requeueMessage(tx: postgres.TransactionSql, id: string): Promise<void> {
  await tx`update communications set status = 'queued', error = null where id = ${id}`
}

/** The provider took the message. A status callback may have arrived first: the status only moves forward. */
export async function markHandedToProvider(tx: postgres.TransactionSql, id: string, result: { providerMessageId: string | null; status: string }, now: Date) {
  return tx`
      update communications set provider_message_id = ${result.providerMessageId}, handed_to_provider_at = ${now}, error = null,
             status = case when message_status_rank(status) < message_status_rank(${result.status}) then ${result.status} else status end,
             status_updated_at = ${now}
      where id = ${id}`
}

/** The links of a message being queued (service.ts): whether the lead exists, the job's lead. */
export async function leadExists(tx: postgres.TransactionSql, id: string): Promise<boolean> {
  const [lead] = await tx`select 1 from leads where id = ${id}`
  return lead !== undefined
}

export async function findJobLead(tx: postgres.TransactionSql, jobId: string): Promise<{ lead_id: string } | undefined> {
  const [job] = await tx<{ lead_id: string }[]>`select lead_id from jobs where id = ${jobId}`
  return job
}
