// Inbound processor webhooks: the signature is checked on the raw body before anything is read;
// each event is acted on once (processor_events, keyed by the processor's event id, written in the
// same transaction as its effect), so a replay changes nothing and is still acknowledged.
import type { Deps } from '../../core/deps.js'
import { withTenant } from '../../db/sql.js'
import { withTenantEmitting } from '../../core/reactions.js'
import { WebhookSignatureError } from '../../providers/payments/provider.js'
import { applyAccountUpdate } from './account.js'
import { applySubscriptionEvent } from '../billing/processor-subscription.js'
import { recordPayment } from './record.js'
import { isUuid } from '../../core/uuid.js'
import { creditDepositEvent } from '../wallet/deposits.js'
import { findAccountId, findCompanyByPaymentAccount, findInvoiceId, findLiveCompany, insertProcessorEvent } from './queries.js'

export type WebhookOutcome = { status: 'recorded' | 'duplicate' | 'ignored'; event_id: string; detail?: string }

/** Throws WebhookSignatureError when the signature does not verify. */
export async function handleProcessorWebhook(deps: Deps, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
  const event = await deps.payments.verifyWebhook(rawBody, signature)
  const provider = deps.payments.name
  if (event.kind === 'ignored') return { status: 'ignored', event_id: event.eventId, detail: event.type }
  if (event.kind === 'subscription') return applySubscriptionEvent(deps, event)
  if (event.kind === 'account') {
    const companyId = await findCompanyByPaymentAccount(deps.db.app, provider, event.accountId)
    if (!companyId) return { status: 'ignored', event_id: event.eventId, detail: 'unknown account' }
    return withTenant(deps.db, companyId, async (tx) => {
      if (!(await insertProcessorEvent(tx, provider, event.eventId, companyId, 'account'))) return { status: 'duplicate' as const, event_id: event.eventId }
      await applyAccountUpdate(deps, tx, event.accountId, event.chargesEnabled)
      return { status: 'recorded' as const, event_id: event.eventId }
    })
  }
  if (event.kind === 'wallet_deposit') return creditDepositEvent(deps, event)
  // A payment: the signed metadata names the company and invoice (we put them there).
  if (!isUuid(event.companyId) || !isUuid(event.invoiceId)) return { status: 'ignored', event_id: event.eventId, detail: 'metadata is not ours' }
  return withTenantEmitting(deps, event.companyId, async (tx, emit) => {
    const company = await findLiveCompany(tx) // RLS: only this company's row
    if (!company) return { status: 'ignored' as const, event_id: event.eventId, detail: 'unknown company' }
    // The money must have gone to this company's own account: metadata alone could name anyone's
    // invoice (a session made on another account with our ids copied in).
    const account = await findAccountId(tx, provider)
    if (!account || account.account_id !== event.accountId) return { status: 'ignored' as const, event_id: event.eventId, detail: 'not paid to this company\'s account' }
    const invoice = await findInvoiceId(tx, event.invoiceId)
    if (!invoice) return { status: 'ignored' as const, event_id: event.eventId, detail: 'unknown invoice' }
    if (!(await insertProcessorEvent(tx, provider, event.eventId, event.companyId, 'payment'))) return { status: 'duplicate' as const, event_id: event.eventId }
    const result = await recordPayment(deps, tx, event.companyId, {
      invoiceId: event.invoiceId, amountCents: event.amountCents, surchargeCents: event.surchargeCents, method: 'card', provider,
      providerPaymentId: event.paymentId, reference: event.paymentId, receivedAt: event.occurredAt, alreadyTaken: true,
    }, emit)
    return { status: result.already_recorded ? 'duplicate' as const : 'recorded' as const, event_id: event.eventId }
  })
}

export { WebhookSignatureError }
