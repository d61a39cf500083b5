// What the client does on the public quote page: open it (Sent -> Viewed, once), accept it with
// their typed name (signature, time and address kept), or decline it with an optional reason.
// The unguessable token is the only credential; an expired quote cannot be accepted.
import type postgres from 'postgres'
import type { Deps } from '../../core/deps.js'
import { AppError, notFound } from '../../core/errors.js'
import { companyToday } from '../../core/company-time.js'
import { localDate } from '../../core/zoned-time.js'
import { withTenantEmitting, type Emit } from '../../core/reactions.js'
import {
  findClient, findCompanyByQuoteToken, findPageCompany, findQuoteByToken, lineItemsFor, presentQuote, updateQuoteAccepted, updateQuoteDeclined,
  updateQuoteExpired, updateQuoteViewed, type QuoteRow,
} from './queries.js'
import { onStatusChange, quoteChanged } from './service.js'
import { issueDepositInvoice } from '../invoicing/deposit.js'
import { openJobOnAcceptance } from '../jobs/on-acceptance.js'
import { loadInvoice } from '../invoicing/service.js'

export interface PublicQuoteView {
  quote: ReturnType<typeof presentQuote>
  /** timeZone: the business's own zone, the calendar the page's dates are read in. */
  business: { name: string; abn: string | null; phone: string | null; email: string; timeZone: string }
  client: { name: string; address: string | null; suburb: string | null }
  /** The deposit invoice once the quote is accepted: where the client sees and pays it. */
  depositInvoice?: { publicUrl: string; paymentUrl: string | null; balance: number }
}

async function companyFor(deps: Deps, token: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) throw notFound('Quote')
  const companyId = await findCompanyByQuoteToken(deps.db.app, token)
  if (!companyId) throw notFound('Quote')
  return companyId
}

/** Runs fn on the quote behind the token, inside the company's transaction, with the row locked. */
async function withQuote<T>(deps: Deps, token: string, fn: (tx: postgres.TransactionSql, row: QuoteRow, now: Date, companyId: string, emit: Emit) => Promise<T>): Promise<T> {
  const companyId = await companyFor(deps, token)
  return withTenantEmitting(deps, companyId, async (tx, emit) => {
    const now = deps.clock.now()
    const row = await findQuoteByToken(tx, token, await companyToday(tx, now))
    if (!row || row.sent_count === 0) throw notFound('Quote') // a Draft has no public page yet
    if (row.status === 'Expired') {
      await updateQuoteExpired(tx, row.id, now)
    }
    return fn(tx, row, now, companyId, emit)
  })
}

/** The page's data, read after any change this request made. */
async function view(deps: Deps, tx: postgres.TransactionSql, token: string): Promise<PublicQuoteView> {
  const company = await findPageCompany(tx)
  const row = (await findQuoteByToken(tx, token, localDate(deps.clock.now(), company!.time_zone)))!
  const lines = await lineItemsFor(tx, [row.id])
  const lead = await findClient(tx, row.lead_id)
  const quote = presentQuote(row, lines.get(row.id)!, deps.urls.siteRoot)
  const deposit = quote.deposit?.invoiceId ? await loadInvoice(deps, tx, quote.deposit.invoiceId) : null
  return {
    quote,
    business: { name: company!.business_name, abn: company!.abn, phone: company!.phone, email: company!.contact_email, timeZone: company!.time_zone },
    client: lead!,
    ...(deposit && { depositInvoice: { publicUrl: deposit.publicUrl, paymentUrl: deposit.paymentUrl, balance: deposit.balance } }),
  }
}

export async function openPublicQuote(deps: Deps, token: string): Promise<PublicQuoteView> {
  return withQuote(deps, token, async (tx, row, now) => {
    if (row.status === 'Sent') {
      await updateQuoteViewed(tx, row.id, now)
    }
    return view(deps, tx, token)
  })
}

const OPEN_FOR_ANSWER = ['Sent', 'Viewed']

function assertAnswerable(row: QuoteRow, action: 'accept' | 'decline') {
  if (row.status === 'Expired') throw new AppError('conflict', `This quote expired on ${row.valid_until} and can no longer be ${action}ed. Ask for a new quote.`, { current_status: 'Expired' })
  if (!OPEN_FOR_ANSWER.includes(row.status)) throw new AppError('conflict', `This quote is already ${row.status}.`, { current_status: row.status })
}

export async function acceptPublicQuote(deps: Deps, token: string, signature: { name: string; ip: string }): Promise<PublicQuoteView> {
  const name = signature.name.trim()
  if (name.length < 2 || name.length > 200) {
    throw new AppError('validation_error', 'Type your full name to accept.', { messages: ['name: type your full name (2 to 200 characters) as your signature'] })
  }
  return withQuote(deps, token, async (tx, row, now, companyId, emit) => {
    assertAnswerable(row, 'accept')
    await updateQuoteAccepted(tx, row.id, name, signature.ip, now)
    const deposit = await issueDepositInvoice(deps, tx, companyId, row, now)
    await openJobOnAcceptance(tx, emit, companyId, row, now) // takes the deposit invoice with it
    const result = await view(deps, tx, token)
    await onStatusChange(tx, emit, companyId, row, result.quote, now)
    await emit(quoteChanged(companyId, row, now)) // its follow-ups stop now
    if (deposit) result.depositInvoice = { publicUrl: deposit.invoice.publicUrl, paymentUrl: deposit.invoice.paymentUrl, balance: deposit.invoice.balance }
    return result
  })
}

export async function declinePublicQuote(deps: Deps, token: string, reason: string | null): Promise<PublicQuoteView> {
  return withQuote(deps, token, async (tx, row, now, companyId, emit) => {
    assertAnswerable(row, 'decline')
    await updateQuoteDeclined(tx, row.id, reason?.trim().slice(0, 1000) || null, now)
    await emit(quoteChanged(companyId, row, now)) // its follow-ups stop now
    return view(deps, tx, token)
  })
}
