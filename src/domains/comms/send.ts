// Sending one SMS or email: record it (idempotently, keyed per logical message), refuse a marketing
// message to an address that opted out, count it against the month's limit, hand it to the
// configured provider, and record what the provider said. A retried activity with the same key
// finds the earlier record and does not send again. No provider call happens inside a database
// transaction. Every message the service sends comes through here, so the Spam Act rules
// (spam-act.ts) hold for every tool and automation.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { retryThroughOutage } from '../../core/outage-retry.js'
import { metricsOf } from '../../core/metrics.js'
import { withTenant } from '../../db/sql.js'
import { PermanentDeliveryError } from '../../providers/sms/provider.js'
import { invoicePdfAttachment } from '../invoicing/public.js'
import { describeRefusal, metricOf, releaseMessages, reserveMessages, type MeteredMessage } from '../billing/message-quota.js'
import { textFromHtml, unsubscribeHeaders } from './compose.js'
import { optedOutReason, optedOutSince, readCompany, recordOutbound, unsubscribeUrl, type Company } from './record.js'
import { isMarketing } from './spam-act.js'
import { twilioStatusCallbackUrl } from './twilio-status.js'
import type { MessageOutcome, MessageRequest } from '../../../workflows/messages.js'
import {
  lockMessageByKey, lockQuotaCounted, markHandedToProvider, markMessageNotSent, markMessageRefused, markQuotaCounted, requeueMessage, type CommRow,
} from './queries/messages.js'

export type { MessageOutcome, MessageRequest } from '../../../workflows/messages.js'

type Prepared =
  | { row: CommRow; company: Company; send: true }
  | { row: CommRow; company: Company; send: false; reason?: string; refusedBy?: MeteredMessage }

/** Marks the message not sent, giving back its count if it had one. */
async function notSent(deps: Deps, tx: postgres.TransactionSql, row: CommRow, channel: 'sms' | 'email', reason: string) {
  const counted = await lockQuotaCounted(tx, row.id)
  await markMessageNotSent(tx, row.id, reason, deps.clock.now())
  if (counted) await releaseMessages(tx, { metric: metricOf(channel), count: 1, now: deps.clock.now() })
}

/** Finds or records the message, checks the opt-outs, and counts it once. Returns what to do next. */
async function prepare(deps: Deps, tx: postgres.TransactionSql, req: MessageRequest, providerName: string): Promise<Prepared> {
  const company = await readCompany(tx)
  await recordOutbound(deps, tx, req, { provider: providerName, company })
  const row = await lockMessageByKey(tx, req.idempotencyKey)
  // Handed over already: never again. One refused before the provider (over the limit, say) may be tried again.
  if (row!.handed_to_provider_at || (row!.status !== 'queued' && row!.status !== 'failed')) return { row: row!, company, send: false }
  if (isMarketing(req.messageType)) {
    const since = await optedOutSince(tx, req.channel, row!.to_address)
    if (since) {
      const reason = optedOutReason(req.channel, row!.to_address, since, company)
      await notSent(deps, tx, row!, req.channel, reason)
      return { row: row!, company, send: false, reason }
    }
  }
  if (!row!.quota_counted) {
    const refusal = await reserveMessages(tx, { companyId: req.companyId, metric: metricOf(req.channel), count: 1, now: deps.clock.now() })
    if (refusal) {
      const reason = `not sent: ${describeRefusal(refusal)}`
      await markMessageRefused(tx, row!.id, reason, deps.clock.now())
      return { row: row!, company, send: false, reason, refusedBy: refusal.metric }
    }
    await markQuotaCounted(tx, row!.id)
  }
  if (row!.status === 'failed') await requeueMessage(tx, row!.id)
  return { row: row!, company, send: true }
}

function alreadyOutcome(row: CommRow): MessageOutcome {
  const status = row.status === 'received' ? 'recorded' : row.status
  return { communicationId: row.id, status, provider: row.provider, alreadySent: true }
}

/** Sends one message, counted by channel and outcome (tradie_messages_total). */
export async function sendMessage(deps: Deps, req: MessageRequest): Promise<MessageOutcome> {
  const metrics = metricsOf(deps)
  try {
    const outcome = await send(deps, req)
    metrics.messages.inc({ channel: req.channel, outcome: outcome.alreadySent ? 'already_sent' : outcome.status })
    return outcome
  } catch (error) {
    // refused: the provider said no for good; error: the activity retries it.
    metrics.messages.inc({ channel: req.channel, outcome: error instanceof PermanentDeliveryError ? 'refused' : 'error' })
    throw error
  }
}

/**
 * Records that the provider took the message. The message is out by now, so a database outage here
 * must not fail the attempt: a failed attempt is retried, and the retry, finding the row not handed
 * over, sends the message again. The fault suite saw exactly that across a Postgres restart: one
 * payment-chase email delivered twice (Twilio drops a repeated idempotency token; an SMTP server
 * does not). So the write is tried again while the database comes back. Only a crash of the worker
 * between the provider's answer and this write still sends again (at-least-once, same key).
 */
async function recordHandover(deps: Deps, companyId: string, rowId: string, result: { providerMessageId: string | null; status: string }) {
  const now = deps.clock.now()
  // About 6 s of tries, inside MESSAGE_SEND's 10 s per attempt. A status callback may have arrived
  // first: the status only moves forward.
  return retryThroughOutage(() => withTenant(deps.db, companyId, (tx) => markHandedToProvider(tx, rowId, result, now)))
}

async function send(deps: Deps, req: MessageRequest): Promise<MessageOutcome> {
  const provider = req.channel === 'sms' ? deps.sms : deps.email
  const prepared = await withTenant(deps.db, req.companyId, (tx) => prepare(deps, tx, req, provider.name))
  const { row, company } = prepared
  if (!prepared.send) {
    if (prepared.refusedBy) metricsOf(deps).quotaRefusals.inc({ limit: prepared.refusedBy })
    if (prepared.reason) return { communicationId: row.id, status: 'not_sent', provider: row.provider, alreadySent: false, reason: prepared.reason }
    return alreadyOutcome(row)
  }

  try {
    const result = req.channel === 'sms'
      ? await deps.sms.send({
        to: row.to_address, body: row.body, idempotencyKey: req.idempotencyKey,
        statusCallback: deps.sms.name === 'twilio' ? twilioStatusCallbackUrl(deps, row.id) : undefined,
      })
      : await deps.email.send({
        to: req.to, subject: req.subject ?? '', html: row.body, text: row.text_body ?? await textFromHtml(row.body), idempotencyKey: req.idempotencyKey,
        replyTo: req.replyTo ?? company.contactEmail,
        headers: row.unsubscribe_token ? unsubscribeHeaders(unsubscribeUrl(deps, row.unsubscribe_token)) : undefined,
        attachments: req.attachInvoicePdf ? [await invoicePdfAttachment(deps, req.companyId, req.attachInvoicePdf)] : undefined,
      })
    await recordHandover(deps, req.companyId, row.id, result)
    return { communicationId: row.id, status: result.status, provider: provider.name, alreadySent: false }
  } catch (error) {
    if (error instanceof PermanentDeliveryError) {
      // Refused for good: nothing went out, so the count is given back.
      await withTenant(deps.db, req.companyId, (tx) => notSent(deps, tx, row, req.channel, error.message))
    }
    throw error
  }
}
