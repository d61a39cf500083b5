// Sending one SMS or email: record it (idempotently, keyed per logical message), hand it to the
// configured provider, and record what the provider said. A retried activity with the same key
// finds the earlier record and does not send again.
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { usagePeriod } from '../../core/period.js'
import { PermanentDeliveryError } from '../../providers/sms/provider.js'

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
  idempotencyKey: string
}

export interface MessageOutcome {
  communicationId: string
  status: 'recorded' | 'sent' | 'failed'
  provider: string
  alreadySent: boolean
}

interface CommRow {
  id: string
  status: 'pending' | 'recorded' | 'sent' | 'delivered' | 'failed'
  provider: string
}

export async function sendMessage(deps: Deps, req: MessageRequest): Promise<MessageOutcome> {
  const provider = req.channel === 'sms' ? deps.sms : deps.email
  const existing = await withTenant(deps.db, req.companyId, async (tx) => {
    const [inserted] = await tx<CommRow[]>`
      insert into communications (company_id, channel, message_type, to_address, from_address, subject, body,
                                  lead_id, quote_id, job_id, provider, status, idempotency_key, created_at)
      values (${req.companyId}, ${req.channel}, ${req.messageType}, ${req.to},
              ${req.channel === 'email' ? deps.email.from : null}, ${req.subject ?? null}, ${req.body},
              ${req.leadId ?? null}, ${req.quoteId ?? null}, ${req.jobId ?? null}, ${provider.name}, 'pending',
              ${req.idempotencyKey}, ${deps.clock.now()})
      on conflict (company_id, idempotency_key) do nothing
      returning id, status, provider`
    if (inserted) return { row: inserted, fresh: true }
    const [found] = await tx<CommRow[]>`
      select id, status, provider from communications where idempotency_key = ${req.idempotencyKey}`
    return { row: found!, fresh: false }
  })
  const { row } = existing
  if (!existing.fresh && row.status !== 'pending') {
    return { communicationId: row.id, status: row.status === 'failed' ? 'failed' : row.status === 'delivered' ? 'sent' : row.status, provider: row.provider, alreadySent: true }
  }

  try {
    const result = req.channel === 'sms'
      ? await deps.sms.send({ to: req.to, body: req.body, idempotencyKey: req.idempotencyKey })
      : await deps.email.send({ to: req.to, subject: req.subject ?? '', html: req.body, text: req.text ?? req.body, idempotencyKey: req.idempotencyKey })
    const now = deps.clock.now()
    const period = usagePeriod(now).key
    const metric = req.channel === 'sms' ? 'sms' : 'emails'
    await withTenant(deps.db, req.companyId, async (tx) => {
      await tx`
        update communications set status = ${result.status}, provider_message_id = ${result.providerMessageId},
               handed_to_provider_at = ${now}
        where id = ${row.id}`
      await tx`
        insert into usage_counters as u (company_id, period, metric, count) values (${req.companyId}, ${period}, ${metric}, 1)
        on conflict on constraint usage_counters_pkey do update set count = u.count + 1`
    })
    return { communicationId: row.id, status: result.status, provider: provider.name, alreadySent: false }
  } catch (error) {
    if (error instanceof PermanentDeliveryError) {
      await withTenant(deps.db, req.companyId, (tx) =>
        tx`update communications set status = 'failed', error = ${error.message} where id = ${row.id}`)
    }
    throw error
  }
}
