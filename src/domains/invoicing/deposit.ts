// The deposit a quote asks for (a percentage of its total, or a fixed amount incl. GST) is invoiced
// the moment the client accepts the quote on its page, so they can pay it there and then. Its GST
// follows the quote's own split; the job's final invoice nets it off.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { depositCents, type QuoteRow } from '../quotes/queries.js'
import { basisTotals, claimAmount, claimPercent, type Amounts, type BasisLine } from './allocation.js'
import { issueInvoice, recordInvoiceSent } from './issue.js'
import { findLiveDepositInvoice, paymentsActive } from './queries.js'
import { loadInvoice, quoteBasis } from './service.js'

export interface DepositRule {
  percent: number | null
  amountCents: number | null
}

const nothingInvoiced = { subtotalCents: 0, gstCents: 0, percentClaimed: 0, claimedPositions: new Set<number>() }

/** The deposit's amount incl. GST, split into subtotal and GST like the quote. */
export function depositAmounts(basis: BasisLine[], rule: DepositRule): Amounts {
  return rule.percent !== null ? claimPercent(basis, nothingInvoiced, rule.percent) : claimAmount(basis, nothingInvoiced, rule.amountCents!)
}


/** Issues the deposit invoice of an accepted quote (none when it asks for none, or one exists). */
export async function issueDepositInvoice(deps: Deps, tx: postgres.TransactionSql, companyId: string, quote: QuoteRow, now: Date) {
  const rule: DepositRule = {
    percent: quote.deposit_percent === null ? null : Number(quote.deposit_percent),
    amountCents: quote.deposit_cents === null ? null : Number(quote.deposit_cents),
  }
  if (rule.percent === null && rule.amountCents === null) return null
  const existing = await findLiveDepositInvoice(tx, quote.id)
  if (existing) return null
  const basis = await quoteBasis(tx, quote)
  if (basisTotals(basis).subtotalCents === 0) return null
  // A small percentage of a tiny quote can round to $0.00: no deposit then (claiming $0 would refuse the acceptance).
  if (depositCents(quote) === 0) return null
  const amounts = depositAmounts(basis, rule)
  const label = rule.percent !== null ? `Deposit (${rule.percent}%) on quote ${quote.quote_number}` : `Deposit on quote ${quote.quote_number}`
  const id = await issueInvoice(tx, {
    companyId, leadId: quote.lead_id, jobId: null, quoteId: quote.id, kind: 'deposit',
    lines: [{ description: label, quantity: 1, unitPriceCents: amounts.subtotalCents, totalCents: amounts.subtotalCents, gstCents: amounts.gstCents, source: 'claim' }],
    claim: rule.percent !== null ? { percent: rule.percent, deposit: true } : { amount_cents: rule.amountCents, deposit: true },
    dueInDays: 0, notes: 'Deposit to confirm the booking; it is deducted from the final invoice.', sent: true, now,
  })
  const invoice = await loadInvoice(deps, tx, id)
  await recordInvoiceSent(tx, companyId, invoice, ['quote_page'], now)
  return { invoice, payable: await paymentsActive(tx, deps.payments.name) }
}
