import type postgres from 'postgres'
import { listPage, type Page } from '../../core/paging.js'
import { isMarketing } from './spam-act.js'

export interface MessageRow {
  id: string
  channel: 'sms' | 'email'
  direction: 'outbound' | 'inbound'
  message_type: string
  to_address: string
  from_address: string | null
  subject: string | null
  body: string
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
  c.id, c.channel, c.direction, c.message_type, c.to_address, c.from_address, c.subject, c.body, c.status, c.error, c.provider,
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
