// Paying an invoice from its public page. The Pay button opens a hosted payment page from the
// provider for the balance (plus any card surcharge, its own line): Stripe Checkout on the
// company's connected account, or the sandbox's own page, where a payment is recorded at once.
import type { Deps } from '../../core/deps.js'
import { AppError } from '../../core/errors.js'
import { withPublicInvoice } from '../invoicing/public.js'
import { balanceCents, publicInvoiceUrl } from '../invoicing/queries.js'
import { readSettings, surchargeCents } from '../invoicing/settings.js'
import { activeAccount } from './account.js'
import { findBusinessName, findLeadEmail } from './queries.js'
import { recordPayment } from './record.js'

/** The hosted payment page to send the client to, or null when nothing is owed. */
export async function startInvoicePayment(deps: Deps, token: string): Promise<string | null> {
  const prepared = await withPublicInvoice(deps, token, async (tx, row, companyId) => {
    const balance = balanceCents(row)
    if (balance <= 0 || row.stored_status === 'Void') return null
    const account = await activeAccount(deps, tx)
    const settings = await readSettings(tx)
    const company = await findBusinessName(tx)
    const lead = await findLeadEmail(tx, row.lead_id)
    return { row, companyId, balance, account, settings, business: company!.business_name, email: lead!.email }
  })
  if (!prepared) return null
  const { row, balance, settings } = prepared
  const page = publicInvoiceUrl(deps.urls.siteRoot, row.public_token)
  // The processor is called outside any transaction; the key makes a second click reuse the session.
  const session = await deps.payments.createInvoicePayment({
    companyId: prepared.companyId, accountId: prepared.account.account_id, invoiceId: row.id, invoiceNumber: row.invoice_number,
    amountCents: balance, surchargeCents: surchargeCents(settings, balance), surchargeLabel: `Card surcharge (${settings.card_surcharge_percent ?? 0}%)`,
    customerEmail: prepared.email, businessName: prepared.business, successUrl: `${page}?paid=1`, cancelUrl: page, publicToken: row.public_token,
    idempotencyKey: `invoice-pay:${row.id}:${balance}:${Number(row.amount_paid_cents)}`,
  })
  return session.url
}

export interface SandboxPayView {
  invoiceNumber: string
  businessName: string
  balanceCents: number
  surchargePercent: number | null
  surchargeOnBalanceCents: number
}

/** What the sandbox pay page shows. */
export async function sandboxPayView(deps: Deps, token: string): Promise<SandboxPayView> {
  return withPublicInvoice(deps, token, async (tx, row) => {
    const settings = await readSettings(tx)
    const company = await findBusinessName(tx)
    const balance = balanceCents(row)
    return {
      invoiceNumber: row.invoice_number, businessName: company!.business_name, balanceCents: balance,
      surchargePercent: settings.card_surcharge_percent, surchargeOnBalanceCents: surchargeCents(settings, balance),
    }
  })
}

/**
 * A (pretend) card payment on the sandbox page. The form's attempt id makes a double submit one
 * payment; more than the balance is refused; the surcharge is charged on the amount paid.
 */
export async function paySandboxInvoice(deps: Deps, token: string, payment: { amountCents: number; attempt: string }) {
  if (deps.payments.name !== 'sandbox') throw new AppError('not_found', 'Sandbox payments are not enabled in this deployment.')
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(payment.attempt)) throw new AppError('validation_error', 'The form could not be read; open the pay page again.', { messages: ['attempt: reload the pay page'] })
  return withPublicInvoice(deps, token, async (tx, row, companyId, emit) => {
    await activeAccount(deps, tx)
    const settings = await readSettings(tx)
    return recordPayment(deps, tx, companyId, {
      invoiceId: row.id, amountCents: payment.amountCents, surchargeCents: surchargeCents(settings, payment.amountCents), method: 'card',
      provider: 'sandbox', providerPaymentId: `sandbox_${payment.attempt}`, reference: `sandbox_${payment.attempt}`, receivedAt: deps.clock.now(), alreadyTaken: false,
    }, emit)
  })
}
