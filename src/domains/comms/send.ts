// Sending one SMS or email: record it (idempotently, keyed per logical message), count it against
// the month's limit, hand it to the configured provider, and record what the provider said. A
// retried activity with the same key finds the earlier record and does not send again. No
// provider call happens inside a database transaction.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { PermanentDeliveryError } from '../../providers/sms/provider.js'
import { invoicePdfAttachment } from '../invoicing/public.js'
import { describeRefusal, metricOf, releaseMessages, reserveMessages } from '../billing/message-quota.js'

export interface MessageRequest {
  companyId: string
  channel: 'sms' | 'email'
  messageType: string
  to: string
  subject?: string
  body: string
  /** Plain-text alternative for email. */
  text?: string
  leadId?: string
  quoteId?: string
  jobId?: string
  invoiceId?: string
  /** Email only: attach this invoice's tax-invoice PDF, rendered when the message is sent (not carried in the workflow input). */
  attachInvoicePdf?: string
  idempotencyKey: string
  /** Already counted against the monthly limit by the action that queued it (quotes.send, jobs.send_eta). */
  quotaReserved?: boolean
}

export interface MessageOutcome {
  communicationId: string
  /** not_sent: the monthly limit was reached (an automation records that it did not send). */
  status: 'recorded' | 'sent' | 'failed' | 'not_sent'
  provider: string
  alreadySent: boolean
  reason?: string
}

interface CommRow {
  id: string
  status: 'pending' | 'recorded' | 'sent' | 'delivered' | 'failed'
  provider: string
  quota_counted: boolean
}

/** Finds or records the message, and counts it once. Returns what to do next. */
async function prepare(deps: Deps, tx: postgres.TransactionSql, req: MessageRequest, providerName: string) {
  await tx`
    insert into communications (company_id, channel, message_type, to_address, from_address, subject, body,
                                lead_id, quote_id, job_id, invoice_id, attachments, provider, status, idempotency_key, quota_counted, created_at)
    values (${req.companyId}, ${req.channel}, ${req.messageType}, ${req.to},
            ${req.channel === 'email' ? deps.email.from : null}, ${req.subject ?? null}, ${req.body},
            ${req.leadId ?? null}, ${req.quoteId ?? null}, ${req.jobId ?? null}, ${req.invoiceId ?? null},
            ${req.attachInvoicePdf ? tx.json([{ kind: 'invoice_pdf', invoice_id: req.attachInvoicePdf }]) : null}, ${providerName}, 'pending',
            ${req.idempotencyKey}, ${req.quotaReserved ?? false}, ${deps.clock.now()})
    on conflict (company_id, idempotency_key) do nothing`
  const [row] = await tx<CommRow[]>`
    select id, status, provider, quota_counted from communications where idempotency_key = ${req.idempotencyKey} for update`
  // Handed over already: never again. A failed one (refused, or over the limit) may be tried again.
  if (row!.status !== 'pending' && row!.status !== 'failed') return { row: row!, send: false as const }
  if (!row!.quota_counted) {
    const refusal = await reserveMessages(tx, { companyId: req.companyId, metric: metricOf(req.channel), count: 1, now: deps.clock.now() })
    if (refusal) {
      const reason = `not sent: ${describeRefusal(refusal)}`
      await tx`update communications set status = 'failed', error = ${reason} where id = ${row!.id}`
      return { row: row!, send: false as const, reason }
    }
    await tx`update communications set quota_counted = true where id = ${row!.id}`
  }
  return { row: row!, send: true as const }
}

export async function sendMessage(deps: Deps, req: MessageRequest): Promise<MessageOutcome> {
  const provider = req.channel === 'sms' ? deps.sms : deps.email
  const prepared = await withTenant(deps.db, req.companyId, (tx) => prepare(deps, tx, req, provider.name))
  const { row } = prepared
  if (!prepared.send) {
    if (prepared.reason) return { communicationId: row.id, status: 'not_sent', provider: row.provider, alreadySent: false, reason: prepared.reason }
    return { communicationId: row.id, status: row.status === 'failed' ? 'failed' : row.status === 'delivered' ? 'sent' : row.status as 'recorded' | 'sent', provider: row.provider, alreadySent: true }
  }

  try {
    const result = req.channel === 'sms'
      ? await deps.sms.send({ to: req.to, body: req.body, idempotencyKey: req.idempotencyKey })
      : await deps.email.send({
        to: req.to, subject: req.subject ?? '', html: req.body, text: req.text ?? req.body, idempotencyKey: req.idempotencyKey,
        attachments: req.attachInvoicePdf ? [await invoicePdfAttachment(deps, req.companyId, req.attachInvoicePdf)] : undefined,
      })
    const now = deps.clock.now()
    await withTenant(deps.db, req.companyId, (tx) => tx`
      update communications set status = ${result.status}, provider_message_id = ${result.providerMessageId},
             handed_to_provider_at = ${now}, error = null
      where id = ${row.id}`)
    return { communicationId: row.id, status: result.status, provider: provider.name, alreadySent: false }
  } catch (error) {
    if (error instanceof PermanentDeliveryError) {
      // Refused for good: nothing went out, so the count is given back.
      await withTenant(deps.db, req.companyId, async (tx) => {
        await tx`update communications set status = 'failed', error = ${error.message}, quota_counted = false where id = ${row.id}`
        await releaseMessages(tx, { metric: metricOf(req.channel), count: 1, now: deps.clock.now() })
      })
    }
    throw error
  }
}
