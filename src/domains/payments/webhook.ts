// Inbound processor webhooks: the signature is checked on the raw body before anything is read;
// each event is acted on once (processor_events, keyed by the processor's event id, written in the
// same transaction as its effect), so a replay changes nothing and is still acknowledged.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { WebhookSignatureError, type ProcessorEvent } from '../../providers/payments/provider.js'
import { applyAccountUpdate } from './account.js'
import { recordPayment } from './record.js'
import { isUuid } from '../../core/uuid.js'

export type WebhookOutcome = { status: 'recorded' | 'duplicate' | 'ignored'; event_id: string; detail?: string }

async function firstTime(tx: postgres.TransactionSql, provider: string, event: ProcessorEvent, companyId: string, type: string): Promise<boolean> {
  const rows = await tx`insert into processor_events (provider, event_id, company_id, event_type) values (${provider}, ${event.eventId}, ${companyId}, ${type})
                        on conflict do nothing returning event_id`
  return rows.length > 0
}

/** Throws WebhookSignatureError when the signature does not verify. */
export async function handleProcessorWebhook(deps: Deps, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
  const event = deps.payments.verifyWebhook(rawBody, signature)
  const provider = deps.payments.name
  if (event.kind === 'ignored') return { status: 'ignored', event_id: event.eventId, detail: event.type }
  if (event.kind === 'account') {
    const [row] = await deps.db.app<{ company_id: string | null }[]>`select payment_account_company(${provider}, ${event.accountId}) as company_id`
    if (!row?.company_id) return { status: 'ignored', event_id: event.eventId, detail: 'unknown account' }
    return withTenant(deps.db, row.company_id, async (tx) => {
      if (!(await firstTime(tx, provider, event, row.company_id!, 'account'))) return { status: 'duplicate' as const, event_id: event.eventId }
      await applyAccountUpdate(deps, tx, event.accountId, event.chargesEnabled)
      return { status: 'recorded' as const, event_id: event.eventId }
    })
  }
  // A payment: the signed metadata names the company and invoice (we put them there).
  if (!isUuid(event.companyId) || !isUuid(event.invoiceId)) return { status: 'ignored', event_id: event.eventId, detail: 'metadata is not ours' }
  return withTenantEmitting(deps, event.companyId, async (tx, emit) => {
    const [company] = await tx<{ id: string }[]>`select id from companies where deleted_at is null` // RLS: only this company's row
    if (!company) return { status: 'ignored' as const, event_id: event.eventId, detail: 'unknown company' }
    // The money must have gone to this company's own account: metadata alone could name anyone's
    // invoice (a session made on another account with our ids copied in).
    const [account] = await tx<{ account_id: string }[]>`select account_id from payment_accounts where provider = ${provider}`
    if (!account || account.account_id !== event.accountId) return { status: 'ignored' as const, event_id: event.eventId, detail: 'not paid to this company\'s account' }
    const [invoice] = await tx<{ id: string }[]>`select id from invoices where id = ${event.invoiceId}`
    if (!invoice) return { status: 'ignored' as const, event_id: event.eventId, detail: 'unknown invoice' }
    if (!(await firstTime(tx, provider, event, event.companyId, 'payment'))) return { status: 'duplicate' as const, event_id: event.eventId }
    const result = await recordPayment(deps, tx, event.companyId, {
      invoiceId: event.invoiceId, amountCents: event.amountCents, surchargeCents: event.surchargeCents, method: 'card', provider,
      providerPaymentId: event.paymentId, reference: event.paymentId, receivedAt: event.occurredAt, alreadyTaken: true,
    }, emit)
    return { status: result.already_recorded ? 'duplicate' as const : 'recorded' as const, event_id: event.eventId }
  })
}

export { WebhookSignatureError }
